"""Covers (docs/sdk-contract.md section 2, stage 2): the spans a rule or a token form matched.

Covers are found on one text, merged where they share a position, and only
then replaced by a marker, so no rule sees another's output. Every function
is linear in the text: a rule with a prefix matches its pattern once per
prefix match, on the text cut where the next prefix match starts.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

__all__ = ["form_covers", "merge_covers", "rewrite", "rule_covers"]

Covers = list[tuple[int, int]]
"""``(start, end)`` spans of code points, end excluded."""


def _scan(compiled: re.Pattern[str], text: str, out: Covers) -> None:
    """Every non-empty match of the global scan (an empty one covers nothing; the scan goes one further)."""
    pos = 0
    size = len(text)
    search = compiled.search
    while pos <= size:
        m = search(text, pos)
        if m is None:
            return
        start, end = m.span()
        if end > start:
            out.append((start, end))
            pos = end
        else:
            pos = start + 1


def rule_covers(prefix: re.Pattern[str] | None, pattern: re.Pattern[str], text: str, out: Covers) -> None:
    """Append the covers of one rule on ``text`` to ``out``.

    Without a prefix, every match of ``pattern``. With one, ``pattern``
    anchored at the end of each prefix match, on the text cut where the next
    prefix match starts (a lookahead sees nothing past the cut, a lookbehind
    sees everything before); the cover is the pattern part only.
    """
    if prefix is None:
        _scan(pattern, text, out)
        return
    marks: Covers = []
    _scan(prefix, text, marks)
    match = pattern.match
    size = len(text)
    for i, (_start, end) in enumerate(marks):
        m = match(text, end, marks[i + 1][0] if i + 1 < len(marks) else size)
        if m is not None and m.end() > end:
            out.append((end, m.end()))


def form_covers(text: str, forms: tuple[str, ...], out: Covers) -> None:
    """Append every occurrence of every form in ``text``, overlapping ones too."""
    for form in forms:
        size = len(form)
        at = text.find(form)
        while at != -1:
            out.append((at, at + size))
            at = text.find(form, at + 1)


def merge_covers(covers: Covers) -> Covers:
    """``covers`` sorted and merged where they share a position (covers that only touch stay apart)."""
    if len(covers) <= 1:
        return covers
    covers.sort()
    out = [covers[0]]
    for start, end in covers[1:]:
        last_start, last_end = out[-1]
        if start < last_end:
            if end > last_end:
                out[-1] = (last_start, end)
        else:
            out.append((start, end))
    return out


def rewrite(text: str, merged: Covers, marker: str) -> str:
    """``text`` with each of the ``merged`` covers written as ``marker``."""
    parts = []
    pos = 0
    for start, end in merged:
        parts.append(text[pos:start])
        parts.append(marker)
        pos = end
    parts.append(text[pos:])
    return "".join(parts)
