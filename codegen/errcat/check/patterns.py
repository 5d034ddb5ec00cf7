"""The sanitizer rules: portable patterns, lower-case triggers, sound character ranges.

Both SDKs run the catalogue's patterns, Python with ``re`` and TypeScript
with ``RegExp`` and flag ``u``. Only the subset the two engines read alike is
allowed: literals, ``.``, ASCII character classes, ``(?:...)`` groups,
lookahead, alternation, anchors ``^``/``$`` and greedy or lazy repeats. This
module rejects everything else with the portable spelling to use instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from errcat.check.context import Context
from errcat.names.languages import LANGUAGES
from errcat.source.document import KeyPath, format_path
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

DIALECTS = " and ".join(lang.regex_dialect for lang in LANGUAGES)
"""The regex engines that run the sanitizer's patterns, as messages name them."""

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


def _rules(ctx: Context, group: str) -> Iterator[tuple[KeyPath, dict[str, Any]]]:
    items = ctx.section("sanitizer").get(group)
    for index, item in enumerate(items if isinstance(items, list) else []):
        if isinstance(item, dict):
            yield ("sanitizer", group, index), item


def pattern_rules(ctx: Context) -> None:
    """Secret and injection patterns compile, are portable, and a prefix matches something."""
    for group in ("secrets", "injection"):
        for base, rule in _rules(ctx, group):
            for field in ("prefix", "pattern"):
                text = rule.get(field)
                path = (*base, field)
                if not isinstance(text, str) or not ctx.ok(path):
                    continue
                try:
                    re.compile(text)
                except re.error as err:
                    ctx.add(
                        path,
                        "bad-pattern",
                        f"{quoted(text)} does not compile: {err.msg} at position {err.pos}",
                        "fix the regular expression (inside double quotes write \\\\ for \\)",
                    )
                else:
                    if field == "prefix" and text and re.fullmatch(text, "") is not None:
                        ctx.add(
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
                        ctx.add(
                            path,
                            "non-portable-pattern",
                            f"{quoted(text)} uses {name}, which {DIALECTS} do not read alike",
                            fix,
                        )
            triggers = rule.get("triggers")
            for index, trigger in enumerate(triggers if isinstance(triggers, list) else []):
                path = (*base, "triggers", index)
                if isinstance(trigger, str) and trigger != trigger.lower() and ctx.ok(path):
                    ctx.add(
                        path,
                        "uppercase-trigger",
                        f"the trigger {quoted(trigger)} has upper-case letters; "
                        "triggers are lower case",
                        f"write it in lower case: {quoted(trigger.lower())}",
                    )


def _ranges(ctx: Context, group: str) -> Iterator[tuple[KeyPath, int, int, str]]:
    for base, item in _rules(ctx, group):
        first, last = item.get("first"), item.get("last")
        if not (isinstance(first, str) and isinstance(last, str) and ctx.ok(base)):
            continue
        low, high = _CODE_POINT_RE.match(first), _CODE_POINT_RE.match(last)
        if low and high:
            yield base, int(low.group(1), 16), int(high.group(1), 16), str(item.get("name", ""))


def character_ranges(ctx: Context) -> None:
    """Each range runs upward, and no character is both removed and made a space."""
    ordered: dict[str, list[tuple[KeyPath, int, int, str]]] = {}
    for group in ("remove", "to_space"):
        ordered[group] = []
        for path, first, last, name in _ranges(ctx, group):
            if first > last:
                ctx.add(
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
                ctx.add(
                    path,
                    "range-overlap",
                    f"U+{first:04X}..U+{last:04X} ({name}) overlaps {format_path(other)} "
                    f"U+{low:04X}..U+{high:04X} ({other_name})",
                    "make the ranges disjoint: a character is either removed or made a space",
                )
