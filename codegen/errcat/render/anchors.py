"""The anchors GitHub gives the headings of a Markdown page, so links into it resolve.

A heading's anchor is its text as read (code span marks and backslash
escapes gone), lower-cased, without punctuation or symbols (``-`` and ``_``
stay), each space a ``-``; a repeated anchor takes ``-1``, ``-2``, ... in page
order. Code fences are skipped: a ``#`` line inside one is not a heading.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_HEADING_RE = re.compile(r"^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_READ_RE = re.compile(r"\\([!-/:-@\[-`{-~])|`")
"""A backslash escape (keep the character) or a code span mark (drop it)."""


@dataclass(frozen=True)
class Heading:
    """One heading of a page: its level, its text as read and its anchor."""

    level: int
    text: str
    anchor: str


def read(markdown: str) -> str:
    """The text a reader sees in the heading source ``markdown``."""
    return _READ_RE.sub(lambda m: m.group(1) or "", markdown).strip()


def slug(text: str) -> str:
    """The anchor of a heading that reads ``text``, before repeats are numbered."""
    kept = (
        c
        for c in text.lower()
        if c in "-_ " or unicodedata.category(c)[0] in "LMN" or unicodedata.category(c) == "Pc"
    )
    return "".join(kept).replace(" ", "-")


def headings(markdown: str) -> list[Heading]:
    """Every ATX heading of ``markdown`` with its anchor, in page order."""
    found: list[Heading] = []
    seen: dict[str, int] = {}
    fence = ""
    for line in markdown.splitlines():
        opened = _FENCE_RE.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            continue
        if opened:
            fence = opened.group(1)
            continue
        match = _HEADING_RE.match(line)
        if not match:
            continue
        text = read(match.group(2))
        base = anchor = slug(text)
        while anchor in seen:
            seen[base] += 1
            anchor = f"{base}-{seen[base]}"
        seen[anchor] = 0
        found.append(Heading(level=len(match.group(1)), text=text, anchor=anchor))
    return found
