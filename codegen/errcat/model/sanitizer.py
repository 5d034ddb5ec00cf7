"""The model of the catalogue's ``sanitizer`` section: character ranges, rules, markers.

The removed set is derived here from the catalogue's ranges and the Unicode
properties it names. :mod:`errcat.model.catalogue` holds it as ``Catalogue.sanitizer``
and names ``CharRange`` and ``TextRule`` too.
"""

from __future__ import annotations

import bisect
import dataclasses
from dataclasses import dataclass
from typing import Any

from errcat.model import unicode


@dataclass(frozen=True, order=True)
class CharRange:
    """An inclusive range of code points the sanitizer removes or turns into a space."""

    first: int
    last: int
    name: str


SIDE_CONDITIONS = ("not_after", "ahead", "followed_by", "prefix_not_followed_by")
"""A rule's side conditions, each a pattern of the dialect (docs/sdk-contract.md section 2)."""


@dataclass(frozen=True)
class SideConditions:
    """A rule's side conditions (docs/sdk-contract.md section 2, the pattern dialect).

    The catalogue writes what a lookaround did as data, so every engine of the
    dialect can test it; "" is a condition the rule does not have.
    """

    not_after: str = ""
    """A character class: the character before the match is not in it."""
    ahead: str = ""
    """A pattern that matches where the match starts (it may read past its end)."""
    followed_by: str = ""
    """A pattern that matches where the match ends."""
    prefix_not_followed_by: str = ""
    """A pattern that does not match where the prefix's match ends."""


@dataclass(frozen=True)
class TextRule:
    """A sanitizer pattern: the match after ``prefix`` is replaced.

    ``prefix`` and ``pattern`` are written for engines with lookaround (Python
    ``re``, JavaScript ``RegExp``): the catalogue's dialect patterns with the
    side conditions as lookarounds, which is what both SDKs compile.
    ``portable_prefix``, ``portable_pattern`` and ``conditions`` are the
    catalogue's own fields, for engines without lookaround (RE2, Rust).
    """

    name: str
    prefix: str
    pattern: str
    triggers: tuple[str, ...]
    portable_prefix: str = ""
    portable_pattern: str = ""
    conditions: SideConditions = SideConditions()

    @property
    def regex(self) -> str:
        """The whole pattern, with the kept prefix as capture group 1."""
        return f"({self.prefix}){self.pattern}"


@dataclass(frozen=True)
class Sanitizer:
    """The one definition of text sanitizing that both SDKs are generated from."""

    redaction: str
    filtered: str
    truncation_marker: str
    remove: tuple[CharRange, ...]
    """The whole removed set: the catalogue's ranges and its Unicode properties, merged."""
    to_space: tuple[CharRange, ...]
    secrets: tuple[TextRule, ...]
    injection: tuple[TextRule, ...]
    unicode_version: str = ""
    """The Unicode version the properties of ``remove`` were read from ("": none named)."""

    @property
    def triggers(self) -> tuple[str, ...]:
        """Every trigger literal of every rule, sorted and without repeats."""
        return tuple(sorted({t for rule in self.secrets + self.injection for t in rule.triggers}))


def _code_point(text: str) -> int:
    return int(text[2:], 16)


def with_lookaround(prefix: str, pattern: str, side: SideConditions) -> tuple[str, str]:
    """The prefix and pattern with ``side`` written as lookarounds (Python ``re``, JavaScript)."""
    if prefix and side.prefix_not_followed_by:
        prefix = f"{prefix}(?!{side.prefix_not_followed_by})"
    if side.not_after:
        pattern = f"(?<!{side.not_after}){pattern}"
    if side.ahead:
        pattern = f"(?={side.ahead}){pattern}"
    if side.followed_by:
        pattern = f"{pattern}(?={side.followed_by})"
    return prefix, pattern


