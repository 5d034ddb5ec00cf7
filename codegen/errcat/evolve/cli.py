"""``python -m errcat diff``: classify the changes between two catalogues.

``diff OLD NEW`` compares two files; ``diff --against REV [NEW]`` reads the old
catalogue from a git revision (``git show REV:NEW``). Both go through the
loader and the validator first. Exit status: 0 the changes pass; 1 they do
not (see :mod:`errcat.evolve.report`); 2 a catalogue has problems, a file or
revision cannot be read, or the command line is wrong.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from errcat.check.validate import validate
from errcat.console import DEFAULT_CATALOGUE
from errcat.evolve.compare import Side, compare
from errcat.evolve.report import judge, line, markdown
from errcat.evolve.rules import Level
from errcat.migrate.upgrade import upgrade, warning
from errcat.model.catalogue import build_model
from errcat.problems import CatalogueError, Problem
from errcat.source.load import load_catalogue, parse_catalogue

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

GIT_TIMEOUT_S = 60
"""How long ``git show`` may take before the old catalogue counts as unreadable."""

_GIT_ERRORS = (
    (
        "not a git repository",
        "{where} is not inside a git repository; give the old catalogue as a file",
    ),
    ("does not exist in", "{path} does not exist at {rev}"),
    ("exists on disk, but not in", "{path} does not exist at {rev}"),
    ("invalid object name", "{rev} is not a revision of this repository"),
    ("unknown revision", "{rev} is not a revision of this repository"),
    ("bad revision", "{rev} is not a revision of this repository"),
    ("ambiguous argument", "{rev} is not a revision of this repository"),
    ("cannot change to", "{where} does not exist"),
)
"""Git's complaints, and what ``errcat diff`` says instead, with its fix in the words."""


class UnreadableError(Exception):
    """The old or new catalogue could not be read at all; the message says why."""


