"""The sanitizer rules: patterns in the portable dialect, lower-case triggers, sound ranges.

The catalogue's patterns are written in one dialect (docs/sdk-contract.md
section 2) that the regex engine of every SDK (each language record's
:class:`~errcat.names.languages.RegexDialect`) reads alike and runs in
linear time: literals, ``.``, ASCII character classes, ``(?:...)`` groups,
alternation, anchors ``^``/``$`` and greedy or lazy repeats. What a
lookaround said is written as a rule's side conditions (``not_after``,
``ahead``, ``followed_by``, ``prefix_not_followed_by``). This module refuses
everything else, with the dialect's spelling to use instead:
``non-regular-pattern`` for what a linear-time engine cannot run (lookaround,
backreferences, atomic groups, possessive repeats), ``non-portable-pattern``
for what the engines read differently (naming the engines whose records say
they refuse it), ``side-condition`` for a side condition out of its shape."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from errcat.check.context import Context
from errcat.model.sanitizer import SIDE_CONDITIONS
from errcat.names.languages import LANGUAGES, Language, RegexDialect
from errcat.source.document import KeyPath, format_path
from errcat.wording import quoted

_ESCAPES = {
    "b": (
        "\\b (word boundary)",
        'write a side condition, e.g. not_after: "[A-Za-z0-9_]" for one before the match',
    ),
    "B": ("\\B (not a word boundary)", "write the word characters out, e.g. [A-Za-z0-9_]"),
    "d": ("\\d (the engines disagree on digits)", "write [0-9]"),
    "D": ("\\D", "write [^0-9]"),
    "s": ("\\s (the engines disagree on whitespace)", "write the characters, e.g. [ ]"),
    "S": ("\\S", "write the excluded characters, e.g. [^ ]"),
    "w": ("\\w (the engines disagree on word characters)", "write [A-Za-z0-9_]"),
    "W": ("\\W", "write [^A-Za-z0-9_]"),
    "A": ("\\A", "write ^"),
    "Z": ("\\Z", "write $"),
    "z": ("\\z", "write $"),
    "G": ("\\G", "remove it"),
    "p": ("\\p{...}", "write an explicit character class"),
    "P": ("\\P{...}", "write an explicit negated character class"),
}
_LOOKAROUNDS = {
    "=": "a lookahead (?=",
    "!": "a negative lookahead (?!",
    "<=": "a lookbehind (?<=",
    "<!": "a negative lookbehind (?<!",
}
_BACKREFERENCE_FIX = "repeat the sub-pattern instead"
_LOOKAROUND_FIX = (
    "write it as the rule's side condition: not_after (a lookbehind of one class), "
    "ahead (a lookahead before the pattern), followed_by (a lookahead after it) or "
    "prefix_not_followed_by (a negative lookahead after the prefix)"
)
_SYNTAX_CHARS = set("^$\\.*+?()[]{}|/")
_SIMPLE_ESCAPES = set("tnrfv")
_QUANTIFIER_RE = re.compile(r"\{[0-9]+(?:,[0-9]*)?\}")
_HEX = "0123456789abcdefABCDEF"
_SET_OPERATORS = ("&&", "--", "~~")
_MAX_COUNT = 1000
_CODE_POINT_RE = re.compile(r"U\+([0-9A-F]{4,6})\Z")

CLASS_SET = "class-set"
LONG_COUNT = f"count>{_MAX_COUNT}"
REFUSABLE = frozenset([*(f"\\{char}" for char in "AZpPu0"), CLASS_SET, LONG_COUNT])
"""What a :class:`RegexDialect` may list as refused: the escapes whose finding names the
engines that refuse them, a nested class or set operation, a repeat count above the limit."""


def listed(names: Iterable[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    items = list(names)
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


@dataclass(frozen=True)
class Engines:
    """The regex engines of the target languages, as their records describe them; every message
    that names an engine is worded here from them."""

    dialects: tuple[RegexDialect, ...]

    @classmethod
    def of(cls, languages: Iterable[Language]) -> Engines:
        """The engines of ``languages``, each once, in their order."""
        return cls(tuple(dict.fromkeys(lang.regex_dialect for lang in languages)))

    def _say(self, dialects: list[RegexDialect], verb: str) -> str:
        names = listed(d.name for d in dialects)
        return f"{names} {verb if len(dialects) > 1 else verb + 's'}" if dialects else ""

    @property
    def all(self) -> str:
        """Every engine: ``Python re, ... and Rust regex``."""
        return listed(d.name for d in self.dialects)

    @property
    def linear(self) -> str:
        """``RE2 (Go) and Rust regex refuse``: the linear-time engines, with the verb."""
        found = [d for d in self.dialects if d.linear]
        return self._say(found, "refuse") or "a linear-time engine refuses"

    def note(self, name: str, construct: str, reading: str = "") -> str:
        """``name``, then the engines whose records refuse ``construct`` (a key of
        :data:`REFUSABLE`): ``(Rust regex refuses it)``, or ``(READING in Rust regex)`` for one
        that reads it otherwise; ``name`` alone when no engine does."""
        found = [d for d in self.dialects if construct in d.refuses]
        if not found:
            return name
        if reading:
            return f"{name} ({reading} in {listed(d.name for d in found)})"
        return f"{name} ({self._say(found, 'refuse')} it)"


ENGINES = Engines.of(LANGUAGES)
"""The engines of the generated SDKs."""

NON_REGULAR = "non-regular-pattern"
NON_PORTABLE = "non-portable-pattern"

Finding = tuple[str, str, str]
"""A construct outside the dialect: its rule id, what it is, and the dialect's spelling."""


