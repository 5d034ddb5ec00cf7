"""Judge one normalized SDK result against its vector and the contract.

:func:`problems` returns every way a result misses, as short sentences; an
empty list is a pass. Besides the vector's own ``expect`` and ``invariants``,
every result is held to the checks the contract makes of every error:

- it is an instance of the base class, with the vector's status;
- its class and classification follow the catalogue entry of its code, or
  the unknown-code catch-all (section 1, step 7);
- every text field and context key or string is at most ``text_max_chars``
  code points and holds no ``remove`` or ``to_space`` character (section 2);
- every context key is one that sanitizing leaves as it is (a key that
  sanitizing changes is dropped, section 1 step 6);
- sanitizing any server-given text again changes nothing (idempotence), when
  the token has none of the marker characters; for any other token, the SDK's ``sanitize_text`` of the
  text gives what the contract's algorithm gives.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from errcat.model.catalogue import Catalogue
from testkit.record import texts_of
from testkit.reference import Reference
from testkit.reference_calls import answer
from testkit.vectors import Vector, expand_text

Json = Any
FAST_MS = 1000
"""The ``fast`` invariant: the most one in-process call may take (a linear scan takes a few ms)."""


@cache
def _catalogue_texts(cat: Catalogue) -> frozenset[str]:
    return frozenset(text for c in cat.codes for text in (c.message, c.cause, c.remediation))


def idempotence_promised(cat: Catalogue, token: str | None) -> bool:
    """True when section 2 promises ``sanitize(sanitize(x, t), t) == sanitize(x, t)``.

    It does for every token with none of the characters of ``redaction``,
    ``filtered`` and ``truncation_marker`` (no token at all included): a token
    such as ``D]]zz`` can be found again across the end of a redaction that the
    first pass wrote.
    """
    if not token:
        return True
    san = cat.sanitizer
    marker_chars = set(san.redaction + san.filtered + san.truncation_marker)
    return not marker_chars & set(token)


def _short(value: Json, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"…({len(text)} chars)"


def _versus(got: str, want: str) -> str:
    """Two texts around the first code point where they differ."""
    at = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), None)
    if at is None:
        at = min(len(got), len(want))
    start = max(0, at - 30)
    return (
        f"differ at code point {at} (lengths {len(got)} and {len(want)}):"
        f" {got[start : at + 30]!r} vs {want[start : at + 30]!r}"
    )


def _label(where: str) -> str:
    return where if len(where) <= 60 else where[:57] + "..."


def _check_expect(vector: Vector, result: dict[str, Json], cat: Catalogue) -> list[str]:
    problems = []
    for name, want in vector.expect.items():
        got = result.get(name, "<missing>")
        if name in ("class", "refused"):
            continue
        if name in ("code", "message", "cause", "remediation", "request_id"):
            want = expand_text(want)
        if name == "context":
            want = {k: expand_text(v) for k, v in want.items()}
            if got != want or not isinstance(got, dict):
                problems.append(f"context is {_short(got, 400)}, expected {_short(want, 400)}")
                continue
            for key, value in want.items():
                if type(got[key]) is not type(value):
                    problems.append(
                        f"context[{key!r}] is {_short(got[key])} ({type(got[key]).__name__}),"
                        f" expected {_short(value)} ({type(value).__name__})"
                    )
            continue
        if name == "recovery":
            if not isinstance(got, dict):
                problems.append(f"recovery is {_short(got)}, expected {_short(want)}")
                continue
            for key, value in want.items():
                if got.get(key) != value:
                    problems.append(f"recovery.{key} is {_short(got.get(key))}, expected {value!r}")
            continue
        if isinstance(got, str) and isinstance(want, str) and got != want:
            problems.append(f"{name}: got and expected {_versus(got, want)}")
        elif got != want or type(got) is not type(want):
            problems.append(f"{name} is {_short(got)}, expected {_short(want)}")
    want_class = vector.expect.get("class")
    if want_class is not None and result.get("class") != want_class:
        problems.append(f"class is {result.get('class')!r}, expected {want_class!r}")
    return problems


def _check_classification(vector: Vector, result: dict[str, Json], cat: Catalogue) -> list[str]:
    """The base class, the status, and the classification of the code."""
    problems = []
    if result.get("base_instance") is not True:
        problems.append(f"the error is not an instance of {cat.base_class}")
    if result.get("status") != vector.status:
        problems.append(f"status is {result.get('status')!r}, expected {vector.status}")
    code = result.get("code")
    entry = next((c for c in cat.codes if c.code == code), None)
    if entry is None:
        # An unknown code is classified as the class it was raised as (a code of its refines chain).
        shown = result.get("class")
        entry = next((c for c in cat.codes if shown in c.class_names.values()), None)
    classified = Reference(cat).classify(entry)
    for name, want in classified.items():
        got = result.get(name, "<missing>")
        if name == "recovery":
            got = (
                {k: v for k, v in (got or {}).items() if k in want}
                if isinstance(got, dict)
                else got
            )
        if got != want:
            problems.append(f"{name} is {_short(got)}, but code {code!r} gives {_short(want)}")
    return problems


def _check_texts(vector: Vector, result: dict[str, Json], cat: Catalogue) -> list[str]:
    """Every text within the cap and cleaned; every context key one sanitizing keeps."""
    problems = []
    cap = cat.limits.text_max_chars
    san = cat.sanitizer
    for where, text in texts_of(result):
        if len(text) > cap:
            problems.append(f"{_label(where)} is {len(text)} code points long, over {cap}")
        bad = sorted(
            {
                f"U+{ord(ch):04X}"
                for ch in text
                if any(r.first <= ord(ch) <= r.last for r in san.remove + san.to_space)
            }
        )
        if bad:
            problems.append(f"{_label(where)} still holds {', '.join(bad[:5])}")
    ref = Reference(cat)
    context = result.get("context")
    if isinstance(context, dict):
        for key in context:
            if not isinstance(key, str) or not ref.key_kept(key, vector.token):
                problems.append(
                    f"context key {_short(key)} is empty or changed by sanitizing,"
                    " so it should have been dropped"
                )
    return problems


def _check_resanitized(vector: Vector, result: dict[str, Json], cat: Catalogue) -> list[str]:
    """Sanitizing a server-given text again: unchanged, or what the contract's algorithm gives."""
    problems = []
    ref = Reference(cat)
    resanitized = result.get("resanitized")
    if isinstance(resanitized, dict):
        trusted = _catalogue_texts(cat)
        promised = idempotence_promised(cat, vector.token)
        for where, text in texts_of(result):
            again = resanitized.get(where)
            if again is None or text in trusted:
                continue
            if promised:
                if again != text:
                    problems.append(
                        f"sanitizing {_label(where)} again changes it (not idempotent):"
                        f" {_versus(text, again)}"
                    )
                continue
            want = ref.sanitize(text, vector.token)
            if again != want:
                problems.append(
                    f"sanitize_text of {_label(where)} (a token with marker characters, so"
                    f" idempotence is not promised) is not the contract's: {_versus(again, want)}"
                )
    return problems


