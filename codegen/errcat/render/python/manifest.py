"""The values of the Python package's ``pyproject.toml``, from the catalogue.

Every value is printed as a TOML string by :func:`toml_str` (a JSON string
is a TOML basic string, once the one character JSON leaves alone and TOML
refuses, DEL, is escaped).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from errcat.model.catalogue import Catalogue
from errcat.names.languages import PYTHON
from errcat.render.package import has_license_file


def toml_str(text: str) -> str:
    """``text`` as a TOML basic string."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


@dataclass(frozen=True)
class ManifestView:
    """What ``pyproject.toml.jinja`` prints, every value already quoted (but the module, a name)."""

    distribution: str
    module: str
    description: str
    license: str
    license_files: bool
    urls: tuple[tuple[str, str], ...]
    extras: tuple[tuple[str, str], ...]
    sdist: str


def manifest_view(cat: Catalogue) -> ManifestView:
    """The manifest of ``cat``'s Python package (``packages.python``, ``api``, the overlay)."""
    names = cat.packages[PYTHON.key]
    info = cat.package
    overlay = info.overlay_of(PYTHON.key)
    module = names[PYTHON.import_field]
    urls = []
    if cat.url:
        urls.append(("Homepage", toml_str(cat.url)))
    if info.repository:
        urls.append(("Source", toml_str(info.repository)))
        urls.append(("Issues", toml_str(f"{info.repository.rstrip('/')}/issues")))
    extras = tuple(
        (name, ", ".join(toml_str(r) for r in requirements))
        for name, requirements in sorted(overlay.manifest.get("extras", {}).items())
    )
    license_files = has_license_file(cat, PYTHON)
    sdist = [f"src/{module}", "README.md", *(["LICENSE"] if license_files else [])]
    sdist += [p for p in overlay.files if p not in sdist]
    return ManifestView(
        distribution=toml_str(names[PYTHON.install_field]),
        module=module,
        description=toml_str(info.description),
        license=toml_str(info.license),
        license_files=license_files,
        urls=tuple(urls),
        extras=extras,
        sdist=", ".join(toml_str(p) for p in sdist),
    )
