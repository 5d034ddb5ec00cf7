"""What the fuzz session checks on each case: the two SDKs agree, and each holds the contract's invariants.

:func:`findings` returns a list of short labels (``"differ:cause"``,
``"python:leak:message"``, ``"typescript:removed-char:context"``...) with
a detail each; an empty list means the case passed.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from testkit.fuzz.cases import Case
from testkit.fuzz.runners import Result
from testkit.fuzz.texts import Pool, token_forms
from testkit.record import FIELDS, TEXT_FIELDS

Finding = tuple[str, str]


def strict(value: Any) -> Any:
    """A value in a form where ``==`` tells types apart (``True`` is not ``1``) and numbers compare as doubles."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return (type(value).__name__, value)
    if isinstance(value, int | float):
        number = float(value)
        return ("number", 0.0 if number == 0 else number if math.isfinite(number) else repr(number))
    if isinstance(value, dict):
        return ("object", tuple(sorted((k, strict(v)) for k, v in value.items())))
    if isinstance(value, list):
        return ("array", tuple(strict(v) for v in value))
    return ("other", repr(value))


def _when(result: Result) -> tuple[float, float] | None:
    """The instants the delay of ``result`` may point at, given the clock around the call."""
    delay = result.get("retry_after_ms")
    if type(delay) is not int:
        return None
    low = delay + result["before"] if delay > 0 else -math.inf
    return (low, delay + result["after"] + 1)


def same_delay(python: Result, typescript: Result) -> bool:
    """Whether both delays are equal, or point at the same instant measured from each SDK's own now."""
    p, t = python.get("retry_after_ms"), typescript.get("retry_after_ms")
    if strict(p) == strict(t):
        return True
    a, b = _when(python), _when(typescript)
    return a is not None and b is not None and a[0] <= b[1] and b[0] <= a[1]


@dataclass(frozen=True)
class Checker:
    """The checks, with what they need from the catalogue computed once."""

    pool: Pool

    @cached_property
    def trusted(self) -> frozenset[str]:
        """Catalogue texts: not sanitized, so a short token may occur in them."""
        cat = self.pool.cat
        out = {cat.unknown.recovery.guidance}
        for c in cat.codes:
            out |= {c.code, c.message, c.cause, c.remediation, c.recovery.guidance}
        return frozenset(out)

    @cached_property
    def corpus(self) -> str:
        """Every catalogue text and the source paths a stack names, for the strong-token test."""
        return "\n".join(sorted(self.trusted)) + "/work/ts-sdk/dist/cjs/esm/node:internal/"

    @cached_property
    def _changed(self) -> re.Pattern[str]:
        """One character that stage 1 deletes or turns into a space."""
        ranges = self.pool.remove + self.pool.to_space
        return re.compile(
            "[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges) + "]"
        )

    @cached_property
    def _spaced(self) -> frozenset[int]:
        return frozenset(c for a, b in self.pool.to_space for c in range(a, b + 1))

    def clean_token(self, token: str) -> str:
        """Stage 1 applied to the token."""
        changed, spaced = self.pool.removed_or_spaced, self._spaced
        return "".join(
            " " if ord(c) in spaced else c
            for c in token
            if ord(c) not in changed or ord(c) in spaced
        )

    def forms(self, token: str | None) -> list[str]:
        """The token forms no field may show (empty ones and those inside a marker skipped)."""
        if not token:
            return []
        markers = self.pool.markers()
        found = []
        for form in token_forms(self.clean_token(token)):
            if form and form not in found and not any(form in m for m in markers):
                found.append(form)
        return found

    def _texts(self, result: Result) -> list[tuple[str, str]]:
        out = [(name, result[name]) for name in TEXT_FIELDS if isinstance(result.get(name), str)]
        for key, value in (result.get("context") or {}).items():
            out.append(("context key", key))
            if isinstance(value, str):
                out.append(("context", value))
        return out

    def invariants(self, side: str, case: Case, result: Result) -> list[Finding]:
        """Never raises; no token form, no removed character, nothing past the cap; the forms agree with the fields."""
        if "threw" in result:
            return [(f"{side}:threw", result["threw"][-2000:])]
        found: list[Finding] = []
        forms = self.forms(case["token"])
        changed = self._changed
        for where, value in self._texts(result):
            if len(value) > self.pool.cap:
                found.append((f"{side}:over-cap:{where}", f"{len(value)} code points"))
            bad = sorted({f"U+{ord(c):04X}" for c in changed.findall(value)})
            if bad:
                found.append((f"{side}:removed-char:{where}", " ".join(bad[:8])))
            if value not in self.trusted:
                for form in forms:
                    if form in value:
                        found.append((f"{side}:leak:{where}", f"form {form!r} in {value[:200]!r}"))
        strong = [f for f in forms if len(f) >= 8 and f not in self.corpus]
        for name in ("str", "json", "repr", "stack"):
            shown = result["forms"].get(name)
            if isinstance(shown, str) and any(f in shown for f in strong):
                found.append((f"{side}:leak:{name}", shown[:200]))
        found += self._forms_agree(side, result)
        return found

    def _forms_agree(self, side: str, result: Result) -> list[Finding]:
        """``str`` is built from the fields the way the SDK documents, and the JSON form holds the fields."""
        if side == "python":
            want = f"[{result['code']}] {result['message']}"
            want += f" | cause: {result['cause']}" if result["cause"] else ""
            want += f" | remediation: {result['remediation']}" if result["remediation"] else ""
        else:
            want = (
                f"{result['class']}: {result['message']}" if result["message"] else result["class"]
            )
        found = (
            []
            if result["forms"]["str"] == want
            else [(f"{side}:str", f"{result['forms']['str'][:200]!r} != {want[:200]!r}")]
        )
        try:
            data = json.loads(result["forms"]["json"])
        except ValueError as exc:
            return [*found, (f"{side}:json", str(exc))]
        fields = {**{k: result[k] for k in FIELDS if k in data}, "type": result["class"]}
        if strict({k: data.get(k) for k in fields}) != strict(fields):
            found.append((f"{side}:json", "the JSON form differs from the fields"))
        return found

    def findings(self, case: Case, python: Result, typescript: Result) -> list[Finding]:
        """Every difference between the SDKs and every broken invariant, for one case."""
        found = self.invariants("python", case, python) + self.invariants(
            "typescript", case, typescript
        )
        if "threw" in python or "threw" in typescript:
            return found
        for name in FIELDS:
            if name == "retry_after_ms":
                if not same_delay(python, typescript):
                    found.append(
                        (
                            f"differ:{name}",
                            f"python {python[name]!r}, typescript {typescript[name]!r}",
                        )
                    )
            elif strict(python.get(name)) != strict(typescript.get(name)):
                found.append(
                    (
                        f"differ:{name}",
                        f"python {_short(python.get(name))}, typescript {_short(typescript.get(name))}",
                    )
                )
        return found


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= limit else text[:limit] + "…"
