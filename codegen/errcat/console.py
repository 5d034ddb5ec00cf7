"""What every command prints the same way: its arguments' errors, problems, and one file written.

``generate``/``check``/``validate`` (:mod:`errcat.cli`), ``migrate`` and ``init`` share these, so
their messages and exit statuses agree: 2 for problems or a wrong command line, 3 for a file that
could not be written.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from errcat.problems import Problem, one_line
from errcat.write import WriteError, write_files

DEFAULT_CATALOGUE = "catalogue/errors.yaml"
"""The catalogue every command reads or writes when given none (relative to where it runs)."""


def parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace | int:
    """The parsed arguments, or the exit status argparse chose (``--help``: 0, an error: 2)."""
    try:
        return parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2


def problems(found: Iterable[Problem], prog: str, shown: str, err: TextIO) -> int:
    """Print every problem and the count; return 2 (nothing was written)."""
    listed = list(found)
    for problem in listed:
        print(problem, file=err)
    noun = "problem" if len(listed) == 1 else "problems"
    print(f"{prog}: {len(listed)} {noun} in {shown}; nothing was written", file=err)
    return 2


def write_one(path: Path, text: str, prog: str, err: TextIO) -> int:
    """Write ``path`` atomically (all or nothing); 0, or 3 with the reason printed."""
    try:
        write_files({path.name: text}, path.parent)
    except (WriteError, OSError) as exc:
        reason = exc if isinstance(exc, WriteError) else f"cannot write {path}: {exc.strerror}"
        print(f"{prog}: {one_line(str(reason))}; nothing was changed", file=err)
        return 3
    return 0
