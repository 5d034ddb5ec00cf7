"""The catalogue formats errcat has accepted, and which one a catalogue is written in.

A format is what the keys of a catalogue mean to errcat. It is numbered by
the changes that made an older catalogue invalid or mean something else; a
key that only became allowed is not a new format. The catalogue states its
format (``format: 5``); one without the key is the oldest format it can be
(:func:`detect`). docs/versioning.md describes each format.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from errcat.model.sanitizer import SIDE_CONDITIONS


@dataclass(frozen=True)
class Format:
    """One catalogue format: its number and what it changed."""

    number: int
    changed: str


FORMATS: tuple[Format, ...] = (
    Format(1, "the first format: codes without origin, SDK-made codes fixed in the runtimes"),
    Format(2, "every code has an origin (required)"),
    Format(
        3,
        "the sdk section names the codes the SDKs raise themselves; "
        "a group left out means no helper",
    ),
    Format(
        4,
        "sanitizer patterns in the portable dialect: lookaround is refused, side conditions "
        "(not_after, ahead, followed_by, prefix_not_followed_by) say what it did",
    ),
    Format(
        5,
        "the catalogue states its format; the sanitizer section and the fallback map's "
        "standard statuses may be left out (errcat's defaults); sanitizer rules have ids",
    ),
)
"""Every format, oldest first."""

CURRENT = FORMATS[-1].number
"""The format errcat writes and the meta-schema describes."""


def _rules(data: dict[str, Any]) -> list[dict[str, Any]]:
    sanitizer = data.get("sanitizer")
    if not isinstance(sanitizer, dict):
        return []
    found = []
    for group in ("secrets", "injection"):
        rules = sanitizer.get(group)
        found += [r for r in (rules if isinstance(rules, list) else []) if isinstance(r, dict)]
    return found


def detect(data: Any) -> tuple[int, bool]:
    """The format ``data`` is written in, and whether it says so.

    A catalogue without ``format`` is the oldest format that accepts it: 1 when a
    code has no ``origin``, else 2 without an ``sdk`` section, else 3 unless a
    sanitizer rule has a side condition (which format 3 did not have), else 4.
    A ``format`` that is not a whole number counts as the current format, so
    the meta-schema reports it.
    """
    if not isinstance(data, dict):
        return CURRENT, False
    if "format" in data:
        stated = data["format"]
        if isinstance(stated, int) and not isinstance(stated, bool) and stated >= 1:
            return stated, True
        return CURRENT, True
    codes = data.get("codes")
    specs = [s for s in (codes.values() if isinstance(codes, dict) else ()) if isinstance(s, dict)]
    if any("origin" not in spec for spec in specs):
        return 1, False
    if "sdk" not in data:
        return 2, False
    if not any(key in rule for rule in _rules(data) for key in SIDE_CONDITIONS):
        return 3, False
    return 4, False
