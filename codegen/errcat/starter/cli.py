"""``python -m errcat init --api-name NAME``: write a starter catalogue for a new API.

``--<language>-package NAME`` (one per language errcat targets: the
installed name, ``pip install`` / ``npm install``) overrides ``<api>-errors``.

The starter (``catalogue.yaml.tmpl`` beside this module) is in the current
format, validates and generates as it is: a handful of common codes with
their texts, origin and advice, the transport codes the SDKs raise, a
fallback map that leans on errcat's defaults, and no sanitizer section (the
standard one applies), with comments that teach the format. The names it
does not get on the command line are derived from the API's name.

Exit status: 0 written; 2 the file exists (it is never overwritten), a name
is invalid, or the command line is wrong; 3 the file could not be written.
"""

from __future__ import annotations

import argparse
import importlib.resources
import re
import string
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from errcat.check.validate import validate
from errcat.console import DEFAULT_CATALOGUE, parse, problems, write_one
from errcat.metaschema import meta_schema
from errcat.migrate.edits import scalar
from errcat.migrate.formats import CURRENT
from errcat.model.catalogue import build_model
from errcat.names import naming
from errcat.names.languages import LANGUAGES
from errcat.problems import CatalogueError, one_line
from errcat.source.load import parse_catalogue

TEMPLATE = "catalogue.yaml.tmpl"

LIMITS = {
    "max_exec_timeout_s": 3600,
    "default_exec_timeout_s": 30,
    "default_run_code_timeout_s": 60,
    "error_body_max_bytes": 65536,
    "text_max_chars": 2048,
    "json_max_depth": 64,
    "context_max_keys": 64,
    "error_body_read_timeout_ms": 5000,
    "retry_after_max_ms": 3600000,
}
"""The starter's limits; an execution timeout is written only while the meta-schema requires it."""
_EXECUTION = ("max_exec_timeout_s", "default_exec_timeout_s", "default_run_code_timeout_s")


def parser() -> argparse.ArgumentParser:
    """The arguments of ``python -m errcat init``."""
    parser = argparse.ArgumentParser(
        prog="python -m errcat init",
        description="Write a starter error catalogue for a new API, in the current format.",
    )
    parser.add_argument("--api-name", required=True, help='the API\'s name, e.g. "Payments API"')
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(DEFAULT_CATALOGUE),
        help=f"the catalogue file to write (default: {DEFAULT_CATALOGUE}); never overwritten",
    )
    for lang in LANGUAGES:
        parser.add_argument(
            f"--{lang.key}-package",
            dest=lang.key,
            metavar=lang.install_field.upper(),
            help=f"the name the {lang.label} package is installed by "
            f"(packages.{lang.key}.{lang.install_field}; default: <api>-errors)",
        )
    return parser


def _words(api_name: str) -> list[str]:
    words = re.findall(r"[a-z0-9]+", api_name.lower())
    while len(words) > 1 and words[-1] in ("api", "service"):
        words.pop()
    return words or ["api"]


def _base_class(words: list[str]) -> str:
    name = "".join(word.capitalize() for word in words)
    name = f"{name}Error" if name[:1].isalpha() else f"Api{name}Error"
    legal = all(naming.base_class_problem(lang.key, name) is None for lang in LANGUAGES)
    return name if legal else "ApiError"


def _limits() -> str:
    required = set(meta_schema()["properties"]["limits"].get("required", ()))
    return "".join(
        f"  {key}: {value}\n"
        for key, value in LIMITS.items()
        if key not in _EXECUTION or key in required
    )


def _identifier(name: str) -> str:
    """A package name as the lower snake_case name code imports it by."""
    ident = re.sub(r"[^a-z0-9_]", "_", name.lower())
    return ident if ident[:1].isalpha() else f"m_{ident}"


def _packages(slug: str, given: Mapping[str, str | None]) -> str:
    """The ``packages`` section: each language's installed name (given, or ``<slug>-errors``),
    and its other fields: that name as an identifier, or, for a language whose names default
    from the others' (``Language.default_packages``), those defaults. Such a language is
    written only when its name is given."""
    written: dict[str, dict[str, str]] = {}
    for lang in LANGUAGES:
        if lang.default_packages is not None and not given.get(lang.key):
            continue
        installed = given.get(lang.key) or f"{slug}-errors"
        if lang.default_packages is not None:
            fields = {**lang.default_packages(written), lang.install_field: installed}
        else:
            fields = {
                field: installed if field == lang.install_field else _identifier(installed)
                for field in lang.package_fields
            }
        written[lang.key] = fields
    lines = []
    for key, fields in written.items():
        lines.append(f"  {key}:")
        lines += [f"    {field}: {scalar(value)}" for field, value in fields.items()]
    return "\n".join(lines)


def starter(
    api_name: str,
    *,
    packages: Mapping[str, str | None] | None = None,
    catalogue: str = DEFAULT_CATALOGUE,
) -> str:
    """The starter catalogue's text for ``api_name``; ``packages`` gives installed names by language."""
    words = _words(api_name)
    template = (importlib.resources.files("errcat.starter") / TEMPLATE).read_text("utf-8")
    return string.Template(template).substitute(
        api_comment=one_line(api_name),
        api_name=scalar(api_name),
        catalogue=catalogue,
        format=CURRENT,
        packages=_packages("-".join(words), packages or {}),
        base_class=_base_class(words),
        limits=_limits(),
    )


def run(argv: list[str], out: TextIO, err: TextIO) -> int:
    """Run ``init`` with ``argv`` (the words after ``init``); return the exit status."""
    args = parse(parser(), argv)
    if isinstance(args, int):
        return args
    path: Path = args.out
    shown = one_line(str(path))
    if path.exists() or path.is_symlink():
        print(f"errcat init: {shown} exists; init never overwrites a catalogue", file=err)
        return 2
    given = {lang.key: getattr(args, lang.key) for lang in LANGUAGES}
    text = starter(args.api_name, packages=given, catalogue=path.as_posix())
    try:
        doc = parse_catalogue(text, str(path))
        found = validate(doc)
        if found:
            raise CatalogueError(found)
        build_model(doc.data, source=str(path), regenerate="python -m errcat generate")
    except CatalogueError as exc:  # the names given make an invalid catalogue
        return problems(exc.problems, "errcat init", shown, err)
    if write_one(path, text, "errcat init", err):
        return 3
    print(f"errcat init: wrote {shown} (format {CURRENT}); next:", file=out)
    print(f"  python -m errcat generate --catalogue {shown}", file=out)
    return 0