def _group(pattern: str, start: int) -> Finding | None:
    """Check the construct that starts with ``(?`` at ``start``."""
    rest = pattern[start + 2 : start + 4]
    if rest[:1] == ":":
        return None
    if rest[:1] in ("=", "!") or rest in ("<=", "<!"):
        return NON_REGULAR, _LOOKAROUNDS[rest if rest[:1] == "<" else rest[:1]], _LOOKAROUND_FIX
    if rest[:2] == "P=":
        return NON_REGULAR, "a named backreference (?P=...)", _BACKREFERENCE_FIX
    if rest[:1] in ("<", "P", "'"):
        return NON_PORTABLE, "a named group", "write a plain group (...) or (?:...)"
    if rest[:1] == ">":
        return NON_REGULAR, "an atomic group (?>", "write (?:...)"
    if rest[:1] == "#":
        return NON_PORTABLE, "a comment group (?#", "remove the comment"
    return (
        NON_PORTABLE,
        "an inline flag group (?...)",
        "remove the flag and spell case both ways, e.g. [Aa]",
    )


def _escape(
    pattern: str, index: int, in_class: bool, engines: Engines
) -> tuple[int, Finding | None]:
    """Check the escape at ``index``; return its length and any finding."""
    char = pattern[index + 1 : index + 2]
    if char in _ESCAPES:
        name, fix = _ESCAPES[char]
        return 2, (NON_PORTABLE, engines.note(name, f"\\{char}"), fix)
    if char == "k":
        return 2, (NON_REGULAR, "a named backreference \\k<...>", _BACKREFERENCE_FIX)
    if char == "0" and not pattern[index + 2 : index + 3].isdigit():
        return 2, (NON_PORTABLE, engines.note("the escape \\0", "\\0"), "write \\x00")
    if char.isdigit():
        return 2, (NON_REGULAR, f"the backreference or octal escape \\{char}", _BACKREFERENCE_FIX)
    if char == "x":
        digits = pattern[index + 2 : index + 4]
        ok = len(digits) == 2 and all(c in _HEX for c in digits)
        return (4, None) if ok else (2, (NON_PORTABLE, "\\x without two hex digits", "write \\xHH"))
    if char == "u":
        return 2, (
            NON_PORTABLE,
            engines.note("the escape \\u", "\\u"),
            "write the character itself, or \\xHH below U+0100",
        )
    if char in _SYNTAX_CHARS or char in _SIMPLE_ESCAPES or (char == "-" and in_class):
        return 2, None
    shown = f"\\{char}" if char else "a trailing backslash"
    return 2, (
        NON_PORTABLE,
        f"the escape {shown}",
        f"write {char} without the backslash" if char else "remove it",
    )


