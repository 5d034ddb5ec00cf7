"""Reading a catalogue of any format: older ones are migrated in memory, and say so.

Every command that reads a catalogue (``generate``, ``check``, ``validate``,
``diff``, ``migrate``) goes through :func:`upgrade`. A catalogue in the
current format is returned as loaded. An older one is migrated exactly as
``errcat migrate`` would rewrite it (the same text edits), parsed again, and
its positions mapped back to the file as written, so every problem still
points at the user's line; the caller prints :attr:`Upgraded.notice`, which
names the format, the current one and the fix, and counts the placeholders
the migration wrote where only a person can decide (an ``origin`` per code of
format 1). The files generated this way are byte for byte those of the
migrated file, placeholders included: never a silent difference.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace

from errcat.migrate.formats import CURRENT
from errcat.migrate.steps import Migration, migrate
from errcat.problems import CatalogueError, Problem, one_line
from errcat.source.document import Document, Mark
from errcat.source.load import parse_catalogue

RULE = "older-format"
"""The rule id of the notice (and of the refusal) for a catalogue of an older format."""
NEWER_RULE = "newer-format"
"""The rule id of a catalogue whose format this errcat does not know yet."""


@dataclass(frozen=True)
class Upgraded:
    """A catalogue read in the current format."""

    doc: Document
    migration: Migration
    notice: Problem | None
    """What to tell the user about an older format (``None`` when current)."""


def warning(notice: Problem) -> str:
    """The one line a notice is printed as: a problem's form, marked ``warning:``."""
    where = f"{notice.file}:{notice.line}:{notice.column}"
    return one_line(f"{where}: warning: {notice.message} [{notice.rule}]; fix: {notice.fix}")


def migrate_command(display: str) -> str:
    """The command that rewrites the catalogue shown as ``display``."""
    return f"python -m errcat migrate --catalogue {display}"


def _where(doc: Document) -> Mark:
    return doc.mark(("format",)) if isinstance(doc.data, dict) and "format" in doc.data else (1, 1)


def _line_map(old: str, new: str) -> dict[int, tuple[int, bool]]:
    """For each 1-based line of ``new``: the line of ``old`` it comes from, and whether unchanged."""
    old_lines, new_lines = old.splitlines(), new.splitlines()
    mapped: dict[int, tuple[int, bool]] = {}
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for offset, j in enumerate(range(j1, j2)):
            if tag == "equal":
                mapped[j + 1] = (i1 + offset + 1, True)
            elif tag == "replace":  # a rewritten line: the line it replaces
                mapped[j + 1] = (min(i1 + offset, i2 - 1) + 1, False)
            else:  # an inserted line: the line above it, whose entry it extends
                mapped[j + 1] = (max(i1, 1), False)
    return mapped


def _remap(doc: Document, original: Document) -> Document:
    """``doc`` (parsed from the migrated text) with its positions in the file as written."""
    lines = _line_map(original.text, doc.text)

    def back(mark: Mark) -> Mark:
        line, same = lines.get(mark[0], (mark[0], False))
        return (line, mark[1] if same else 1)

    return replace(
        doc,
        file=original.file,
        marks={path: back(mark) for path, mark in doc.marks.items()},
        key_marks={path: back(mark) for path, mark in doc.key_marks.items()},
    )


def _remap_problems(problems: list[Problem], original: Document, text: str) -> list[Problem]:
    lines = _line_map(original.text, text)
    out = []
    for problem in problems:
        line, same = lines.get(problem.line, (problem.line, False))
        out.append(replace(problem, line=line, column=problem.column if same else 1))
    return out


def upgrade(doc: Document) -> Upgraded:
    """``doc`` in the current format (see the module's docstring).

    Raises:
        CatalogueError: the format is newer than this errcat's, or the migrated text
            does not parse (its problems at the lines as written).
    """
    migration = migrate(doc)
    line, column = _where(doc)
    if migration.source > CURRENT:
        raise CatalogueError(
            [
                Problem(
                    doc.file,
                    line,
                    column,
                    NEWER_RULE,
                    f"format {migration.source} is newer than this errcat reads "
                    f"(formats 1 to {CURRENT})",
                    "upgrade errcat (pip install -U errcat), or write the catalogue "
                    f"in format {CURRENT}",
                ),
            ]
        )
    if not migration.changed:
        return Upgraded(doc, migration, None)
    try:
        migrated = parse_catalogue(migration.text, doc.file)
    except CatalogueError as exc:
        raise CatalogueError(_remap_problems(exc.problems, doc, migration.text)) from exc
    how = "says it is" if migration.stated else "is"
    message = (
        f"the catalogue {how} in format {migration.source}; the current format is "
        f"{CURRENT}, so errcat read it as migrated to format {CURRENT}"
    )
    fix = f"run {migrate_command(doc.file)} to rewrite it in format {CURRENT}"
    decisions = [todo for todo in migration.todos if todo.placeholder]
    if decisions:
        more = ", ..." if len(decisions) > 1 else ""
        message += (
            f", with {len(decisions)} placeholder value(s) only a person can choose "
            f"({decisions[0].message}{more}) in the generated files"
        )
        fix += ", then settle each TODO(errcat migrate) it writes"
    notice = Problem(doc.file, line, column, RULE, message, fix)
    return Upgraded(_remap(migrated, doc), migration, notice)
