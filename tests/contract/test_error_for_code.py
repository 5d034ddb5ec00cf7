"""``error_for_code`` and the public constructors in both SDKs (docs/sdk-contract.md section 3).

``error_for_code``: a code in the catalogue takes its own ``cause`` and
``remediation`` when they are not given; a code the catalogue does not define
takes those of the code its ``status`` falls back to (the ``default`` fallback
without a status). A constructor describes its own class: a generated class
its own spec (also for a finer code; any other catalogue code is refused), the
base class the catch-all (no texts, the unknown-code classification), whatever
``code`` and ``status`` it is given. Given texts are sanitized, without a
token. Each case is built by the Python SDK in process and by the TypeScript
SDK in one ``node`` process, and each result is compared with what the
catalogue and the contract give, and with the other SDK's; constructor
arguments are also generated (Hypothesis), in batches of one ``node`` run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ts_cases import run_ts_cases

from conformance_kit import paths
from conformance_kit.reference import Reference
from errcat.cli import load_model
from errcat.model.catalogue import Catalogue

HERE = Path(__file__).resolve().parent
TS_SCRIPT = HERE / "run_error_for_code.cjs"
UNKNOWN = "mystery_code_v9"


@dataclass(frozen=True)
class Case:
    """One call: ``error_for_code(code, message, cause=..., remediation=..., status=...)``, or
    (``via`` ``"constructor"``) the constructor of the class of ``cls`` (``None``: the base class)."""

    name: str
    code: str | None
    message: str = "m"
    cause: str | None = None
    remediation: str | None = None
    status: int | None = None
    via: str = "error_for_code"
    cls: str | None = None

    def plan(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "cause": self.cause,
            "remediation": self.remediation,
            "status": self.status,
            "via": self.via,
            "class": self.cls,
        }


def new(name: str, cls: str | None, code: str | None, **texts: Any) -> Case:
    """A constructor call."""
    return Case(name, code, via="constructor", cls=cls, **texts)


CASES = (
    Case("known/no-status", "not_found"),
    Case("known/other-status", "not_found", status=503),
    Case("known/empty-texts", "not_found", cause="", remediation="", status=404),
    Case("known/given-texts", "not_found", cause="gone", remediation="look elsewhere"),
    Case(
        "known/given-texts-sanitized",
        "internal",
        cause="a\u200bb\nc <|im_start|>",
        remediation="Bearer abcdefghij then \u202eretry",
    ),
    Case("unknown/no-status", UNKNOWN),
    Case("unknown/exact-status", UNKNOWN, status=503),
    Case("unknown/client-class", UNKNOWN, status=418),
    Case("unknown/server-class", UNKNOWN, status=599),
    Case("unknown/default-status", UNKNOWN, status=200),
    Case("unknown/empty-texts", UNKNOWN, cause="", remediation="", status=429),
    Case("unknown/given-cause", UNKNOWN, cause="password=hunter2 leaked", status=502),
    new("base/catalogue-code", None, "rate_limited", status=429),
    new("base/unknown-code", None, UNKNOWN, status=503),
    new("base/hidden-catalogue-code", None, "rate\u200b_limited", status=429),
    new("base/empty-code", None, "", status=404),
    new("base/code-empty-once-sanitized", None, "\u200b\u2066"),
    new("base/given-texts", None, "not_found", message="", cause="gone", remediation="\u202eretry"),
    new("class/own", "rate_limited", None, message="", status=503),
    new("class/own-given", "rate_limited", "rate_limited", cause="slow", status=429),
    new("class/finer", "rate_limited", "rate_limited_burst", message=""),
    new("class/other-catalogue-code", "rate_limited", "not_found"),
    new("class/own-hidden", "rate_limited", "rate_limited\u200b"),
    new("class/empty-once-sanitized", "not_found", "\u200b"),
)


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_model(paths.CATALOGUE, paths.REPO)


def expected_new(cat: Catalogue, case: Case) -> dict[str, Any] | None:
    """What a constructor gives (its class's texts and classification), or ``None`` when it refuses."""
    ref = Reference(cat)
    entry = cat.code(case.cls) if case.cls is not None else None
    if entry is not None and case.code in (None, entry.code):
        code = entry.code
    else:
        code = ref.sanitize(case.code or "")
        if entry is not None and (not code or any(c.code == code for c in cat.codes)):
            return None
    out: dict[str, Any] = {**ref.classify(entry), "code": code, "status": case.status}
    del out["http_status"], out["grpc_status"]
    for name in ("message", "cause", "remediation"):
        given = ref.sanitize(getattr(case, name) or "")
        out[name] = given or (getattr(entry, name) if entry is not None else "")
    return out


def expected(cat: Catalogue, case: Case) -> dict[str, Any] | None:
    """The class, code and texts section 3 gives for ``case`` (``None``: the call is refused)."""
    if case.via == "constructor":
        return expected_new(cat, case)
    assert case.code is not None
    ref = Reference(cat)
    entry = next((c for c in cat.codes if c.code == case.code), None)
    if entry is not None:
        defaults = entry
    elif case.status is None:
        defaults = cat.code(cat.fallback.default)
    else:
        defaults = ref.fallback(case.status)
    out: dict[str, Any] = {
        "class": entry.class_names["python"] if entry is not None else cat.base_class,
        "code": case.code,
        "status": case.status,
    }
    for name in ("cause", "remediation"):
        given = getattr(case, name)
        out[name] = ref.sanitize(given) if given else getattr(defaults, name)
    return out


def _python(case: Case) -> dict[str, Any]:
    import mitos_errors

    kwargs: dict[str, Any] = {}
    if case.cause is not None:
        kwargs["cause"] = case.cause
    if case.remediation is not None:
        kwargs["remediation"] = case.remediation
    if case.status is not None:
        kwargs["status"] = case.status
    try:
        if case.via == "constructor":
            cls = mitos_errors.AgentRunError if case.cls is None else mitos_errors.lookup(case.cls)
            err: Any = cls(case.message, case.code, **kwargs)
        else:
            assert case.code is not None
            err = mitos_errors.error_for_code(case.code, case.message, **kwargs)
    except Exception as exc:  # a contract failure, reported as data
        return {"threw": f"{type(exc).__name__}: {exc}"}
    shown = err.to_dict()
    for name in ("type", "context", "request_id", "retry_after_ms"):
        del shown[name]
    return {"class": type(err).__name__, **shown}


@pytest.fixture(scope="module")
def typescript_results(catalogue: Catalogue) -> dict[str, dict[str, Any]]:
    return {case.name: got for case, got in zip(CASES, _typescript(catalogue, CASES), strict=True)}


def _typescript(catalogue: Catalogue, cases: Sequence[Case]) -> list[dict[str, Any]]:
    """Each case built by the TypeScript SDK, in one ``node`` process; class names as Python's."""
    records = run_ts_cases(TS_SCRIPT, [c.plan() for c in cases])
    ts_to_py = {c.class_names["typescript"]: c.class_names["python"] for c in catalogue.codes}
    for record in records:
        if isinstance(record.get("class"), str):
            record["class"] = ts_to_py.get(record["class"], record["class"])
    return records


def _differences(got: dict[str, Any], want: dict[str, Any] | None) -> list[str]:
    if want is None:
        return [] if "threw" in got else [f"built {got}, expected the call to be refused"]
    if "threw" in got:
        return [f"raised {got['threw']}"]
    return [
        f"{name} is {got.get(name, '<missing>')!r}, expected {value!r}"
        for name, value in want.items()
        if got.get(name, "<missing>") != value
    ]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_python_error_for_code(case: Case, catalogue: Catalogue) -> None:
    found = _differences(_python(case), expected(catalogue, case))
    assert not found, f"python error_for_code, case {case.name}: " + "; ".join(found)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_typescript_error_for_code(
    case: Case, catalogue: Catalogue, typescript_results: dict[str, dict[str, Any]]
) -> None:
    found = _differences(typescript_results[case.name], expected(catalogue, case))
    assert not found, f"typescript errorForCode, case {case.name}: " + "; ".join(found)


# Generated constructor calls: every class, codes known, unknown, hidden or hostile, any status.
_codes = st.sampled_from(
    ["rate_limited", "not_found", UNKNOWN, "rate_limited_burst", "", "__proto__"]
)
_code = (
    _codes
    | _codes.map(lambda c: f"\u200b{c}\u2066")
    | st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
)
_text = (
    st.none()
    | st.just("")
    | st.text(st.characters(exclude_categories=["Cs"]), max_size=20)
    | st.sampled_from(["Bearer abcdefghij", "<|im_start|>x"])
)


@st.composite
def _calls(draw: st.DrawFn, cat: Catalogue) -> list[Case]:
    cases = []
    for i in range(40):
        cls = draw(st.none() | st.sampled_from([c.code for c in cat.codes]))
        code = draw(_code if cls is None else st.none() | st.just(cls) | _code)
        texts = {name: draw(_text) for name in ("cause", "remediation")}
        message = draw(_text) or ""
        status = draw(st.none() | st.integers(100, 599))
        cases.append(new(f"generated/{i}", cls, code, message=message, status=status, **texts))
    return cases


@settings(max_examples=4, deadline=None)
@given(st.data())
def test_generated_constructor_calls_agree_with_the_rule_in_both_sdks(data: st.DataObject) -> None:
    cat = load_model(paths.CATALOGUE, paths.REPO)
    cases = data.draw(_calls(cat))
    for case, ts in zip(cases, _typescript(cat, cases), strict=True):
        py, want = _python(case), expected(cat, case)
        found = [f"python: {d}" for d in _differences(py, want)]
        found += [f"typescript: {d}" for d in _differences(ts, want)]
        if want is not None:
            found += [
                f"{k}: python {py.get(k)!r}, typescript {ts.get(k)!r}"
                for k in py
                if py.get(k) != ts.get(k)
            ]
        assert not found, f"{case}: " + "; ".join(found)
