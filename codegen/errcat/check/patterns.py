"""The sanitizer rules: portable patterns, lower-case triggers, sound character ranges.

Both SDKs run the catalogue's patterns, Python with ``re`` and TypeScript
with ``RegExp`` and flag ``u``. Only the subset the two engines read alike is
allowed: literals, ``.``, ASCII character classes, ``(?:...)`` groups,
lookahead, alternation, anchors ``^``/``$`` and greedy or lazy repeats. This
module rejects everything else with the portable spelling to use instead.

It also derives the removed character set from the Unicode data that ships
with errcat (``errcat/unicode/ucd-<version>.json``, written by
``errcat/unicode/derive.mjs`` from a pinned transcription of the Unicode
Character Database), so the set never depends on the Unicode tables of the
Python that runs the generator.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from typing import Any

from errcat.problems import Problem
from errcat.source.document import Document, KeyPath, format_path, is_rejected
from errcat.wording import quoted

_ESCAPES = {
    "b": ("\\b (word boundary)", "spell the boundary out, e.g. (?![A-Za-z0-9_])"),
    "B": ("\\B (not a word boundary)", "spell it out with a lookahead on [A-Za-z0-9_]"),
    "d": ("\\d (Unicode digits in Python, 0-9 in JavaScript)", "write [0-9]"),
    "D": ("\\D", "write [^0-9]"),
    "s": ("\\s (the engines disagree on whitespace)", "write the characters, e.g. [ ]"),
    "S": ("\\S", "write the excluded characters, e.g. [^ ]"),
    "w": ("\\w (Unicode word characters in Python)", "write [A-Za-z0-9_]"),
    "W": ("\\W", "write [^A-Za-z0-9_]"),
    "A": ("\\A (Python only)", "write ^"),
    "Z": ("\\Z (Python only)", "write $"),
    "z": ("\\z", "write $"),
    "G": ("\\G", "remove it"),
    "p": ("\\p{...} (JavaScript only)", "write an explicit character class"),
    "P": ("\\P{...} (JavaScript only)", "write an explicit negated character class"),
    "k": ("a named backreference \\k<...>", "repeat the sub-pattern instead"),
}
_SYNTAX_CHARS = set("^$\\.*+?()[]{}|/")
_SIMPLE_ESCAPES = set("tnrfv")
_QUANTIFIER_RE = re.compile(r"\{[0-9]+(?:,[0-9]*)?\}")
_HEX = "0123456789abcdefABCDEF"
_CODE_POINT_RE = re.compile(r"U\+([0-9A-F]{4,6})\Z")
_DATA_RANGE_RE = re.compile(r"U\+([0-9A-F]{4,6})(?:\.\.U\+([0-9A-F]{4,6}))?\Z")

_ALIASES = {
    "General_Category=Format": "gc=Cf",
    "Default_Ignorable_Code_Point": "DI",
    "Prepended_Concatenation_Mark": "PCM",
}
"""The Unicode short alias of each property the catalogue may name (PropertyAliases.txt)."""

NamedRange = tuple[int, int, str]
"""An inclusive range of code points and what it is."""

Finding = tuple[str, str]
"""A non-portable construct: what it is, and the portable spelling to use."""


def _group(pattern: str, start: int) -> Finding | None:
    """Check the construct that starts with ``(?`` at ``start``."""
    rest = pattern[start + 2 : start + 4]
    if rest[:1] in (":", "=", "!"):
        return None
    if rest in ("<=", "<!"):
        # Fixed-width lookbehind reads alike in both engines; Python's re
        # already refuses a variable-width one when the pattern is compiled.
        return None
    if rest[:1] in ("<", "P", "'"):
        return "a named group", "write a plain group (...) or (?:...)"
    if rest[:1] == ">":
        return "an atomic group (?>", "write (?:...)"
    if rest[:1] == "#":
        return "a comment group (?#", "remove the comment"
    return "an inline flag group (?...)", "remove the flag and spell case both ways, e.g. [Aa]"


def _escape(pattern: str, index: int, in_class: bool) -> tuple[int, Finding | None]:
    """Check the escape at ``index``; return its length and any finding."""
    char = pattern[index + 1 : index + 2]
    if char in _ESCAPES:
        name, fix = _ESCAPES[char]
        return 2, (name, fix)
    if char.isdigit():
        if char == "0" and not pattern[index + 2 : index + 3].isdigit():
            return 2, None
        return 2, (f"the backreference or octal escape \\{char}", "repeat the sub-pattern instead")
    if char == "x":
        digits = pattern[index + 2 : index + 4]
        ok = len(digits) == 2 and all(c in _HEX for c in digits)
        return (4, None) if ok else (2, ("\\x without two hex digits", "write \\xHH"))
    if char == "u":
        digits = pattern[index + 2 : index + 6]
        ok = len(digits) == 4 and all(c in _HEX for c in digits)
        return (6, None) if ok else (2, ("\\u without four hex digits", "write \\uHHHH"))
    if char in _SYNTAX_CHARS or char in _SIMPLE_ESCAPES or (char == "-" and in_class):
        return 2, None
    shown = f"\\{char}" if char else "a trailing backslash"
    return 2, (
        f"the escape {shown}",
        f"write {char} without the backslash" if char else "remove it",
    )


def findings(pattern: str) -> Iterator[Finding]:
    """Yield each construct of ``pattern`` outside the portable subset."""
    index, in_class, class_start = 0, False, 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            length, found = _escape(pattern, index, in_class)
            if found:
                yield found
            index += length
            continue
        if in_class:
            if char == "]" and index > class_start:
                in_class = False
            index += 1
            continue
        if char == "[":
            in_class = True
            index += 2 if pattern[index + 1 : index + 2] == "^" else 1
            class_start = index
            if pattern[index : index + 1] == "]":
                yield "an empty class [] or [^] (read differently)", "write the class out in full"
            continue
        if char == "(" and pattern[index + 1 : index + 2] == "?":
            found = _group(pattern, index)
            if found:
                yield found
            index += 3
            continue
        quantifier = _QUANTIFIER_RE.match(pattern, index) if char == "{" else None
        if char in "*+?" or quantifier:
            end = quantifier.end() if quantifier else index + 1
            if pattern[end : end + 1] == "?":
                end += 1
            if pattern[end : end + 1] == "+":
                yield "a possessive repeat", "write the repeat without the trailing +"
            index = end
            continue
        if char in "{}]":
            yield f"a bare {char}", f"write \\{char}"
        index += 1


def _rules(doc: Document, group: str) -> Iterator[tuple[KeyPath, dict[str, Any]]]:
    data = doc.data if isinstance(doc.data, dict) else {}
    sanitizer = data.get("sanitizer")
    items = sanitizer.get(group) if isinstance(sanitizer, dict) else None
    for index, item in enumerate(items if isinstance(items, list) else []):
        if isinstance(item, dict):
            yield ("sanitizer", group, index), item


def _ok(path: KeyPath, rejected: set[KeyPath]) -> bool:
    return not is_rejected(path, rejected)


def _pattern_problems(doc: Document, rejected: set[KeyPath]) -> Iterator[Problem]:
    for group in ("secrets", "injection"):
        for base, rule in _rules(doc, group):
            for field in ("prefix", "pattern"):
                text = rule.get(field)
                path = (*base, field)
                if not isinstance(text, str) or not _ok(path, rejected):
                    continue
                try:
                    re.compile(text)
                except re.error as err:
                    yield doc.problem(
                        path,
                        "bad-pattern",
                        f"{quoted(text)} does not compile: {err.msg} at position {err.pos}",
                        "fix the regular expression (inside double quotes write \\\\ for \\)",
                    )
                else:
                    if field == "prefix" and text and re.fullmatch(text, "") is not None:
                        yield doc.problem(
                            path,
                            "empty-prefix",
                            f"the prefix {quoted(text)} can match nothing, so it cannot say "
                            "where a secret starts (docs/sdk-contract.md section 2)",
                            "move a lookbehind into the pattern, or make the prefix match "
                            "at least one character",
                        )
                seen: set[str] = set()
                for name, fix in findings(text):
                    if name not in seen:
                        seen.add(name)
                        yield doc.problem(
                            path,
                            "non-portable-pattern",
                            f"{quoted(text)} uses {name}, which Python re and JavaScript "
                            "RegExp do not read alike",
                            fix,
                        )
            triggers = rule.get("triggers")
            for index, trigger in enumerate(triggers if isinstance(triggers, list) else []):
                path = (*base, "triggers", index)
                if isinstance(trigger, str) and trigger != trigger.lower() and _ok(path, rejected):
                    yield doc.problem(
                        path,
                        "uppercase-trigger",
                        f"the trigger {quoted(trigger)} has upper-case letters; "
                        "triggers are lower case",
                        f"write it in lower case: {quoted(trigger.lower())}",
                    )


def _ranges(
    doc: Document, group: str, rejected: set[KeyPath]
) -> Iterator[tuple[KeyPath, int, int, str]]:
    for base, item in _rules(doc, group):
        first, last = item.get("first"), item.get("last")
        if not (isinstance(first, str) and isinstance(last, str) and _ok(base, rejected)):
            continue
        low, high = _CODE_POINT_RE.match(first), _CODE_POINT_RE.match(last)
        if low and high:
            yield base, int(low.group(1), 16), int(high.group(1), 16), str(item.get("name", ""))


def _range_problems(doc: Document, rejected: set[KeyPath]) -> Iterator[Problem]:
    ordered: dict[str, list[tuple[KeyPath, int, int, str]]] = {}
    for group in ("remove", "to_space"):
        ordered[group] = []
        for path, first, last, name in _ranges(doc, group, rejected):
            if first > last:
                yield doc.problem(
                    (*path, "first"),
                    "range-order",
                    f"first U+{first:04X} comes after last U+{last:04X}",
                    "swap first and last",
                )
            else:
                ordered[group].append((path, first, last, name))
    for path, first, last, name in ordered["to_space"]:
        for other, low, high, other_name in ordered["remove"]:
            if first <= high and low <= last:
                yield doc.problem(
                    path,
                    "range-overlap",
                    f"U+{first:04X}..U+{last:04X} ({name}) overlaps {format_path(other)} "
                    f"U+{low:04X}..U+{high:04X} ({other_name})",
                    "make the ranges disjoint: a character is either removed or made a space",
                )


def check(doc: Document, rejected: set[KeyPath]) -> list[Problem]:
    """Run the sanitizer rules.

    Args:
        doc: the loaded catalogue.
        rejected: key paths the meta-schema already rejected; they are skipped.

    Returns:
        The problems found in patterns, prefixes, triggers and character ranges.
    """
    return [*_pattern_problems(doc, rejected), *_range_problems(doc, rejected)]


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
