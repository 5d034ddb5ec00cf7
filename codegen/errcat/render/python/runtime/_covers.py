"""Covers (docs/sdk-contract.md section 2, stage 2): the spans a rule or a token form matched.

Covers are found on each stretch of a text between the occurrences of the
step's marker, read as a text of its own; then each stretch between the covers found
and the markers is read again as a text of its own, until none holds a new
cover. Only then are they merged where they share a position and replaced by a
marker, so no rule sees another's output, and every stretch the result keeps
between two markers holds no cover: sanitizing again changes nothing.

Each reading is linear in the stretch it reads (a rule with a prefix matches
its pattern once per prefix match, on the stretch cut where the next prefix
match starts); the stretches read in one round are disjoint, and a round reads
only stretches that a cover of the round before cut out.
"""

from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

__all__ = ["find_covers", "form_covers", "merge_covers", "rewrite", "rule_covers"]

Covers = list[tuple[int, int]]
"""``(start, end)`` spans of code points, end excluded."""

Reader = Callable[[str, int, Covers], None]
"""``read(piece, offset, out)``: append the covers of the rules on ``piece``, shifted by ``offset``."""


def _scan(compiled: re.Pattern[str], text: str, out: Covers, offset: int = 0) -> None:
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
            out.append((start + offset, end + offset))
            pos = end
        else:
            pos = start + 1


def rule_covers(
    prefix: re.Pattern[str] | None, pattern: re.Pattern[str], text: str, out: Covers, offset: int = 0
) -> None:
    """Append the covers of one rule on ``text`` to ``out``, each shifted by ``offset``.

    Without a prefix, every match of ``pattern``. With one, ``pattern``
    anchored at the end of each prefix match, on the text cut where the next
    prefix match starts (a lookahead sees nothing past the cut, a lookbehind
    sees everything before); the cover is the pattern part only.
    """
    if prefix is None:
        _scan(pattern, text, out, offset)
        return
    marks: Covers = []
    _scan(prefix, text, marks)
    match = pattern.match
    size = len(text)
    for i, (_start, end) in enumerate(marks):
        m = match(text, end, marks[i + 1][0] if i + 1 < len(marks) else size)
        if m is not None and m.end() > end:
            out.append((end + offset, m.end() + offset))


def form_covers(text: str, forms: tuple[str, ...], out: Covers) -> None:
    """Append every occurrence of every form in ``text``, overlapping ones too."""
    for form in forms:
        size = len(form)
        at = text.find(form)
        while at != -1:
            out.append((at, at + size))
            at = text.find(form, at + 1)


def _occurrences(text: str, marker: str) -> Covers:
    """The spans of every occurrence of ``marker`` (none when it is empty), in order."""
    out: Covers = []
    at = text.find(marker) if marker else -1
    while at != -1:
        out.append((at, at + len(marker)))
        at = text.find(marker, at + len(marker))
    return out


def _free(size: int, taken: Covers) -> Covers:
    """The maximal non-empty stretches of ``[0, size)`` outside every span of ``taken`` (sorted)."""
    out: Covers = []
    pos = 0
    for start, end in taken:
        if start > pos:
            out.append((pos, start))
        pos = max(pos, end)
    if size > pos:
        out.append((pos, size))
    return out


def find_covers(text: str, read: Reader, forms: tuple[str, ...], marker: str) -> Covers:
    """The merged covers of one step on ``text``: the rules that ``read`` applies, and the token ``forms``.

    ``read`` runs first on each stretch between the occurrences of the
    step's ``marker`` in the text, then on each stretch that the covers found
    and those occurrences leave free and that it has not read yet, until a
    round finds nothing new.
    """
    barriers = _occurrences(text, marker)
    covers: Covers = []
    form_covers(text, forms, covers)
    done: set[tuple[int, int]] = set()
    merged = merge_covers(covers)
    pending = _free(len(text), barriers)
    while pending:
        for start, end in pending:
            done.add((start, end))
            read(text[start:end], start, covers)
        merged = merge_covers(covers)
        taken = sorted(merged + barriers) if barriers else merged
        pending = [stretch for stretch in _free(len(text), taken) if stretch not in done]
    return merged


def merge_covers(covers: Covers) -> Covers:
    """``covers`` sorted and merged where they share a position (covers that only touch stay apart)."""
    if len(covers) <= 1:
        return list(covers)
    ordered = sorted(covers)
    out = [ordered[0]]
    for start, end in ordered[1:]:
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
