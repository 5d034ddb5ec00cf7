"""The trigger pre-filter as TypeScript: the plan of :mod:`errcat.model.prefilter` as generated code.

The Python SDK renders the plan as ``has_trigger`` (``in`` tests, a
``memchr`` each, in C). In TypeScript a search is a call that costs more
than a pass over a short text, so the plan is rendered as one pass and few
searches (codegen/README.md, "The trigger pre-filter", has the figures):

* one pass over the text through a generated table: a bit for each of the
  plan's 29 rarest characters the text holds, and for each of its 29 first
  pairs of adjacent characters (both case-insensitively), and ``NOT_PLAIN``
  for a character that is not ASCII or that step 1 changes (such a text is
  read in lower case);
* from those bits, the rules whose guards and one of whose triggers'
  characters and pairs are all there; only for those, a search of the text
  for the rule's triggers (one case-insensitive regular expression each).

A rule's bit is set exactly when the lower-cased text holds one character of
each of its guards and one of its triggers.
"""

from __future__ import annotations

from dataclasses import dataclass

from errcat.model.catalogue import CharRange
from errcat.model.prefilter import Prefilter, RulePlan
from errcat.render.typescript.syntax import line_comment

MASK_BITS = 31
"""Rules past this many have no bit in the masks (the runtime runs them on every text)."""
TRACKED = 29
"""How many characters, and how many pairs, the pass tracks.

With :data:`NOT_PLAIN` every value stays below 2**30, a small integer to V8
(a table or result past it is stored as floating point, and the pass costs
twice as much)."""
NOT_PLAIN = 1 << TRACKED
"""The bit of a character that is not ASCII or that step 1 changes."""
_PER_LINE = 8
_SYNTAX = frozenset("\\^$.|?*+()[]{}/")
"""The characters a regular expression literal escapes (outside a class)."""


@dataclass(frozen=True)
class TsPrefilter:
    """What ``sanitizer-rules.ts`` prints of the pre-filter."""

    chars: tuple[str, ...]
    """The lines of the first row of ``BITS``: the characters' bits."""
    pairs: tuple[str, ...]
    """The lines of its other two rows: the bits of the pairs each character starts, and ends."""
    not_plain: str
    searches: tuple[str, ...]
    """The lines of ``SEARCHES``: a case-insensitive regular expression literal each."""
    body: tuple[str, ...]
    """The statements of ``rulesOf``, one a line."""
    params: str
    """The parameters of ``rulesOf`` (one the body does not read starts with ``_``)."""


def _hex(n: int) -> str:
    return f"0x{n:x}"


def _lines(entries: list[int]) -> tuple[str, ...]:
    return tuple(
        " ".join(_hex(e) + "," for e in entries[i : i + _PER_LINE])
        for i in range(0, len(entries), _PER_LINE)
    )


def _any(terms: list[str]) -> str:
    return terms[0] if len(terms) == 1 else "(" + " || ".join(terms) + ")"


def _mask(parts: list[str] | str, bits: dict[str, int]) -> int:
    out = 0
    for part in parts:
        out |= bits.get(part, 0)
    return out


def _triggers(rule: RulePlan) -> list[str]:
    return [t for test in rule.triggers for c in test.clusters for t in c.triggers]


def _guard_tests(guards: list[str], chars: dict[str, int]) -> list[str]:
    """The tests of the guards whose characters all have a bit."""
    masks = (_mask(g, chars) for g in guards if all(c in chars for c in g))
    return [f"(seen & {_hex(m)}) !== 0" for m in masks]


def _bit_test(
    rule: RulePlan, guards: list[str], chars: dict[str, int], pairs: dict[str, int]
) -> str:
    """The test of the bits that a rule must pass for its search to run ("": none)."""
    needs = sorted(
        {
            (_mask(t, chars), _mask([t[i : i + 2] for i in range(len(t) - 1)], pairs))
            for t in _triggers(rule)
        }
    )
    # A trigger whose needs hold whenever another's do adds nothing; one without any, everything.
    kept = [
        (c, p)
        for c, p in needs
        if not any((o, q) != (c, p) and o & c == o and q & p == q for o, q in needs)
    ]
    if (0, 0) in kept:
        kept = []
    terms = [
        f"(seen & {_hex(g)}) !== 0"
        for g in (_mask(g, chars) for g in guards if all(c in chars for c in g))
        # A guard that each trigger's characters already meet is left out.
        if not kept or any(c & g == 0 for c, _ in kept)
    ]
    tests = []
    for c, p in kept:
        need = [f"(seen & {_hex(c)}) === {_hex(c)}"] if c else []
        need += [f"(pairs & {_hex(p)}) === {_hex(p)}"] if p else []
        tests.append(" && ".join(need))
    alternatives = [f"({t})" if " && " in t and len(tests) > 1 else t for t in tests]
    if alternatives:
        terms.append(_any(alternatives) if terms else " || ".join(alternatives))
    return " && ".join(terms)