class _Parser(argparse.ArgumentParser):
    """An argument parser that prints help to ``out`` and usage errors to ``err``."""

    def __init__(self, out: TextIO, err: TextIO, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.out, self.err = out, err

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            (self.out if file is sys.stdout else self.err).write(message)


def parser(out: TextIO, err: TextIO) -> argparse.ArgumentParser:
    """The arguments of ``python -m errcat diff``; help goes to ``out``, errors to ``err``."""
    levels = [level.label for level in sorted(Level, reverse=True)]
    parser = _Parser(
        out,
        err,
        prog="python -m errcat diff",
        description="Classify every change between two catalogues (wire, sdk, behaviour, "
        "additive, docs) and say which version bump they need.",
    )
    parser.add_argument(
        "catalogues",
        nargs="*",
        metavar="CATALOGUE",
        help=f"OLD NEW; with --against, only NEW (default: {DEFAULT_CATALOGUE})",
    )
    parser.add_argument(
        "--against", metavar="REV", help="read the old catalogue from this git revision"
    )
    parser.add_argument(
        "--fail-on",
        choices=levels,
        default=Level.SDK.label,
        help="without versions on both sides, fail on changes at this level or above "
        "(default: sdk, which means sdk and wire)",
    )
    parser.add_argument(
        "--format",
        choices=("text", "markdown"),
        default="text",
        help="text: one line per change; markdown: a changelog section",
    )
    return parser


def _side(raw: bytes | Path, display: str, notices: list[Problem] | None = None) -> Side:
    """Load, validate and model one catalogue; raises :class:`CatalogueError` on any problem.

    A catalogue of an older format is compared as migrated in memory (an older code
    without ``origin`` reads as the catch-all's), so catalogues of different formats
    compare by what they mean.
    """
    if isinstance(raw, Path):
        if raw.exists() and not raw.is_file():
            problem = Problem(
                display,
                1,
                1,
                "unreadable",
                "not a regular file",
                "give the path of a catalogue file",
            )
            raise CatalogueError([problem])
        doc = load_catalogue(raw, display=display)
    else:
        doc = parse_catalogue(raw, display)
    upgraded = upgrade(doc)
    if upgraded.notice is not None and notices is not None:
        notices.append(upgraded.notice)
    doc = upgraded.doc
    problems = validate(doc)
    if problems:
        raise CatalogueError(problems)
    return Side(doc, build_model(doc.data, source=display, regenerate="python -m errcat generate"))


def git_show(rev: str, path: Path) -> bytes:
    """The bytes of ``path`` at revision ``rev`` of the repository ``path`` is in.

    Raises:
        UnreadableError: when git is missing, the directory is not in a repository,
            the revision does not exist, or the file did not exist at it.
    """
    where = path.parent if str(path.parent) else Path(".")
    if not rev or rev.startswith("-"):
        raise UnreadableError(f"{rev!r} is not a revision of this repository")
    command = ["git", "-C", str(where), "show", f"{rev}:./{path.name}"]
    try:
        done = subprocess.run(command, capture_output=True, timeout=GIT_TIMEOUT_S, check=False)
    except FileNotFoundError as err:
        raise UnreadableError("git is not installed; give the old catalogue as a file") from err
    except subprocess.TimeoutExpired as err:
        raise UnreadableError(f"git show {rev}:{path} took over {GIT_TIMEOUT_S} s") from err
    except OSError as err:
        raise UnreadableError(f"cannot run git: {err.strerror or err}") from err
    if done.returncode == 0:
        return done.stdout
    complaint = done.stderr.decode("utf-8", "replace").strip()
    for needle, message in _GIT_ERRORS:
        if needle in complaint:
            raise UnreadableError(message.format(where=where, path=path, rev=rev))
    first = complaint.splitlines()[0] if complaint else f"exit status {done.returncode}"
    raise UnreadableError(f"git show {rev}:{path} failed: {first}")


def _load(sources: list[tuple[bytes | Path, str]], notices: list[Problem]) -> list[Side]:
    """Load every source, reporting the problems of all of them together."""
    sides: list[Side] = []
    problems: list[Problem] = []
    for raw, display in sources:
        try:
            sides.append(_side(raw, display, notices))
        except CatalogueError as exc:
            problems += exc.problems
    if problems:
        raise CatalogueError(list(set(problems)))  # OLD and NEW may be one file
    return sides


def _sides(args: argparse.Namespace, notices: list[Problem]) -> tuple[Side, Side]:
    given: list[str] = args.catalogues
    if args.against is not None:
        if len(given) > 1:
            raise ValueError("with --against REV, give at most the NEW catalogue")
        new_path = Path(given[0] if given else DEFAULT_CATALOGUE)
        old_raw = git_show(args.against, new_path)
        old, new = _load(
            [(old_raw, f"{args.against}:{new_path}"), (new_path, str(new_path))], notices
        )
        return old, new
    if len(given) != 2:
        raise ValueError("give OLD and NEW catalogues, or --against REV [NEW]")
    old, new = _load([(Path(given[0]), given[0]), (Path(given[1]), given[1])], notices)
    return old, new


def run(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    """Run ``diff`` with ``argv`` (the words after ``diff``) and return the exit status."""
    arg_parser = parser(stdout, stderr)
    try:
        args = arg_parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a wrong command line: argparse has said why
        return exc.code if isinstance(exc.code, int) else 2
    notices: list[Problem] = []
    try:
        old, new = _sides(args, notices)
    except ValueError as exc:
        arg_parser.print_usage(stderr)
        print(f"errcat diff: {exc}", file=stderr)
        return 2
    except UnreadableError as exc:
        print(f"errcat diff: {exc}", file=stderr)
        return 2
    except CatalogueError as exc:
        for problem in exc.problems:
            print(problem, file=stderr)
        files = sorted({problem.file for problem in exc.problems})
        count = len(exc.problems)
        noun = "problem" if count == 1 else "problems"
        print(f"errcat diff: {count} {noun} in {', '.join(files)}; nothing compared", file=stderr)
        return 2
    for notice in notices:
        print(warning(notice), file=stderr)
    changes = compare(old, new)
    if args.format == "markdown":
        stdout.write(markdown(changes, new))
    else:
        for change in changes:
            print(line(change), file=stdout)
    verdict = judge(changes, old, new, Level[args.fail_on.upper()])
    for text in verdict.lines:
        print(text, file=stderr)
    return verdict.status
