"""The pieces every part of ``errcat diff`` shares: the two sides, one change, the collector.

A change keeps the rule's name, where it is (the new file, or the old one for
a removal) and its values already printed, so changes compare, sort and
deduplicate as plain tuples.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from errcat.evolve.rules import RULES, Level, Rule
from errcat.model.catalogue import Catalogue
from errcat.source.document import Document, KeyPath, format_path

_IDENTIFIER_RE = re.compile(r"[A-Za-z0-9_@./-]+\Z")


@dataclass(frozen=True)
class Side:
    """One catalogue of the pair: where it was written and what it means."""

    doc: Document
    cat: Catalogue

    def raw(self, *path: str) -> Any:
        """The plain value at ``path`` (``None`` when absent)."""
        value: Any = self.doc.data
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        return value


@dataclass(frozen=True)
class Change:
    """One classified change, located in the new file (the old one for a removal)."""

    rule: str
    file: str
    line: int
    column: int
    values: tuple[tuple[str, str], ...]

    @property
    def spec(self) -> Rule:
        """The rule this change is an instance of."""
        return RULES[self.rule]

    @property
    def level(self) -> Level:
        """The rule's level."""
        return self.spec.level

    def text(self, template: str) -> str:
        """Fill one of the rule's templates with this change's values."""
        return template.format_map(dict(self.values))

    @property
    def what(self) -> str:
        """What changed."""
        return self.text(self.spec.what)

    @property
    def effect(self) -> str:
        """What the change does to deployed SDKs or servers."""
        return self.text(self.spec.effect)

    @property
    def fix(self) -> str:
        """How to make the change compatible."""
        return self.text(self.spec.fix)

    def sort_key(self) -> tuple[int, str, int, int, str, tuple[tuple[str, str], ...]]:
        """Widest-reaching first, then by position."""
        return (-self.level, self.file, self.line, self.column, self.rule, self.values)


class Prose(str):
    """Text this module wrote itself: printed as it is, where catalogue values are quoted."""

    __slots__ = ()


def show(value: object) -> str:
    """Print a value in a change: names as written, numbers plain, other text quoted (ASCII)."""
    if isinstance(value, Prose):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, int | float):
        return json.dumps(value)
    text = str(value)
    return text if _IDENTIFIER_RE.match(text) else json.dumps(text)


@dataclass
class Changes:
    """Collects the changes of one comparison, each located by key path."""

    old: Side
    new: Side
    found: list[Change] = field(default_factory=list)

    def add(self, rule: str, path: KeyPath, *, removed: bool = False, **values: object) -> None:
        """Record ``rule`` for the entry at ``path`` (of the old file when ``removed``)."""
        self.record(rule, path, removed, values, at_value=False)

    def record(
        self,
        rule: str,
        path: KeyPath,
        removed: bool,
        values: dict[str, object],
        *,
        at_value: bool,
    ) -> None:
        """Record ``rule`` at ``path`` of the old file (``removed``) or the new one.

        A change of a value points at the value; an entry, or a value the file
        leaves out, points at the key of the nearest entry the file has.
        """
        doc = (self.old if removed else self.new).doc
        line, column = _locate(doc, path, at_value)
        shown = tuple(sorted((name, show(value)) for name, value in values.items()))
        self.found.append(Change(rule, doc.file, line, column, shown))

    def value(self, rule: str, path: KeyPath, old: object, new: object, **values: object) -> None:
        """Record ``rule`` at the value at ``path`` when ``old`` and ``new`` differ."""
        if old != new:
            self.record(rule, path, False, {"old": old, "new": new, **values}, at_value=True)

    def text(self, path: KeyPath, old: object, new: object) -> None:
        """Record a text change at ``path`` when the texts differ."""
        if old != new:
            values: dict[str, object] = {"subject": Prose(format_path(path))}
            self.record("text-changed", path, False, values, at_value=True)


def _locate(doc: Document, path: KeyPath, at_value: bool) -> tuple[int, int]:
    if at_value and path in doc.marks:
        return doc.mark(path)
    probe = path
    while probe and probe not in doc.key_marks:
        probe = probe[:-1]
    return doc.key_mark(probe) if probe else doc.mark(path)