def findings(pattern: str, engines: Engines = ENGINES) -> Iterator[Finding]:
    """Yield each construct of ``pattern`` outside the portable subset, naming ``engines``."""
    index, in_class, class_start = 0, False, 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            length, found = _escape(pattern, index, in_class, engines)
            if found:
                yield found
            index += length
            continue
        if in_class:
            if char == "]" and index > class_start:
                in_class = False
            elif char == "[" or pattern[index : index + 2] in _SET_OPERATORS:
                shown = "[" if char == "[" else pattern[index : index + 2]
                yield (
                    NON_PORTABLE,
                    engines.note(
                        f"{shown} inside a class", CLASS_SET, "a nested class or set operation"
                    ),
                    (f"write \\{shown[0]}" + ("" if char == "[" else f"\\{shown[1]}")),
                )
            index += 1
            continue
        if char == "[":
            in_class = True
            index += 2 if pattern[index + 1 : index + 2] == "^" else 1
            class_start = index
            if pattern[index : index + 1] == "]":
                yield (
                    NON_PORTABLE,
                    "an empty class [] or [^] (read differently)",
                    ("write the class out in full"),
                )
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
            if quantifier and max(map(int, re.findall("[0-9]+", quantifier.group()))) > _MAX_COUNT:
                yield (
                    NON_PORTABLE,
                    engines.note(f"a repeat count above {_MAX_COUNT}", LONG_COUNT),
                    (f"write a count of at most {_MAX_COUNT}"),
                )
            if pattern[end : end + 1] == "+":
                yield NON_REGULAR, "a possessive repeat", "write the repeat without the trailing +"
            index = end
            continue
        if char in "{}]":
            yield NON_PORTABLE, f"a bare {char}", f"write \\{char}"
        index += 1


def _rules(ctx: Context, group: str) -> Iterator[tuple[KeyPath, dict[str, Any]]]:
    items = ctx.section("sanitizer").get(group)
    for index, item in enumerate(items if isinstance(items, list) else []):
        if isinstance(item, dict):
            yield ("sanitizer", group, index), item


_ONE_CLASS_RE = re.compile(r"\[\^?(?:\\.|[^\]\\])+\]\Z")


def _side_condition_shape(rule: dict[str, Any], field: str, text: str) -> str | None:
    """Why ``field`` (holding ``text``) is out of its shape, or None."""
    if field == "not_after":
        if _ONE_CLASS_RE.match(text) is None:
            return f"not_after {quoted(text)} is not one character class [...]"
        return None
    if "prefix" not in rule:
        return (
            f"{field} is tested once per prefix match, so only a rule with a prefix "
            "has it (on a rule without one, it would be tested at every position)"
        )
    return None


def _check_pattern(ctx: Context, path: KeyPath, text: str, field: str) -> None:
    """One pattern field: it compiles, it is in the dialect, a prefix matches something."""
    try:
        re.compile(text)
    except re.error as err:
        ctx.add(
            path,
            "bad-pattern",
            f"{quoted(text)} does not compile: {err.msg} at position {err.pos}",
            "fix the regular expression (inside double quotes write \\\\ for \\)",
        )
        return
    if field == "prefix" and text and re.fullmatch(text, "") is not None:
        ctx.add(
            path,
            "empty-prefix",
            f"the prefix {quoted(text)} can match nothing, so it cannot say "
            "where a secret starts (docs/sdk-contract.md section 2)",
            "make the prefix match at least one character, or write not_after instead",
        )
    seen: set[str] = set()
    for rule_id, name, fix in findings(text):
        if name not in seen:
            seen.add(name)
            which = ENGINES.linear if rule_id == NON_REGULAR else f"{ENGINES.all} do not read alike"
            ctx.add(path, rule_id, f"{quoted(text)} uses {name}, which {which}", fix)


def pattern_rules(ctx: Context) -> None:
    """Secret and injection patterns compile, are in the dialect, and a prefix matches something."""
    for group in ("secrets", "injection"):
        for base, rule in _rules(ctx, group):
            for field in ("prefix", "pattern", *SIDE_CONDITIONS):
                text = rule.get(field)
                path = (*base, field)
                if not isinstance(text, str) or not ctx.ok(path):
                    continue
                shape = (
                    _side_condition_shape(rule, field, text) if field in SIDE_CONDITIONS else None
                )
                if shape is not None:
                    ctx.add(
                        path,
                        "side-condition",
                        shape,
                        "write a prefix for the rule, or write the condition into the pattern"
                        if field != "not_after"
                        else 'write one class, e.g. not_after: "[A-Za-z0-9_]"',
                    )
                    continue
                _check_pattern(ctx, path, text, field)
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


def rule_ids(ctx: Context) -> None:
    """No two rules of one list share an ``id`` (the later would silently win an override)."""
    for group in ("secrets", "injection"):
        first: dict[str, int] = {}
        for path, rule in _rules(ctx, group):
            rule_id = rule.get("id")
            if not isinstance(rule_id, str) or not ctx.ok((*path, "id")):
                continue
            index = path[-1]
            if rule_id in first:
                ctx.add(
                    (*path, "id"),
                    "duplicate-rule-id",
                    f"the id {quoted(rule_id)} is also the id of sanitizer.{group}[{first[rule_id]}]",
                    "give each rule its own id (a rule with a standard rule's id replaces it)",
                )
            else:
                first[rule_id] = int(index)
