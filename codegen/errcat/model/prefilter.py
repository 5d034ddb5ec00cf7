"""The trigger pre-filter's plan: which characters and literals each sanitizer rule needs.

The contract lets an SDK skip a rule for text whose lower-cased form holds
none of the rule's triggers (docs/sdk-contract.md, section 2). Every match
of a rule also holds one character of each set its pattern requires; the
plan picks each rule's rarest such sets (its guards, at most two) and orders
its triggers for cheap substring tests. Rarity is measured on the
catalogue's own prose, the kind of text the SDKs sanitize.

Every target renders this one plan as generated code (codegen/README.md,
"The trigger pre-filter"): a rule may run only when the lower-cased text
holds one character of each of its guards and one of its triggers, and the
plan is exactly that test, arranged so that clean text fails early.
"""

from __future__ import annotations

import importlib
from collections import Counter
from dataclasses import dataclass
from typing import Any

from errcat.model.catalogue import Catalogue, TextRule

# Characters from most to least frequent in English prose and error text; it
# breaks ties between characters equally rare in the catalogue's own texts.
_FREQUENT = " etaoinsrhldcumfpgwyb.,v0123456789-_:/"

_MAX_GUARD_SET = 3
"""A guard is at most this many characters (one search each)."""
_MAX_GUARD_SHARE = 0.6
"""A character set held by more of the catalogue's texts than this is no guard worth testing."""
_CLUSTER = 3
"""This many triggers or more that start with the same two characters are searched under that pair."""


@dataclass(frozen=True)
class Cluster:
    """Triggers searched together: under ``prefix`` (which each starts with), or each alone."""

    prefix: str
    """"": the triggers are searched without a common prefix."""
    triggers: tuple[str, ...]


@dataclass(frozen=True)
class TriggerTest:
    """Triggers that share their rarest character, searched only when ``char`` is in the text."""

    char: str
    """"": not searched first (a guard already did, it is common, or it is the one trigger)."""
    clusters: tuple[Cluster, ...]


@dataclass(frozen=True)
class RulePlan:
    """One rule's part of the plan: its position and its trigger tests."""

    index: int
    """The rule's position among the injection rules followed by the secret rules."""
    name: str
    triggers: tuple[TriggerTest, ...]
    """The text holds one of the rule's triggers exactly when one of these passes."""


@dataclass(frozen=True)
class GuardGroup:
    """The rules that share their guards."""

    guards: tuple[tuple[str, ...], ...]
    """Character sets, rarest first, each's characters rarest first: the text holds one of each."""
    triggers: tuple[TriggerTest, ...]
    """The triggers of all the group's rules: whether some rule of the group may run."""
    rules: tuple[RulePlan, ...]
    """Each rule's own trigger tests, in the order of the rules."""


@dataclass(frozen=True)
class Prefilter:
    """The whole plan: groups ordered so that the rarest guards are tested first."""

    groups: tuple[GuardGroup, ...]
    rule_count: int
    """How many rules the plan covers (injection rules, then secret rules)."""
    chars: tuple[str, ...]
    """Every character of the guards and triggers, rarest first (a target may track the rarest)."""

    def guards_of(self, index: int) -> tuple[str, ...]:
        """The guards of rule ``index`` (injection rules, then secret rules), each its characters."""
        for group in self.groups:
            if any(rule.index == index for rule in group.rules):
                return tuple("".join(g) for g in group.guards)
        return ()

    pairs: tuple[str, ...]
    """Pairs of adjacent characters of the triggers, most telling first (a target may track the first).

    First the rarest pair of each trigger, the triggers whose characters most
    of the catalogue's texts hold first (characters alone rule those out
    least often); then every other pair, rarest first.
    """


