"""Derive the names a generated class or base class may not take, from the SDKs themselves.

For each language of :data:`errcat.names.languages.LANGUAGES`: every name that a
module of its hand-written runtime (every file under
:attr:`~errcat.names.languages.Language.runtime_dir` outside the generated folder)
defines, imports, exports or uses at module level, and every such name of the
generated modules that does not depend on the catalogue. Those are found by
rendering the repository's catalogue twice, once with every code, class,
context field and the base class renamed, and keeping the names both renders
share; the names the catalogue decides (classes, ``Known<base>``, context
types) are checked by :mod:`errcat.check.classnames` from the catalogue itself.

The result is kept in ``errcat/names/reserved.json`` (the installed generator
does not ship the runtimes). Rewrite it after changing a runtime, at the
repository root, with::

    python -m errcat.names.reserved

``codegen/tests/test_runtime_names.py`` fails when the file and the SDKs differ.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import yaml

from errcat.model.catalogue import Catalogue, ContextField, build_model
from errcat.names.languages import LANGUAGES, Language
from errcat.names.naming import CLASS_RE
from errcat.render import renderer

DATA = Path("codegen", "errcat", "names", "reserved.json")
"""The names file, under the repository root (the package reads its installed copy)."""
COMMAND = "python -m errcat.names.reserved"


# The folder of a runtime's compat layer (the Mitos SDKs' own names): a module
# of its own (in TypeScript an entry point of its own) that reaches the
# classes through the package, so no generated name shares its scope.
COMPAT_FOLDER = "compat"


def _sources(lang: Language, root: Path) -> list[str]:
    files = sorted((root / lang.runtime_dir).rglob(f"*{lang.suffix}"))
    return [
        p.read_text(encoding="utf-8")
        for p in files
        if p.relative_to(root / lang.runtime_dir).parts[0]
        not in (lang.generated_folder, COMPAT_FOLDER)
    ]


def _renamed(cat: Catalogue) -> Catalogue:
    """``cat`` with every code's class, every context field and the base class renamed."""

    def field(f: ContextField) -> ContextField:
        return dataclasses.replace(f, name=f"probe_{f.name}")

    codes = tuple(
        dataclasses.replace(
            c,
            class_names={k: f"Probe{v}" for k, v in c.class_names.items()},
            context=tuple(field(f) for f in c.context),
        )
        for c in cat.codes
    )
    return dataclasses.replace(
        cat,
        base_class=f"Probe{cat.base_class}",
        codes=codes,
        context_fields=tuple(field(f) for f in cat.context_fields),
    )


def _generated_names(lang: Language, cat: Catalogue, root: Path) -> set[str]:
    """The names the generated modules of ``lang`` define whatever the catalogue's names."""
    render = renderer(lang.key)
    found = []
    for model in (cat, _renamed(cat)):
        texts = [t for p, t in sorted(render(model).items()) if p.endswith(lang.suffix)]
        found.append(set().union(*lang.module_names(texts, root)))
    return found[0] & found[1]


def derive(root: Path) -> dict[str, list[str]]:
    """Every name each language's package in the repository ``root`` holds that a class could be named.

    Only names a class could have (:data:`errcat.names.naming.CLASS_RE`) are kept,
    and not the language's own builtins.
    """
    path = root / "catalogue" / "errors.yaml"
    data: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
    cat = build_model(data, source="catalogue/errors.yaml", regenerate="-")
    out: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        names = set().union(*lang.module_names(_sources(lang, root), root))
        names |= _generated_names(lang, cat, root)
        # A builtin the runtime uses is the language's, not the package's: the
        # class-name check reports it as a builtin, in that language only.
        out[lang.key] = sorted(n for n in names - lang.globals if CLASS_RE.match(n))
    return out


def dumps(names: dict[str, list[str]]) -> str:
    """The text of ``runtime_names.json``."""
    return json.dumps(names, indent=2) + "\n"


def main() -> int:
    """Rewrite ``codegen/errcat/names/reserved.json`` from the SDKs; run at the repository root."""
    root = Path.cwd()
    if not (root / DATA).is_file():
        print(f"error: no {DATA.as_posix()} here; run {COMMAND} at the repository root")
        return 2
    (root / DATA).write_text(dumps(derive(root)), encoding="utf-8")
    print(f"wrote {DATA.as_posix()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