def _check_always(vector: Vector, result: dict[str, Json], cat: Catalogue) -> list[str]:
    """The checks the contract makes of every error (the module docstring lists them)."""
    return [
        *_check_classification(vector, result, cat),
        *_check_texts(vector, result, cat),
        *_check_resanitized(vector, result, cat),
    ]


def _check_invariants(vector: Vector, result: dict[str, Json], cat: Catalogue) -> list[str]:
    problems = []
    ref = Reference(cat)
    if "catalogue_text" in vector.invariants:
        code = result.get("code")
        entry = next((c for c in cat.codes if c.code == code), None) or ref.fallback(vector.status)
        for name in ("message", "cause", "remediation"):
            if result.get(name) != getattr(entry, name):
                problems.append(
                    f"{name} is {_short(result.get(name))}, expected the catalogue text of"
                    f" {entry.code}"
                )
    if "fast" in vector.invariants:
        elapsed = result.get("elapsed_ms")
        if isinstance(elapsed, int | float) and elapsed > FAST_MS:
            problems.append(
                f"building the error took {elapsed:.0f} ms, over {FAST_MS} ms: a pattern scans"
                " a long run once per position"
            )
    if "token_absent" in vector.invariants and vector.token:
        forms = ref.token_forms(vector.token)
        haystacks = [(where, text) for where, text in texts_of(result)]
        for name, form in (result.get("forms") or {}).items():
            haystacks.append((f"its {name} form", form))
        for where, text in haystacks:
            for form in forms:
                if form in text:
                    problems.append(f"{_label(where)} holds the token form {form!r}")
    return problems


def _check_call(vector: Vector, result: dict[str, Json], cat: Catalogue) -> list[str]:
    """A call vector: refused when the contract refuses it, else every field the reference gives."""
    assert vector.call is not None
    want = answer(Reference(cat), vector.call)
    if want is None:
        if result.get("threw"):
            return []
        return [
            f"the call gave {result.get('class')} {result.get('code')!r}; the contract refuses it"
        ]
    if result.get("threw"):
        return [f"the SDK raised: {result['threw']}"]
    found = _check_expect(vector, result, cat)
    for name, value in want.items():
        got = result.get(name, "<missing>")
        if got != value or type(got) is not type(value):
            found.append(f"{name} is {_short(got)}, but the contract gives {_short(value)}")
    if result.get("base_instance") is not True:
        found.append(f"the error is not an instance of {cat.base_class}")
    return found + _check_texts(vector, result, cat) + _check_resanitized(vector, result, cat)


def problems(vector: Vector, result: dict[str, Json], cat: Catalogue) -> list[str]:
    """Every way ``result`` misses ``vector``; empty when it conforms.

    ``result`` is a record (:mod:`testkit.record`): Python field and
    class names whichever SDK gave it.
    """
    if vector.call is not None:
        return _check_call(vector, result, cat)
    if result.get("threw"):
        return [f"the SDK raised instead of returning an error: {result['threw']}"]
    return (
        _check_expect(vector, result, cat)
        + _check_invariants(vector, result, cat)
        + _check_always(vector, result, cat)
    )