class _Corpus:
    """How common characters are in the catalogue's own prose (the kind of text the SDKs sanitize)."""

    def __init__(self, cat: Catalogue) -> None:
        self.texts = [
            text.lower()
            for code in cat.codes
            for text in (code.message, code.cause, code.remediation, code.recovery.guidance)
        ]
        self.holding = Counter(ch for text in self.texts for ch in set(text))

    def char_key(self, ch: str) -> tuple[int, int, str]:
        """A sort key of characters, rarest first; ties go by :data:`_FREQUENT`."""
        common = len(_FREQUENT) - _FREQUENT.index(ch) if ch in _FREQUENT else 0
        return (self.holding[ch], common, ch)

    def holding_all(self, parts: set[str]) -> float:
        """The share of the catalogue's texts that hold every one of ``parts`` (characters or strings)."""
        return sum(1 for text in self.texts if all(p in text for p in parts)) / max(
            1, len(self.texts)
        )

    def share(self, chars: frozenset[str]) -> float:
        """The share of the catalogue's texts that hold at least one of ``chars``."""
        return sum(1 for text in self.texts if not chars.isdisjoint(text)) / max(1, len(self.texts))

    def set_key(self, chars: frozenset[str]) -> tuple[float, int, tuple[tuple[int, int, str], ...]]:
        return (self.share(chars), len(chars), tuple(sorted(map(self.char_key, chars))))


