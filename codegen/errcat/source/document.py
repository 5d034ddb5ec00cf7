"""A loaded catalogue document: plain data plus the position of every node.

:func:`errcat.source.load.load_catalogue` builds it; the validator asks it where a
value was written so every problem names ``file:line:column``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from errcat.problems import Problem

Key = str | int
KeyPath = tuple[Key, ...]
Mark = tuple[int, int]

_PLAIN_KEY_RE = re.compile(r"[A-Za-z0-9_-]+\Z")


def format_path(path: Sequence[Key]) -> str:
    """Spell a key path as it appears in messages: ``codes.rate_limited.context[0]``.

    Keys that are not plain words are quoted, so ``codes."rate-limited!"`` stays readable.
    """
    out = ""
    for key in path:
        if isinstance(key, int):
            out += f"[{key}]"
        else:
            shown = key if _PLAIN_KEY_RE.match(key) else '"' + key.replace('"', '\\"') + '"'
            out += f".{shown}" if out else shown
    return out


def is_rejected(path: KeyPath, rejected: set[KeyPath]) -> bool:
    """True when ``path`` or one of its parents is in ``rejected``."""
    return any(path[:end] in rejected for end in range(len(path) + 1))


def prefixed(path: Sequence[Key], message: str) -> str:
    """Prefix ``message`` with the dotted path, unless the path is the root."""
    return f"{format_path(path)}: {message}" if path else message


@dataclass(frozen=True)
class Span:
    """Where a node's text is: character offsets into the decoded catalogue, and its style.

    ``errcat migrate`` edits the text at these offsets, so comments and layout stay.
    """

    start: int
    end: int
    """The offset just past the node (PyYAML's end mark: for a block collection,
    where the next token starts, which may be past comments that follow it)."""
    kind: str
    """``mapping``, ``sequence`` or ``scalar``."""
    flow: bool = False
    """A ``{...}`` or ``[...]`` collection."""


@dataclass(frozen=True)
class Document:
    """A loaded catalogue: plain data, plus where every node came from.

    Attributes:
        file: the path shown in messages.
        data: the catalogue as plain Python values (dict, list, str, int, float, bool).
        marks: 1-based (line, column) of every node, by key path.
        key_marks: 1-based (line, column) of every mapping key, by key path.
        spans: the character offsets of every node, by key path.
        key_starts: the character offset of every mapping key, by key path.
        text: the decoded text the offsets index ("" for a document built from data).
    """

    file: str
    data: Any
    marks: Mapping[KeyPath, Mark] = field(repr=False)
    key_marks: Mapping[KeyPath, Mark] = field(repr=False)
    spans: Mapping[KeyPath, Span] = field(default_factory=dict, repr=False)
    key_starts: Mapping[KeyPath, int] = field(default_factory=dict, repr=False)
    text: str = field(default="", repr=False)

    def mark(self, path: Sequence[Key]) -> Mark:
        """Return the (line, column) of the node at ``path``, else of its nearest parent.

        Args:
            path: keys and list indexes from the root, e.g. ``("codes", "rate_limited", "http")``.

        Returns:
            The 1-based line and column of the value node.
        """
        probe = tuple(path)
        while probe:
            found = self.marks.get(probe)
            if found is not None:
                return found
            probe = probe[:-1]
        return self.marks.get((), (1, 1))

    def key_mark(self, path: Sequence[Key]) -> Mark:
        """Return the (line, column) of the mapping key at ``path``.

        Falls back to :meth:`mark` for list items, the root and unknown paths.
        """
        found = self.key_marks.get(tuple(path))
        return found if found is not None else self.mark(path)

    def problem(
        self, path: Sequence[Key], rule: str, message: str, fix: str, *, at_key: bool = False
    ) -> Problem:
        """Build a problem located at the node (or, with ``at_key``, the key) at ``path``.

        The message is prefixed with the dotted path, e.g. ``codes.x.http: ...``.
        """
        line, column = self.key_mark(path) if at_key else self.mark(path)
        return Problem(self.file, line, column, rule, prefixed(path, message), fix)


def as_mapping(value: Any) -> dict[str, Any]:
    """``value`` if it is a mapping node's data, else an empty one (the meta-schema reports the wrong type)."""
    return value if isinstance(value, dict) else {}
