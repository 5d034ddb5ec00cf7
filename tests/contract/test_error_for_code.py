"""``error_for_code`` in both SDKs: the defaults docs/sdk-contract.md section 3 names.

A code in the catalogue takes its own ``cause`` and ``remediation`` when they
are not given; a code the catalogue does not define takes those of the code
its ``status`` falls back to (the ``default`` fallback without a status).
Given texts are sanitized, without a token. Each case is built by the Python
SDK in process and by the TypeScript SDK in one ``node`` process, and each
result is compared with what the catalogue and the contract give.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from conformance_kit import paths
from conformance_kit.reference import Reference
from errcat.cli import load_model
from errcat.model import Catalogue

HERE = Path(__file__).resolve().parent
TS_SCRIPT = HERE / "run_error_for_code.cjs"
UNKNOWN = "mystery_code_v9"


@dataclass(frozen=True)
class Case:
    """One call: ``error_for_code(code, message, cause=..., remediation=..., status=...)``."""

    name: str
    code: str
    message: str = "m"
    cause: str | None = None
    remediation: str | None = None
    status: int | None = None

    def plan(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "cause": self.cause,
            "remediation": self.remediation,
            "status": self.status,
        }


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
)


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_model(paths.CATALOGUE, paths.REPO)


def expected(cat: Catalogue, case: Case) -> dict[str, Any]:
    """The class, code and texts section 3 gives for ``case``."""
    ref = Reference(cat)
    entry = next((c for c in cat.codes if c.code == case.code), None)
    if entry is not None:
        defaults = entry
    elif case.status is None:
        defaults = cat.code(cat.fallback.default)
    else:
        defaults = ref.fallback(case.status)
    out: dict[str, Any] = {
        "class": entry.python_class if entry is not None else cat.base_class,
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
        err: Any = mitos_errors.error_for_code(case.code, case.message, **kwargs)
    except Exception as exc:  # a contract failure, reported as data
        return {"threw": f"{type(exc).__name__}: {exc}"}
    return {
        "class": type(err).__name__,
        "code": err.code,
        "cause": err.cause,
        "remediation": err.remediation,
        "status": err.status,
    }


@pytest.fixture(scope="module")
def typescript_results(catalogue: Catalogue) -> dict[str, dict[str, Any]]:
    if paths.skip_typescript():
        pytest.skip(f"{paths.SKIP_TS_ENV}=1: the TypeScript SDK is left out of this run")
    try:
        node, entry = paths.node_binary(), paths.typescript_entry()
    except paths.TypeScriptUnavailableError as exc:
        pytest.fail(str(exc), pytrace=False)
    proc = subprocess.run(
        [node, str(TS_SCRIPT), str(entry)],
        input=json.dumps([c.plan() for c in CASES]),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, f"{TS_SCRIPT.name} failed: {proc.stderr[-2000:]}"
    records = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert len(records) == len(CASES)
    ts_to_py = {c.ts_class: c.python_class for c in catalogue.codes}
    out = {}
    for case, record in zip(CASES, records, strict=True):
        if isinstance(record.get("class"), str):
            record["class"] = ts_to_py.get(record["class"], record["class"])
        out[case.name] = record
    return out


def _differences(got: dict[str, Any], want: dict[str, Any]) -> list[str]:
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
