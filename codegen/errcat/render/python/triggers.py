"""The generated ``has_trigger`` test of the Python SDK's sanitizer, compiled from the catalogue's rules.

Each rule can match only text that holds one of its triggers and one
character of each set its pattern requires. The test looks for a rule's
rarest required characters first (a ``memchr`` each), then for its
triggers; rarity is measured on the catalogue's own prose, the kind of text
the SDKs sanitize.

Why Python gets generated code while TypeScript builds an automaton from
the generated trigger lists is decided, with its measurements, in
codegen/README.md ("The trigger pre-filter").
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from errcat.model.catalogue import Catalogue, TextRule
from errcat.render.python.text import py_str

# Characters from most to least frequent in English prose and error text; it
# breaks ties between characters equally rare in the catalogue's own texts.
_FREQUENT = " etaoinsrhldcumfpgwyb.,v0123456789-_:/"

_MAX_GUARD_SET = 3
"""A guard is at most this many characters (one ``memchr`` each)."""
_MAX_GUARD_SHARE = 0.6
"""A character set held by more of the catalogue's texts than this is no guard worth testing."""


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
    Sets are lower-cased, as the trigger test reads lower-cased text.
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
    import importlib

    return importlib.import_module("re._parser").parse(regex)


def _rule_guards(rule: TextRule, corpus: _Corpus) -> tuple[frozenset[str], ...]:
    """Up to two character sets, rare in the catalogue's prose, that every match of ``rule`` holds."""
    sets = {
        s for s in _required(list(_parse_regex(rule.regex)), corpus) if len(s) <= _MAX_GUARD_SET
    }
    ranked = sorted(sets, key=corpus.set_key)
    return tuple(s for s in ranked if corpus.share(s) <= _MAX_GUARD_SHARE)[:2]


def _any_in(chars: frozenset[str], corpus: _Corpus) -> str:
    tests = [f"{py_str(ch)} in low" for ch in sorted(chars, key=corpus.char_key)]
    return tests[0] if len(tests) == 1 else "(" + " or ".join(tests) + ")"


def _trigger_terms(triggers: list[str], corpus: _Corpus, skip: frozenset[str]) -> list[str]:
    """``t in low`` tests for ``triggers``, each group under a ``memchr`` of its rarest character.

    A trigger that contains another is implied by it and left out. Three or
    more triggers of a group that start with the same two characters are
    searched only when those two are there. A group's character is not
    tested when an enclosing guard (``skip``) already did, or when most of
    the catalogue's texts hold it (the test would nearly always pass).
    """
    unique = sorted(set(triggers))
    kept = [t for t in unique if not any(o != t and o in t for o in unique)]
    groups: dict[str, list[str]] = {}
    for trigger in kept:
        groups.setdefault(min(trigger, key=corpus.char_key), []).append(trigger)
    terms = []
    for guard, members in sorted(groups.items()):
        by_prefix: dict[str, list[str]] = {}
        for trigger in members:
            by_prefix.setdefault(trigger[:2] if len(trigger) > 2 else trigger, []).append(trigger)
        tests = []
        for prefix, cluster in by_prefix.items():
            if len(cluster) >= 3:
                inner = " or ".join(f"{py_str(t)} in low" for t in cluster)
                tests.append(f"({py_str(prefix)} in low and ({inner}))")
            else:
                tests.extend(f"{py_str(t)} in low" for t in cluster)
        body = tests[0] if len(tests) == 1 else "(" + " or ".join(tests) + ")"
        if members == [guard] or guard in skip or corpus.share(frozenset(guard)) > _MAX_GUARD_SHARE:
            terms.append(body)
        else:
            terms.append(f"({py_str(guard)} in low and {body})")
    return terms


def trigger_groups(cat: Catalogue) -> list[str]:
    """The terms of the generated ``has_trigger`` test.

    Each rule can match only text that holds one of its triggers, and one
    character of each set its pattern requires (:func:`_required`). Rules are
    grouped by their guards (the rarest required sets, each a few
    ``memchr``), and their triggers are searched only when the guards pass.
    """
    corpus = _Corpus(cat)
    by_guards: dict[tuple[frozenset[str], ...], list[str]] = {}
    for rule in cat.sanitizer.secrets + cat.sanitizer.injection:
        by_guards.setdefault(_rule_guards(rule, corpus), []).extend(rule.triggers)
    terms = []
    for guards, triggers in sorted(
        by_guards.items(), key=lambda item: [corpus.set_key(s) for s in item[0]]
    ):
        skip = frozenset(next(iter(g)) for g in guards if len(g) == 1)
        inner = _trigger_terms(triggers, corpus, skip)
        if not guards:
            terms.extend(inner)
            continue
        body = inner[0] if len(inner) == 1 else "(" + " or ".join(inner) + ")"
        terms.append("(" + " and ".join([*(_any_in(g, corpus) for g in guards), body]) + ")")
    return terms
