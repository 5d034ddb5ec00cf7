"""Real transport failures on 127.0.0.1 give the same typed error in both SDKs.

Each case starts a misbehaving server (or none: a closed port), sends one
request through the Python SDK's ``ErrorTransport`` (sync and async httpx)
and through the TypeScript SDK's ``withTypedErrors(fetch)`` (one ``node``
process for all cases), and checks that all three raise the expected code,
with no status, the original failure chained, and the token nowhere.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

import mitos_errors
from testkit import paths, testees
from testkit import transport_servers as servers
from testkit.record import FIELDS

HERE = Path(__file__).resolve().parent

TOKEN = "tok-Transport-5ecret-7f3a9c"
TIMEOUT_S = 1.0
UPLOAD_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class Case:
    """One failure: how the server misbehaves, what the client sends, the code both SDKs must give."""

    name: str
    code: str
    scheme: str = "http"
    method: str = "GET"
    body_bytes: int = 0
    abort_after_ms: int | None = None
    python: bool = True  # False: a failure Python callers do not get as an error (see the README)
    typescript: bool = True  # False: fetch cannot make this request (HTTP/2 without TLS)
    http2: bool = False  # Python sends with HTTP/2 prior knowledge


CASES = [
    Case("closed_port", "connection_failed"),
    Case("reset_mid_body", "connection_lost"),
    Case("stall", "response_timeout"),
    Case("close_during_upload", "connection_lost", method="POST", body_bytes=UPLOAD_BYTES),
    Case("tls_bad_cert", "connection_failed", scheme="https"),
    Case("unavailable_page", "unavailable"),
    # A caller's own abort: asyncio cancellation stays CancelledError in Python.
    Case("caller_abort", "canceled", abort_after_ms=200, python=False),
    # Node's fetch speaks HTTP/2 only over TLS and only when asked through undici's own Agent.
    Case("h2_stream_reset", "connection_lost", http2=True, typescript=False),
]

HANDLERS = {
    "reset_mid_body": servers.reset_mid_body,
    "stall": servers.stall,
    "caller_abort": servers.stall,
    "close_during_upload": servers.close_during_upload,
    "tls_bad_cert": servers.ok_json,
    "unavailable_page": servers.unavailable_page,
    "h2_stream_reset": servers.h2_reset_mid_body,
}


@pytest.fixture(scope="module")
def urls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """Every case's URL, its server running for the whole module."""
    tls = servers.self_signed_context(tmp_path_factory.mktemp("tls"))
    with ExitStack() as stack:
        out = {}
        for case in CASES:
            handler = HANDLERS.get(case.name)
            if handler is None:
                port = servers.closed_port()
            else:
                port = stack.enter_context(
                    servers.serving(handler, tls if case.scheme == "https" else None)
                )
            out[case.name] = f"{case.scheme}://127.0.0.1:{port}/v1/sandboxes/sb-7/exec"
        yield out


def _request(case: Case, url: str, **extra: Any) -> dict[str, Any]:
    """The testee request that sends ``case`` to ``url`` through the SDK's typed transport."""
    return {
        "id": case.name,
        "op": "fetch",
        "url": url,
        "method": case.method,
        "body_bytes": case.body_bytes,
        "timeout_ms": int(TIMEOUT_S * 1000),
        "abort_after_ms": case.abort_after_ms,
        "token": TOKEN,
        "http2": case.http2,
        **extra,
    }


@pytest.fixture(scope="module")
def answers(urls: dict[str, str]) -> dict[str, dict[str, dict[str, Any]]]:
    """Every case sent once by each SDK: Python sync and async in process, TypeScript in one node process."""
    python = [_request(c, urls[c.name]) for c in CASES if c.python]
    out = {"python": testees.answers_by_id(testees.run("python", python))}
    python_async = [_request(c, urls[c.name], **{"async": True}) for c in CASES if c.python]
    out["python async"] = testees.answers_by_id(testees.run("python", python_async))
    if not paths.skip_typescript():
        typescript = [_request(c, urls[c.name]) for c in CASES if c.typescript]
        out["typescript"] = testees.answers_by_id(
            testees.run("typescript", typescript, concurrency=len(typescript))
        )
    return out


def _check(case: Case, got: dict[str, Any], who: str) -> None:
    assert "none" not in got, f"{who} {case.name}: the request succeeded"
    assert "threw" not in got, f"{who} {case.name}: an untyped error: {got['threw']}"
    assert got["code"] == case.code, f"{who} {case.name}: {got}"
    assert got["class"] == type(mitos_errors.lookup(case.code)("", case.code)).__name__
    shown = json.dumps({k: got[k] for k in FIELDS}) + json.dumps(got["forms"]["json"])
    assert TOKEN not in shown, f"{who} {case.name} shows the token: {got}"
    if case.code == "unavailable":
        assert got["status"] == 503
        return
    assert got["status"] is None
    assert got["chained"], f"{who} {case.name}: the original failure is not chained"
    assert got["is_cancelled"] is (case.code == "canceled")
    assert got["side_effects"] == (
        "none_expected" if case.code == "connection_failed" else got["side_effects"]
    )


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_python_sync(case: Case, answers: dict[str, dict[str, dict[str, Any]]]) -> None:
    if not case.python:
        pytest.skip("not an error in Python: cancellation stays CancelledError / KeyboardInterrupt")
    _check(case, answers["python"][case.name], "python")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_python_async(case: Case, answers: dict[str, dict[str, dict[str, Any]]]) -> None:
    if not case.python:
        pytest.skip("not an error in Python: cancellation stays CancelledError")
    _check(case, answers["python async"][case.name], "python async")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_typescript(case: Case, answers: dict[str, dict[str, dict[str, Any]]]) -> None:
    if not case.typescript:
        pytest.skip("fetch cannot send this request: HTTP/2 without TLS")
    testees.require_typescript()
    _check(case, answers["typescript"][case.name], "typescript")


def test_python_cancellation_passes_through(urls: dict[str, str]) -> None:
    """A cancelled task gets CancelledError, not a typed error, so asyncio's own machinery works."""

    async def main() -> None:
        async with httpx.AsyncClient(
            transport=mitos_errors.AsyncErrorTransport(), timeout=TIMEOUT_S * 3
        ) as client:
            task = asyncio.ensure_future(client.get(urls["caller_abort"]))
            await asyncio.sleep(0.2)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

    asyncio.run(main())