def _regex_char(ch: str) -> str:
    """``ch`` in a regular expression literal read without flag ``u``."""
    if ch in _SYNTAX:
        return "\\" + ch
    if " " < ch < "\x7f":
        return ch
    cp = ord(ch)
    if cp <= 0xFFFF:
        return f"\\u{cp:04x}"
    cp -= 0x10000
    return f"\\u{0xD800 | cp >> 10:04x}\\u{0xDC00 | cp & 0x3FF:04x}"


def regex_literal(alternatives: list[str]) -> str:
    """A case-insensitive regular expression literal matching any of ``alternatives``."""
    return "/" + "|".join("".join(map(_regex_char, a)) for a in alternatives) + "/i"


def _body(
    plan: Prefilter, chars: dict[str, int], pairs: dict[str, int]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The statements of ``rulesOf`` and the lines of ``SEARCHES``."""
    maybe: list[str] = []
    always = 0
    searches: list[str] = []
    regexes: list[str] = []

    def search(alternatives: list[str], comment: str) -> str:
        regexes.append(f"{regex_literal(alternatives)}, // {comment}")
        return f"SEARCHES[{len(regexes) - 1}]!.test(low)"

    for group in plan.groups:
        guards = ["".join(g) for g in group.guards]
        rules = [r for r in group.rules if r.index < MASK_BITS]
        outer = _guard_tests(guards, chars) if len(rules) > 1 else []
        if outer:
            # The group's guards once, then each rule's own test.
            maybe.append(f"if ({' && '.join(outer)}) {{")
        for rule in rules:
            bit = _hex(1 << rule.index)
            test = _bit_test(rule, [] if outer else guards, chars, pairs)
            if test:
                maybe.append(f"{'  ' if outer else ''}if ({test}) maybe |= {bit};")
            elif outer:
                maybe.append(f"  maybe |= {bit};")
            else:
                always |= 1 << rule.index
            name = line_comment(rule.name)
            terms = [
                search(list(g), f"a guard of {name}")
                for g in guards
                if not all(c in chars for c in g)
            ]
            terms.append(search(_triggers(rule), name))
            searches.append(f"if ((maybe & {bit}) !== 0 && {' && '.join(terms)}) rules |= {bit};")
        if outer:
            maybe.append("}")
    body = (
        f"let maybe = {_hex(always)};",
        *maybe,
        "if (maybe === 0) return 0;",
        "let rules = 0;",
        *searches,
        "return rules;",
    )
    return body, tuple(regexes)


def ts_prefilter(
    plan: Prefilter, remove: tuple[CharRange, ...], to_space: tuple[CharRange, ...]
) -> TsPrefilter:
    """The tables, the searches and the body of the TypeScript pre-filter of ``plan``."""
    chars = {ch: 1 << i for i, ch in enumerate(plan.chars[:TRACKED])}
    pairs = {pair: 1 << i for i, pair in enumerate(plan.pairs[:TRACKED])}
    changed = {c for r in remove + to_space for c in range(r.first, min(r.last, 0x7F) + 1)}
    lower = [chr(c).lower() for c in range(0x80)]
    char_bits = [NOT_PLAIN if c in changed else chars.get(lower[c], 0) for c in range(0x80)]
    starts = [_mask([p for p in pairs if p[0] == lower[c]], pairs) for c in range(0x80)]
    ends = [_mask([p for p in pairs if p[1] == lower[c]], pairs) for c in range(0x80)]
    body, regexes = _body(plan, chars, pairs)
    reads = "\n".join(body)
    params = ", ".join(
        f"{name if f'({name} &' in reads else '_' + name}: number" for name in ("seen", "pairs")
    )
    return TsPrefilter(
        _lines(char_bits),
        _lines(starts + ends),
        _hex(NOT_PLAIN),
        regexes,
        body,
        params,
    )
