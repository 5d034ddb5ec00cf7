"""``python -m errcat migrate [--catalogue PATH] [--check]``: rewrite a catalogue in the current format.

The file is edited in place, its comments and layout kept (the edits of
:mod:`errcat.migrate.steps`); what only a person can decide gets a valid
placeholder under a ``# TODO(errcat migrate): ...`` comment. Nothing is
written when the migrated catalogue would not validate, and the file is
replaced atomically. Running it again changes nothing.

Exit status: 0 migrated, or already current; 1 ``--check`` found a catalogue
to migrate; 2 the catalogue has problems (before or after migrating), is of
a newer format, or the command line is wrong; 3 the file could not be written.
"""

from __future__ import annotations

import argparse
import difflib
from pathlib import Path
from typing import TextIO

from errcat.check.validate import validate
from errcat.console import DEFAULT_CATALOGUE, parse, problems, write_one
from errcat.migrate.formats import CURRENT
from errcat.migrate.upgrade import migrate_command, upgrade
from errcat.problems import CatalogueError, one_line
from errcat.source.load import load_catalogue


def parser() -> argparse.ArgumentParser:
    """The arguments of ``python -m errcat migrate``."""
    parser = argparse.ArgumentParser(
        prog="python -m errcat migrate",
        description=f"Rewrite a catalogue of an older format in format {CURRENT}, in place, "
        "keeping its comments and layout.",
    )
    parser.add_argument(
        "--catalogue",
        type=Path,
        default=Path(DEFAULT_CATALOGUE),
        help=f"the catalogue to migrate (default: {DEFAULT_CATALOGUE})",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; print the changes and exit 1 when the catalogue needs migrating",
    )
    return parser


def run(argv: list[str], out: TextIO, err: TextIO) -> int:
    """Run ``migrate`` with ``argv`` (the words after ``migrate``); return the exit status."""
    args = parse(parser(), argv)
    if isinstance(args, int):
        return args
    path: Path = args.catalogue
    shown = one_line(str(path))
    try:
        doc = load_catalogue(path, display=str(path))
        upgraded = upgrade(doc)
        found = validate(upgraded.doc)
        if found:
            raise CatalogueError(found)
    except CatalogueError as exc:
        return problems(exc.problems, "errcat migrate", shown, err)
    migration = upgraded.migration
    if not migration.changed:
        print(f"errcat migrate: {shown} is in format {CURRENT}, the current one", file=out)
        return 0
    if args.check:
        out.writelines(
            difflib.unified_diff(
                doc.text.splitlines(keepends=True),
                migration.text.splitlines(keepends=True),
                f"a/{path.as_posix().lstrip('/')}",
                f"b/{path.as_posix().lstrip('/')}",
            )
        )
        print(
            f"errcat migrate: {shown} is in format {migration.source}; the current format is "
            f"{CURRENT}; run {migrate_command(shown)}",
            file=err,
        )
        return 1
    if write_one(path, migration.text, "errcat migrate", err):
        return 3
    for todo in migration.todos:
        print(f"{shown}: TODO(errcat migrate): {one_line(todo.message)}", file=out)
    print(
        f"errcat migrate: {shown} rewritten from format {migration.source} to {CURRENT}"
        f" ({len(migration.todos)} TODO(errcat migrate) to settle)",
        file=out,
    )
    return 0
