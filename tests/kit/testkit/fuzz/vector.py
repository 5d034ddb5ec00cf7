"""A shrunk case as a conformance vector (tests/conformance/vector.schema.json), ready to paste.

The expectation is the contract's reference implementation
(tests/conformance/testkit/reference.py) on the case, never an SDK.
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta
from typing import Any

from testkit.fuzz.cases import Case, body_of
from testkit.reference import Reference

EXPECTED = (
    "class", "code", "status", "message", "cause", "remediation", "context", "retryable",
    "retry_after_ms", "request_id", "is_auth_failure", "is_cancelled", "recovery",
    "side_effects", "http_status", "grpc_status",
)  # fmt: skip


def _body(case: Case) -> dict[str, Any]:
    body = body_of(case)
    if isinstance(body, str):
        return {"text": body}
    try:
        return {"parts": [body.decode("utf-8")], "as": "bytes"}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(body).decode("ascii")}


def expectation(ref: Reference, case: Case) -> tuple[dict[str, Any], str]:
    """What the reference says the case gives, and a note on anything left out of it."""

    def run(now: datetime) -> dict[str, Any]:
        got = ref.error_from_body(
            body_of(case),
            status=case["status"],
            headers=case["headers"],
            token=case["token"],
            now=now,
        )
        return {k: got[k] for k in EXPECTED if k in got}

    now = datetime.now(UTC)
    expect = run(now)
    if run(now + timedelta(days=1)).get("retry_after_ms") != expect.get("retry_after_ms"):
        expect.pop("retry_after_ms")  # measured from now: each SDK's clock test checks it
        return expect, " The delay is measured from now and left out of expect."
    return expect, ""


def vector(ref: Reference, name: str, case: Case, why: str) -> dict[str, Any]:
    """The vector of ``case``, named ``name``, describing ``why`` it was kept."""
    expect, note = expectation(ref, case)
    return {
        "name": name,
        "description": f"Found by the differential fuzz session: {why}. Expect: the reference implementation.{note}",
        "status": case["status"],
        "headers": dict(case["headers"]),
        "body": _body(case),
        "token": case["token"],
        "transport": "direct",
        "expect": expect,
    }
