"""Problems found in a catalogue, and the exception that carries them.

Every problem names where it is (``file:line:column``), which rule it breaks,
what is wrong and how to fix it, so a maintainer can go straight to the line.
"""

from __future__ import annotations

from dataclasses import dataclass

from errcat.wording import one_line


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with a catalogue.

    Attributes:
        file: path of the catalogue as given on the command line.
        line: 1-based line of the offending node.
        column: 1-based column of the offending node.
        rule: short stable identifier of the broken rule (``duplicate-key``).
        message: what is wrong, naming the offending value.
        fix: what to change to make it right.
    """

    file: str
    line: int
    column: int
    rule: str
    message: str
    fix: str

    def __str__(self) -> str:
        """The one-line form; catalogue text in it is escaped by :func:`one_line`."""
        return one_line(
            f"{self.file}:{self.line}:{self.column}: {self.message} [{self.rule}]; fix: {self.fix}"
        )


__all__ = ["CatalogueError", "Problem", "one_line"]


class CatalogueError(Exception):
    """A catalogue that cannot be generated from; carries every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
