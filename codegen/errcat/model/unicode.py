"""The Unicode data errcat ships, read for the sanitizer's removed character set.

The set is derived from the data file in errcat (``errcat/unicode/ucd-<version>.json``,
written by ``errcat/unicode/derive.mjs`` from a pinned transcription of the
Unicode Character Database), so it never depends on the Unicode tables of the
Python that runs the generator.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from importlib import resources

_DATA_RANGE_RE = re.compile(r"U\+([0-9A-F]{4,6})(?:\.\.U\+([0-9A-F]{4,6}))?\Z")

_ALIASES = {
    "General_Category=Format": "gc=Cf",
    "Default_Ignorable_Code_Point": "DI",
    "Prepended_Concatenation_Mark": "PCM",
}
"""The Unicode short alias of each property the catalogue may name (PropertyAliases.txt)."""

NamedRange = tuple[int, int, str]
"""An inclusive range of code points and what it is."""


def unicode_data(version: str) -> dict[str, list[tuple[int, int]]]:
    """The property ranges of Unicode ``version``, from the data file errcat ships.

    Raises:
        FileNotFoundError: errcat ships no data for that version.
        ValueError: the data file is malformed or is of another version.
    """
    path = resources.files("errcat") / "unicode" / f"ucd-{version}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("unicode_version") != version:
        raise ValueError(f"{path} holds Unicode {data.get('unicode_version')!r}, not {version!r}")
    out: dict[str, list[tuple[int, int]]] = {}
    for name, ranges in data["properties"].items():
        out[name] = []
        for text in ranges:
            m = _DATA_RANGE_RE.match(text)
            if m is None:
                raise ValueError(f"{path}: {name}: {text!r} is not U+XXXX or U+XXXX..U+YYYY")
            first = int(m.group(1), 16)
            out[name].append((first, int(m.group(2) or m.group(1), 16)))
    return out


def property_ranges(version: str, properties: Sequence[str]) -> list[NamedRange]:
    """The ranges of each named property of Unicode ``version``, each named by its short alias."""
    data = unicode_data(version)
    return [(first, last, _ALIASES[name]) for name in properties for first, last in data[name]]


def merge_ranges(
    ranges: Iterable[NamedRange], keep_out: Iterable[tuple[int, int]]
) -> list[NamedRange]:
    """``ranges`` merged where they overlap or touch, less every code point of ``keep_out``.

    A merged range is named after every range it holds, in order, each name
    once. The result is sorted and its ranges are disjoint and do not touch.
    """
    merged: list[tuple[int, int, list[str]]] = []
    for first, last, name in sorted(ranges):
        if merged and first <= merged[-1][1] + 1:
            low, high, names = merged[-1]
            merged[-1] = (low, max(high, last), names if name in names else [*names, name])
        else:
            merged.append((first, last, [name]))
    holes = sorted(keep_out)
    out: list[NamedRange] = []
    for first, last, names in merged:
        label = "; ".join(names)
        for low, high in holes:
            if high < first or low > last:
                continue
            if low > first:
                out.append((first, low - 1, label))
            first = high + 1
        if first <= last:
            out.append((first, last, label))
    return out