def _class_chars(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    """The lower-cased characters a regex class matches, or ``None`` if it is negated, a category or large."""
    chars: set[str] = set()
    for op, value in items:
        name = str(op)
        if name == "LITERAL":
            chars.add(chr(value).lower())
        elif name == "RANGE" and value[1] - value[0] < 32:
            chars.update(chr(c).lower() for c in range(value[0], value[1] + 1))
        else:
            return None
    return frozenset(chars) if len(chars) <= 2 * _MAX_GUARD_SET else None


def _required(items: list[tuple[Any, Any]], corpus: _Corpus) -> list[frozenset[str]]:
    """Character sets of which every match of the regex ``items`` holds at least one character each.

    Sound by construction: a literal and a small class are required; a repeat
    only if it repeats at least once; a group and a lookahead or lookbehind
    (whose characters are in the text too) as their contents; an alternation
    the union of each branch's rarest set; anything else requires nothing.
    Sets are lower-cased, as the pre-filter reads lower-cased text.
    """
    out: list[frozenset[str]] = []
    for op, value in items:
        name = str(op)
        if name == "LITERAL":
            out.append(frozenset(chr(value).lower()))
        elif name == "IN":
            chars = _class_chars(value)
            if chars is not None:
                out.append(chars)
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            if value[0] >= 1:
                out.extend(_required(list(value[2]), corpus))
        elif name == "SUBPATTERN":
            out.extend(_required(list(value[-1]), corpus))
        elif name == "ATOMIC_GROUP":
            out.extend(_required(list(value), corpus))
        elif name == "ASSERT":
            out.extend(_required(list(value[1]), corpus))
        elif name == "BRANCH":
            best = [
                min(_required(list(alt), corpus), key=corpus.set_key, default=None)
                for alt in value[1]
            ]
            if all(b is not None for b in best):
                out.append(frozenset().union(*best))  # type: ignore[arg-type]
    return out


def _parse_regex(regex: str) -> Any:
    """The parse tree of ``regex`` by the ``re`` module's own parser (``re._parser``, untyped)."""
    return importlib.import_module("re._parser").parse(regex)


def _rule_guards(rule: TextRule, corpus: _Corpus) -> tuple[frozenset[str], ...]:
    """Up to two character sets, rare in the catalogue's prose, that every match of ``rule`` holds."""
    sets = {
        s for s in _required(list(_parse_regex(rule.regex)), corpus) if len(s) <= _MAX_GUARD_SET
    }
    ranked = sorted(sets, key=corpus.set_key)
    return tuple(s for s in ranked if corpus.share(s) <= _MAX_GUARD_SHARE)[:2]


def _trigger_tests(
    triggers: list[str], corpus: _Corpus, skip: frozenset[str]
) -> tuple[TriggerTest, ...]:
    """The tests of whether the text holds one of ``triggers``, each group under its rarest character.

    A trigger that contains another is implied by it and left out. Three or
    more triggers of a group that start with the same two characters are
    searched only when those two are there. A group's character is not
    searched first when an enclosing guard (``skip``) already did, when it is
    the group's one trigger, or when most of the catalogue's texts hold it
    (the search would nearly always pass).
    """
    unique = sorted(set(triggers))
    kept = [t for t in unique if not any(o != t and o in t for o in unique)]
    groups: dict[str, list[str]] = {}
    for trigger in kept:
        groups.setdefault(min(trigger, key=corpus.char_key), []).append(trigger)
    tests = []
    for char, members in sorted(groups.items()):
        by_prefix: dict[str, list[str]] = {}
        for trigger in members:
            by_prefix.setdefault(trigger[:2] if len(trigger) > 2 else trigger, []).append(trigger)
        clusters: list[Cluster] = []
        for prefix, cluster in by_prefix.items():
            if len(cluster) >= _CLUSTER:
                clusters.append(Cluster(prefix, tuple(cluster)))
            else:
                clusters.extend(Cluster("", (t,)) for t in cluster)
        tested = not (
            members == [char] or char in skip or corpus.share(frozenset(char)) > _MAX_GUARD_SHARE
        )
        tests.append(TriggerTest(char if tested else "", tuple(clusters)))
    return tuple(tests)


def prefilter(cat: Catalogue) -> Prefilter:
    """The pre-filter plan of ``cat``'s rules.

    Rules are grouped by their guards (the rarest sets their patterns
    require, :func:`_required`), groups ordered by how rare their guards are;
    the triggers of a group are searched only when its guards pass.
    """
    corpus = _Corpus(cat)
    san = cat.sanitizer
    indexed = list(enumerate(san.injection + san.secrets))
    # Secret rules first, as the groups were first ordered (ties keep this order).
    ordered = indexed[len(san.injection) :] + indexed[: len(san.injection)]
    by_guards: dict[tuple[frozenset[str], ...], list[tuple[int, TextRule]]] = {}
    for index, rule in ordered:
        by_guards.setdefault(_rule_guards(rule, corpus), []).append((index, rule))
    groups = []
    for guards, rules in sorted(
        by_guards.items(), key=lambda item: [corpus.set_key(s) for s in item[0]]
    ):
        skip = frozenset(next(iter(g)) for g in guards if len(g) == 1)
        groups.append(
            GuardGroup(
                guards=tuple(tuple(sorted(g, key=corpus.char_key)) for g in guards),
                triggers=_trigger_tests([t for _, r in rules for t in r.triggers], corpus, skip),
                rules=tuple(
                    RulePlan(index, rule.name, _trigger_tests(list(rule.triggers), corpus, skip))
                    for index, rule in sorted(rules, key=lambda item: item[0])
                ),
            )
        )
    chars = {
        ch
        for group in groups
        for ch in (
            *(ch for g in group.guards for ch in g),
            *(
                ch
                for r in group.rules
                for test in r.triggers
                for c in test.clusters
                for t in c.triggers
                for ch in t
            ),
        )
    }
    return Prefilter(
        tuple(groups),
        len(indexed),
        tuple(sorted(chars, key=corpus.char_key)),
        _pairs(groups, corpus),
    )


def _pairs(groups: list[GuardGroup], corpus: _Corpus) -> tuple[str, ...]:
    """The pairs of :attr:`Prefilter.pairs`."""
    triggers = sorted(
        {
            t
            for g in groups
            for r in g.rules
            for x in r.triggers
            for c in x.clusters
            for t in c.triggers
        }
    )
    pairs_of = {t: {t[i : i + 2] for i in range(len(t) - 1)} for t in triggers}
    rarity = {p: (corpus.holding_all({p}), p) for ps in pairs_of.values() for p in ps}
    first: list[str] = []
    for trigger in sorted(triggers, key=lambda t: (-corpus.holding_all(set(t)), t)):
        if pairs_of[trigger]:
            rarest = min(pairs_of[trigger], key=rarity.__getitem__)
            if rarest not in first:
                first.append(rarest)
    rest = sorted(set(rarity) - set(first), key=rarity.__getitem__)
    return (*first, *rest)