def _top_groups(pattern: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each outermost group of ``pattern`` (escapes and classes skipped)."""
    out: list[tuple[int, int]] = []
    depth, start, index, in_class = 0, 0, 0, False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            index += 2 if pattern[index + 1 : index + 3] == "^]" else 1
            continue
        elif char == "(":
            start = index if depth == 0 else start
            depth += 1
        elif char == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                out.append((start, index + 1))
        index += 1
    return out


def _peel(pattern: str, opener: str, *, last: bool) -> tuple[str, str]:
    """Split the first (or ``last``) outermost group off ``pattern`` when it opens with ``opener``.

    Returns the group's body ("" when there is no such group) and the rest.
    """
    groups = _top_groups(pattern)
    if groups:
        start, end = groups[-1] if last else groups[0]
        at_edge = end == len(pattern) if last else start == 0
        if at_edge and pattern.startswith(opener, start):
            return pattern[start + len(opener) : end - 1], pattern[:start] + pattern[end:]
    return "", pattern


def lookaround_as_conditions(rule: dict[str, Any]) -> None:
    """Rewrite a rule of a catalogue from before the dialect: its lookarounds as side conditions.

    The inverse of :func:`with_lookaround`: a leading ``(?=A)`` and
    ``(?<!C)`` and a trailing ``(?=F)`` of the pattern, and a trailing
    ``(?!N)`` of the prefix, become ``ahead``, ``not_after``,
    ``followed_by`` and ``prefix_not_followed_by``. Anything else is left
    for the validator to refuse.
    """
    pattern, prefix = rule.get("pattern"), rule.get("prefix")
    if isinstance(prefix, str):
        body, rest = _peel(prefix, "(?!", last=True)
        if body and rest:
            rule["prefix"], rule["prefix_not_followed_by"] = rest, body
    if not isinstance(pattern, str):
        return
    for opener, field, last in (("(?=", "ahead", False), ("(?<!", "not_after", False)):
        body, rest = _peel(pattern, opener, last=last)
        if body and rest:
            pattern, rule[field] = rest, body
    body, rest = _peel(pattern, "(?=", last=True)
    if body and rest:
        pattern, rule["followed_by"] = rest, body
    rule["pattern"] = pattern


def _rules(raw: list[dict[str, Any]]) -> tuple[TextRule, ...]:
    out = []
    for r in raw:
        side = SideConditions(
            not_after=r.get("not_after", ""),
            ahead=r.get("ahead", ""),
            followed_by=r.get("followed_by", ""),
            prefix_not_followed_by=r.get("prefix_not_followed_by", ""),
        )
        prefix, pattern = with_lookaround(r.get("prefix", ""), r["pattern"], side)
        out.append(
            TextRule(
                name=r["name"],
                prefix=prefix,
                pattern=pattern,
                triggers=tuple(r["triggers"]),
                portable_prefix=r.get("prefix", ""),
                portable_pattern=r["pattern"],
                conditions=side,
            )
        )
    return tuple(out)


def _removed(san: dict[str, Any]) -> tuple[CharRange, ...]:
    """The removed set: ``remove`` and ``remove_properties`` merged, less ``to_space``."""
    own = [(_code_point(r["first"]), _code_point(r["last"]), r["name"]) for r in san["remove"]]
    version = san.get("unicode_version")
    derived = unicode.property_ranges(version, san.get("remove_properties", ())) if version else []
    keep_out = [(r.first, r.last) for r in _ranges(san["to_space"])]
    return tuple(CharRange(*r) for r in unicode.merge_ranges(own + derived, keep_out))


def _ranges(raw: list[dict[str, str]]) -> tuple[CharRange, ...]:
    return tuple(
        sorted(CharRange(_code_point(r["first"]), _code_point(r["last"]), r["name"]) for r in raw)
    )


@dataclass(frozen=True)
class StageOne:
    """What stage 1 of a sanitizer changes: the characters it removes and those it turns into
    a space. A catalogue text holds none of them (:func:`errcat.check.values.texts`): an error
    writes its catalogue texts as they are, and an error restored from its fields sanitizes
    them, so a text stage 1 changes would not come back as it was."""

    ranges: tuple[CharRange, ...]
    """Sorted by their first code point; they do not overlap."""
    _firsts: list[int] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_firsts", [r.first for r in self.ranges])

    def range_of(self, char: str) -> CharRange | None:
        """The range that holds ``char``, or ``None`` when stage 1 leaves it as it is."""
        point = ord(char)
        index = bisect.bisect_right(self._firsts, point) - 1
        found = self.ranges[index] if index >= 0 else None
        return found if found is not None and found.last >= point else None


def stage_one(san: dict[str, Any]) -> StageOne:
    """Stage 1 of the sanitizer ``san`` (an effective section, as the model reads it)."""
    return StageOne(tuple(sorted(_removed(san) + _ranges(san["to_space"]), key=lambda r: r.first)))


def build_sanitizer(san: dict[str, Any]) -> Sanitizer:
    """The model of a validated ``sanitizer`` section."""
    return Sanitizer(
        redaction=san["redaction"],
        filtered=san["filtered"],
        truncation_marker=san["truncation_marker"],
        remove=_removed(san),
        to_space=_ranges(san["to_space"]),
        secrets=_rules(san["secrets"]),
        injection=_rules(san["injection"]),
        unicode_version=san.get("unicode_version", ""),
    )
