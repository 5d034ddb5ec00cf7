"""The files every SDK package gets from errcat itself: its runtime, copied, and its licence.

Each language's runtime is written once, catalogue-agnostic, in
``errcat/render/<key>/runtime/`` (its modules) and ``errcat/render/<key>/package/``
(the files its package builds with), which ship inside errcat. Every package
errcat generates carries a copy of both, each file under a header that says
where it was copied from (docs/packaging.md says why a copy rather than a
package of its own). The licence is the catalogue's ``api.license``: for
the default, Apache-2.0, errcat writes the licence's text as ``LICENSE``
(errcat's own, the same text); for any other, the repository writes it and
names it in ``packages.overlay``.
"""

from __future__ import annotations

import importlib.metadata
import importlib.resources
from importlib.resources.abc import Traversable
from pathlib import Path

from errcat.model.catalogue import Catalogue
from errcat.model.package import DEFAULT_LICENSE
from errcat.names.languages import Language
from errcat.render import header_lines
from errcat.render.markdown import inline, wrap

COMMENT_MARKERS = {
    ".py": "#",
    ".toml": "#",
    ".typed": "#",
    ".ts": "//",
    ".mjs": "//",
    ".json": "//",
}
"""How a copied file's header is commented, by file suffix (tsconfig files are JSON with comments)."""

RUNTIME_FOLDER = "runtime"
"""The folder of a target holding its runtime's modules, copied to :attr:`Language.runtime_dest`."""

PACKAGE_FOLDER = "package"
"""The folder of a target holding its package's build files, copied to :attr:`Language.package_dir`."""

REPLACEABLE = ("README.md", "LICENSE")
"""The generated package files a repository may write by hand instead (named in its overlay)."""


def _walk(folder: Traversable, prefix: str = "") -> dict[str, str]:
    files: dict[str, str] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name == "__pycache__" or entry.name.startswith("."):
            continue
        rel = f"{prefix}{entry.name}"
        if entry.is_dir():
            files |= _walk(entry, f"{rel}/")
        else:
            files[rel] = entry.read_text(encoding="utf-8")
    return files


def shipped(lang: Language, folder: str) -> dict[str, str]:
    """The files of ``errcat/render/<key>/<folder>/``, by POSIX path relative to it."""
    root = importlib.resources.files(f"errcat.render.{lang.key}") / folder
    return _walk(root) if root.is_dir() else {}


def copy_header(cat: Catalogue, origin: str, marker: str) -> str:
    """The header of a copied file: generated, from what, how to regenerate, and where to edit."""
    lines = (*header_lines(cat), f"A copy of {origin} (errcat's runtime): edit it there.")
    return "".join(f"{marker} {line}\n" for line in lines)


def copies(cat: Catalogue, lang: Language, folder: str, dest: str) -> dict[str, str]:
    """The files of ``folder`` copied under ``dest``, each under its :func:`copy_header`."""
    files = {}
    for rel, text in shipped(lang, folder).items():
        marker = COMMENT_MARKERS[Path(rel).suffix]
        origin = f"errcat/render/{lang.key}/{folder}/{rel}"
        files[f"{dest}/{rel}"] = copy_header(cat, origin, marker) + text
    return files


def runtime_files(cat: Catalogue, lang: Language) -> dict[str, str]:
    """The runtime's modules and the package's build files, copied into ``cat``'s package."""
    dest = lang.runtime_output_dir(cat.packages[lang.key])
    return copies(cat, lang, RUNTIME_FOLDER, dest) | copies(
        cat, lang, PACKAGE_FOLDER, lang.package_dir
    )


UNVERSIONED = "0.0.0"
"""The version of the packages of a catalogue without ``version``."""


def package_version(cat: Catalogue) -> str:
    """The packages' version: the catalogue's, else :data:`UNVERSIONED`."""
    return cat.version or UNVERSIONED


def license_text() -> str:
    """The text of :data:`DEFAULT_LICENSE`: errcat's own licence file."""
    try:
        text = importlib.metadata.distribution("errcat").read_text("licenses/LICENSE")
    except importlib.metadata.PackageNotFoundError:
        text = None
    if text is None:  # run from the repository without an install: codegen/LICENSE
        text = (Path(__file__).resolve().parents[2] / "LICENSE").read_text(encoding="utf-8")
    return text


def package_texts(
    cat: Catalogue, lang: Language, readme: str, extra: dict[str, str]
) -> dict[str, str]:
    """The package's own files: ``extra`` (its manifest...), the README and the licence.

    ``extra`` and ``readme`` are relative to the package folder. The README
    and the licence are left out when the overlay names them (the repository
    writes them), and the licence also when it is not :data:`DEFAULT_LICENSE`.
    """
    overlay = cat.package.overlay_of(lang.key)
    own = dict(extra)
    own["README.md"] = readme
    if cat.package.license == DEFAULT_LICENSE:
        own["LICENSE"] = license_text()
    return {
        f"{lang.package_dir}/{rel}": text
        for rel, text in own.items()
        if not (rel in REPLACEABLE and overlay.declares(rel))
    }


def has_license_file(cat: Catalogue, lang: Language) -> bool:
    """Whether the package has a ``LICENSE`` (errcat's, or one the overlay declares)."""
    declared = cat.package.overlay_of(lang.key).declares("LICENSE")
    return declared or cat.package.license == DEFAULT_LICENSE


def readme_prose(
    cat: Catalogue, lang: Language, raises: str, helpers: str, more: str = ""
) -> dict[str, str]:
    """The paragraphs of a package's README, wrapped at 80 columns with the catalogue's texts
    escaped as Markdown (:func:`errcat.render.markdown.inline`): ``raises``, ``helpers`` and ``more``
    are the language's words for what it does to a response, how to build an error without a
    client, and what else the package is."""
    name = cat.packages[lang.key][lang.install_field]
    about = (
        f"One error class per error code of {inline(cat.api_name)}, under one base class, "
        f"`{cat.base_class}`; parsing of any error response that never {raises}; the caller's "
        f"token redacted and server text sanitized in every error.{more}"
    )
    generated = (
        f"{helpers} Every class, code and text is generated from the API's error catalogue by "
        "[errcat](https://pypi.org/project/errcat/)."
    )
    home = f" Home: <{cat.url}>." if cat.url else ""
    return {
        "name": name,
        "description": wrap(inline(cat.package.description)),
        "about": wrap(about),
        "generated": wrap(generated),
        "closing": wrap(f"Licence: {inline(cat.package.license)}.{home}"),
    }
