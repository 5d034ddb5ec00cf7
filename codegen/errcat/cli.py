"""Command line: ``python -m errcat generate|check|validate``.

Exit status: 0 success; 1 ``check`` found drift; 2 the catalogue has
problems or the command line is wrong (nothing is written); 3 the files could
not be written or read (nothing on disk changed); 4 errcat itself failed (a
bug: nothing on disk changed); 128 + N interrupted by signal N (130 for
Ctrl-C), with every file all old or all new.
``diff``, ``migrate`` and ``init`` have their own arguments and statuses
(:mod:`errcat.evolve.cli`, :mod:`errcat.migrate.cli`, :mod:`errcat.starter.cli`).
A catalogue of an older format is read as migrated in memory
(:mod:`errcat.migrate.upgrade`), with a notice that names the fix.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import TextIO

from errcat.check.validate import validate
from errcat.console import DEFAULT_CATALOGUE, problems
from errcat.evolve import cli as evolve_cli
from errcat.migrate import cli as migrate_cli
from errcat.migrate.upgrade import upgrade, warning
from errcat.model.catalogue import Catalogue, build_model
from errcat.names.languages import LANGUAGES
from errcat.problems import CatalogueError, Problem, one_line
from errcat.render import TARGETS, render_all
from errcat.source.load import load_catalogue
from errcat.starter import cli as starter_cli
from errcat.write import (
    HandWritten,
    WriteError,
    check_drift_message,
    diff,
    plan,
    sweep_temporaries,
    undeclared,
    write_files,
)

DEFAULT_COMMAND = "nox -s generate"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m errcat",
        description="Generate typed SDK errors, docs and schemas from an error catalogue.",
    )
    parser.add_argument(
        "command",
        choices=("generate", "check", "validate", "diff", "migrate", "init"),
        help="generate: write changed files; check: diff only, exit 1 on drift; "
        "validate: check the catalogue only; diff: classify the changes between two "
        "catalogues (see diff --help); migrate: rewrite an older catalogue in the current "
        "format (see migrate --help); init: write a starter catalogue (see init --help)",
    )
    parser.add_argument(
        "--catalogue",
        type=Path,
        default=None,
        help=f"the catalogue to read (default: OUT/{DEFAULT_CATALOGUE})",
    )
    parser.add_argument(
        "--out", type=Path, default=Path("."), help="the root to write under (default: .)"
    )
    parser.add_argument(
        "--target",
        action="append",
        choices=TARGETS,
        help="render only this target (repeatable; default: all)",
    )
    return parser


def _display(catalogue: Path, out: Path) -> str:
    """The catalogue path as headers and messages show it: relative to OUT when inside it."""
    try:
        return catalogue.resolve().relative_to(out.resolve()).as_posix()
    except ValueError:
        return catalogue.name


def _command(source: str) -> str:
    """The command printed in headers; the same whichever targets were asked for."""
    if source == DEFAULT_CATALOGUE:
        return DEFAULT_COMMAND
    return f"python -m errcat generate --catalogue {source}"


def load_model(catalogue: Path, out: Path, notices: list[Problem] | None = None) -> Catalogue:
    """Load, validate and model a catalogue; raises :class:`CatalogueError` on any problem.

    A catalogue of an older format is read as migrated; its notice is appended to ``notices``.
    """
    source = _display(catalogue, out)
    shown = str(catalogue)
    upgraded = upgrade(load_catalogue(catalogue, display=shown))
    if upgraded.notice is not None and notices is not None:
        notices.append(upgraded.notice)
    found = validate(upgraded.doc)
    if found:
        raise CatalogueError(found)
    return build_model(upgraded.doc.data, source=source, regenerate=_command(source))


def run(
    argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Run the command line and return the exit status."""
    out_stream = stdout or sys.stdout
    err_stream = stderr or sys.stderr
    words = sys.argv[1:] if argv is None else argv
    if words[:1] == ["diff"]:
        return evolve_cli.run(words[1:], out_stream, err_stream)
    if words[:1] == ["migrate"]:
        return migrate_cli.run(words[1:], out_stream, err_stream)
    if words[:1] == ["init"]:
        return starter_cli.run(words[1:], out_stream, err_stream)
    args = _parser().parse_args(argv)
    out: Path = args.out
    catalogue: Path = args.catalogue or out / DEFAULT_CATALOGUE
    shown = one_line(str(catalogue))
    notices: list[Problem] = []
    try:
        cat: Catalogue | None = load_model(catalogue, out, notices)
        found: list[Problem] = []
    except CatalogueError as exc:
        cat, found = None, exc.problems
    for notice in notices:  # before the problems: they are those of the catalogue as migrated
        print(warning(notice), file=err_stream)
    if cat is None:
        return problems(found, "errcat", shown, err_stream)
    if args.command == "validate":
        print(f"errcat: {shown} is valid ({len(cat.codes)} codes)", file=out_stream)
        return 0
    files = render_all(cat, tuple(args.target) if args.target else TARGETS)
    try:
        for leftover in sweep_temporaries(out):
            print(f"removed leftover temporary file {one_line(leftover)}", file=err_stream)
        if args.command == "check":
            return _check(files, out, cat, out_stream, err_stream)
        changes = write_files(files, out, _overlay_test(cat))
        _undeclared(files, out, cat, err_stream)
    except (WriteError, OSError) as exc:
        reason = exc if isinstance(exc, WriteError) else f"cannot write {out}: {exc.strerror}"
        print(f"errcat: {one_line(str(reason))}; nothing was changed", file=err_stream)
        return 3
    for change in changes:
        verb = "removed" if change.new is None else "created" if change.old is None else "updated"
        print(f"{verb} {change.path}", file=out_stream)
    written = sum(1 for change in changes if change.new is not None)
    removed = len(changes) - written
    stale = f"; {removed} stale generated file(s) removed" if removed else ""
    print(
        f"errcat: {written} of {len(files)} files changed from {cat.source}{stale}",
        file=out_stream,
    )
    return 0


