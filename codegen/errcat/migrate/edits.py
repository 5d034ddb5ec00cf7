"""Edits of a catalogue's text at the offsets the loader recorded, so comments and layout stay.

``errcat migrate`` never dumps YAML: each change is a replacement of one
scalar's text or an insertion of new lines (or, in a ``{...}`` mapping, of
``, key: value``) after an entry, at the indentation of its mapping. The
offsets are those of :class:`errcat.source.document.Span`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from errcat.source.document import Document, KeyPath, Span
from errcat.source.scalars import resolve_plain

TODO = "TODO(errcat migrate)"
"""How every comment that asks a person to decide starts."""


_PLAIN_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
_BREAKS = {"\x85": "\\N", "\u2028": "\\L", "\u2029": "\\P"}


def scalar(value: str | int | bool) -> str:
    """``value`` as a YAML scalar the catalogue loader reads back as the same value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if _PLAIN_RE.match(value) and resolve_plain(value).value == value:
        return value
    quoted = json.dumps(value, ensure_ascii=False)
    return "".join(_BREAKS.get(char, char) for char in quoted)


@dataclass(frozen=True, order=True)
class _Edit:
    start: int
    order: int
    end: int = field(compare=False)
    text: str = field(compare=False)


class Editor:
    """The edits of one document's text; :meth:`result` applies them all."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.text = doc.text
        self._edits: list[_Edit] = []
        self.newline = "\r\n" if "\r\n" in self.text else "\n"

    def _add(self, start: int, end: int, text: str) -> None:
        self._edits.append(_Edit(start, len(self._edits), end, text))

    def result(self) -> str:
        """The text with every edit applied (insertions at one offset in the order made)."""
        out, at = [], 0
        for edit in sorted(self._edits):
            out.append(self.text[at : edit.start])
            out.append(edit.text)
            at = max(at, edit.end)
        out.append(self.text[at:])
        return "".join(out)

    @property
    def changed(self) -> bool:
        """Whether any edit was made."""
        return bool(self._edits)

    def span(self, path: KeyPath) -> Span:
        """The span of the node at ``path`` (it must exist)."""
        return self.doc.spans[path]

    def replace(self, path: KeyPath, value: str | int | bool) -> None:
        """Write ``value`` in place of the scalar at ``path``."""
        span = self.span(path)
        self._add(span.start, span.end, scalar(value))

    def _content_end(self, path: KeyPath) -> int:
        """Where the text of the node at ``path`` really ends: trailing blanks and comments excluded."""
        span = self.span(path)
        value = _at(self.doc.data, path)
        if span.kind == "mapping" and not span.flow and isinstance(value, dict) and value:
            return self._content_end((*path, list(value)[-1]))
        if span.kind == "sequence" and not span.flow and isinstance(value, list) and value:
            return self._content_end((*path, len(value) - 1))
        end = span.end
        while end > span.start and self.text[end - 1] in " \t\r\n":
            end -= 1
        return end

    def _line_after(self, offset: int) -> int:
        """The offset of the start of the line after the one ``offset`` is on."""
        newline = self.text.find("\n", offset)
        return len(self.text) if newline < 0 else newline + 1

    def _indent(self, path: KeyPath) -> str:
        """The indentation of the keys of the block mapping at ``path``."""
        value = _at(self.doc.data, path)
        first = (*path, next(iter(value)))
        return " " * (self.doc.key_marks[first][1] - 1)

    def _add_flow(self, path: KeyPath, entry: str, comments: tuple[str, ...]) -> None:
        """Add ``entry`` (``key: value``) to the ``{...}`` mapping at ``path``, comments above its line."""
        span = self.span(path)
        close = self.text.rindex("}", span.start, span.end)
        self._add(close, close, (", " if _at(self.doc.data, path) else "") + entry)
        if comments:
            line = self.text.rfind("\n", 0, span.start) + 1
            before = self.text[line : span.start]
            pad = before[: len(before) - len(before.lstrip(" "))]
            self._add(line, line, "".join(f"{pad}# {c}{self.newline}" for c in comments))

    def add(
        self,
        path: KeyPath,
        key: str,
        value: str | int | bool | None = None,
        *,
        block: tuple[str, ...] = (),
        comments: tuple[str, ...] = (),
        after: str | None = None,
        first: bool = False,
        raw: str | None = None,
    ) -> None:
        """Add ``key`` to the (non-empty) mapping at ``path``.

        Args:
            path: the mapping.
            key: the new key.
            value: its scalar value, or ``None`` when ``block`` holds its lines.
            block: the value's lines, indented relative to the key (a block mapping).
            comments: comment lines (without ``#``) written above the key.
            after: the key to insert after (default: the mapping's last).
            first: insert before the mapping's first key instead.
            raw: the value's YAML text as it is (``{}``), instead of ``value``.
        """
        mapping = _at(self.doc.data, path)
        if self.span(path).flow:
            shown = raw if raw is not None else scalar(value if value is not None else "")
            self._add_flow(path, f"{key}: {shown}", comments)
            return
        indent = self._indent(path)
        lines = [f"{indent}# {c}".rstrip() for c in comments]
        if raw is not None:
            lines.append(f"{indent}{key}: {raw}")
        elif value is not None:
            lines.append(f"{indent}{key}: {scalar(value)}")
        else:
            lines.append(f"{indent}{key}:")
            lines += [f"{indent}  {line}".rstrip() for line in block]
        text = "".join(line + self.newline for line in lines)
        if first:
            text += self.newline if not path else ""  # a new first section stands apart
            at = self.doc.key_starts[(*path, next(iter(mapping)))]
            at = self.text.rfind("\n", 0, at) + 1
            self._add(at, at, text)
            return
        if not path:
            text = self.newline + text  # a new section stands apart
        last = after if after is not None else list(mapping)[-1]
        end = self._content_end((*path, last))
        at = self._line_after(end)
        if at == len(self.text) and not self.text.endswith("\n"):
            text = self.newline + text
        self._add(at, at, text)


def _at(data: Any, path: KeyPath) -> Any:
    for key in path:
        data = data[key]
    return data