def _overlay_test(cat: Catalogue) -> HandWritten:
    """Whether a file (relative to the output root) is one of a package overlay's hand-written files."""
    tests = {
        lang.package_dir: cat.package.overlay_of(lang.key).declares
        for lang in LANGUAGES
        if lang.package_dir
    }

    def hand_written(rel: str) -> bool:
        package, _, inner = rel.partition("/")
        test = tests.get(package)
        return test is not None and test(inner)

    return hand_written


def _undeclared(files: dict[str, str], out: Path, cat: Catalogue, err_stream: TextIO) -> int:
    """Report every file of a generated package that its overlay does not declare; return how many."""
    found = undeclared(files, out, _overlay_test(cat))
    for rel in found:
        key = next(lang.key for lang in LANGUAGES if rel.startswith(f"{lang.package_dir}/"))
        print(
            f"errcat: {one_line(rel)} is not generated by errcat and not declared in the "
            f"catalogue's packages.overlay.{key}.files; declare it there or remove it",
            file=err_stream,
        )
    return len(found)


def _check(
    files: dict[str, str], out: Path, cat: Catalogue, out_stream: TextIO, err_stream: TextIO
) -> int:
    changes = plan(files, out, _overlay_test(cat))
    for change in changes:
        out_stream.write(diff(change))
    stray = _undeclared(files, out, cat, err_stream)
    if changes:
        print(check_drift_message(changes, cat.regenerate), file=err_stream)
        return 1
    if stray:
        return 1
    print(f"errcat: {len(files)} generated files match {cat.source}", file=out_stream)
    return 0


class TerminatedError(BaseException):
    """A termination signal arrived (like KeyboardInterrupt, not an Exception)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(signal.Signals(signum).name)


def _on_signal(signum: int, _frame: object) -> None:
    raise TerminatedError(signum)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run and exit with the status.

    Whatever happens, the user gets a message rather than a traceback: an
    interrupt (SIGINT, SIGTERM, SIGHUP) exits 128 plus the signal's number,
    and an unexpected failure (a bug in errcat) exits 4 with the exception
    named. The writer holds these signals while it replaces files and restores
    every file before any exception leaves it, so nothing is half-changed.
    """
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _on_signal)
    try:
        status = run(argv)
    except (KeyboardInterrupt, TerminatedError) as exc:
        signum = exc.signum if isinstance(exc, TerminatedError) else signal.SIGINT
        print("errcat: interrupted; every file is as before or fully written", file=sys.stderr)
        status = 128 + int(signum)
    except Exception as exc:  # the last guard: a message, never a traceback
        detail = one_line(f"{type(exc).__name__}: {exc}")
        print(
            f"errcat: internal error ({detail}); nothing was changed. "
            "Please report this with the catalogue that caused it.",
            file=sys.stderr,
        )
        status = 4
    sys.exit(status)
