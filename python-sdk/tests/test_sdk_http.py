"""httpx integration: per-response helpers, bounded reads of streams, client hooks."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

import mitos_errors
from mitos_errors import (
    AsyncErrorHook,
    ErrorHook,
    aerror_from_response,
    araise_for_status,
    error_from_response,
    install_error_hook,
    raise_for_status,
)
from mitos_errors._generated import catalogue


def envelope(code: object, **fields: object) -> bytes:
    """An error envelope as bytes."""
    return json.dumps({"error": {"code": code, **fields}}).encode()


CAP = catalogue.ERROR_BODY_MAX_BYTES


def _response(status: int, body: bytes, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, content=body, headers=headers, request=httpx.Request("GET", "https://x/"))


def test_raise_for_status_leaves_2xx_alone_and_raises_typed_errors() -> None:
    raise_for_status(_response(200, b"ok"))
    raise_for_status(_response(204, b""))
    with pytest.raises(mitos_errors.NotFoundError) as info:
        raise_for_status(_response(404, envelope("not_found", cause="sb-1")))
    assert info.value.cause == "sb-1" and info.value.status == 404
    with pytest.raises(mitos_errors.BadGatewayError):
        raise_for_status(_response(502, b"<html>bad gateway</html>"))
    with pytest.raises(mitos_errors.UnexpectedStatusError):
        raise_for_status(_response(302, b""))


def test_error_from_response_reads_headers() -> None:
    resp = _response(429, b"", {"Retry-After": "2", "X-Request-Id": "req-7"})
    err = error_from_response(resp)
    assert type(err) is mitos_errors.RateLimitedError
    assert err.retry_after_ms == 2000 and err.request_id == "req-7"


class _CountingStream(httpx.SyncByteStream):
    def __init__(self, chunk: bytes, count: int) -> None:
        self.chunk, self.count, self.served, self.closed = chunk, count, 0, False

    def __iter__(self) -> Iterator[bytes]:
        for _ in range(self.count):
            self.served += len(self.chunk)
            yield self.chunk

    def close(self) -> None:
        self.closed = True


def test_a_streamed_response_is_read_no_further_than_the_cap() -> None:
    stream = _CountingStream(b"x" * 4096, 50 * 256)  # 50 MB on offer
    resp = httpx.Response(500, stream=stream, request=httpx.Request("GET", "https://x/"))
    err = error_from_response(resp)
    assert type(err) is mitos_errors.InternalError
    assert stream.served <= CAP + 4096
    assert stream.closed


class _AsyncCountingStream(httpx.AsyncByteStream):
    def __init__(self, chunk: bytes, count: int) -> None:
        self.chunk, self.count, self.served = chunk, count, 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for _ in range(self.count):
            self.served += len(self.chunk)
            yield self.chunk


def test_an_async_streamed_response_is_read_no_further_than_the_cap() -> None:
    stream = _AsyncCountingStream(b"y" * 4096, 1000)
    resp = httpx.Response(503, stream=stream, request=httpx.Request("GET", "https://x/"))
    err = asyncio.run(aerror_from_response(resp))
    assert type(err) is mitos_errors.UnavailableError
    assert stream.served <= CAP + 4096


def _app(request: httpx.Request) -> httpx.Response:
    routes = {
        "/ok": (200, b"{}"),
        "/limited": (429, envelope("rate_limited", context={"retry_after_ms": 900})),
        "/gone": (410, envelope("idle_timeout")),
        "/proxy": (502, b"<html>nginx</html>"),
        "/redirect": (302, b""),
    }
    status, body = routes[request.url.path]
    headers = {"Location": "/ok"} if status == 302 else {}
    return httpx.Response(status, content=body, headers=headers)


def test_sync_client_hook_raises_typed_errors_and_follows_redirects() -> None:
    with httpx.Client(
        transport=httpx.MockTransport(_app), base_url="https://api", follow_redirects=True
    ) as client:
        install_error_hook(client, token="tok")
        assert client.get("/ok").status_code == 200
        assert client.get("/redirect").status_code == 200
        with pytest.raises(mitos_errors.RateLimitedError) as info:
            client.get("/limited")
        assert info.value.retry_after_ms == 900
        with pytest.raises(mitos_errors.IdleTimeoutError):
            client.get("/gone")
        with pytest.raises(mitos_errors.BadGatewayError):
            client.get("/proxy")


def test_async_client_hook_raises_typed_errors() -> None:
    async def run() -> None:
        async with httpx.AsyncClient(
            transport=httpx.MockTransport(_app),
            base_url="https://api",
            event_hooks={"response": [AsyncErrorHook(token="tok")]},
        ) as client:
            assert (await client.get("/ok")).status_code == 200
            with pytest.raises(mitos_errors.RateLimitedError):
                await client.get("/limited")
            resp = await client.get("/redirect")
            assert resp.status_code == 302
            with pytest.raises(mitos_errors.IdleTimeoutError):
                await araise_for_status(_response(410, envelope("idle_timeout")))

    asyncio.run(run())


def test_install_picks_the_async_hook_for_an_async_client() -> None:
    client = httpx.AsyncClient()
    install_error_hook(client)
    assert isinstance(client.event_hooks["response"][-1], AsyncErrorHook)
    asyncio.run(client.aclose())


def test_hooks_hide_their_token() -> None:
    hook = ErrorHook(token="sekrit-token-value")
    assert "sekrit" not in repr(hook)
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(hook)


def test_json_body_of_a_real_shape() -> None:
    body = json.dumps(
        {
            "error": {
                "code": "budget_exhausted",
                "message": "sandbox capability budget exhausted",
                "cause": "fork refused: forks budget spent",
                "remediation": "Ask for more.",
                "context": {"sandbox": "sb-7", "dimension": "forks", "remaining": 0},
                "recovery": {"action": "inspect_and_escalate"},
            }
        }
    ).encode()
    err = error_from_response(_response(403, body))
    assert type(err) is mitos_errors.BudgetExhaustedError
    assert dict(err.context) == {"sandbox": "sb-7", "dimension": "forks", "remaining": 0}


def test_headers_of_httpx_read_like_the_same_pairs() -> None:
    from mitos_errors._headers import pick_headers

    samples: list[list[tuple[str, str]] | list[tuple[bytes, bytes]]] = [
        [],
        [("content-type", "application/json")],
        [("X-Request-Id", "a"), ("x-request-id", "b"), ("Retry-After", "3")],
        [("retry-after-ms", "10"), ("RETRY-AFTER-MS", "20"), ("x-other", "x")],
        [(b"x-request-id", b"caf\xe9")],  # not UTF-8: read as Latin-1, as fetch does
    ]
    for pairs in samples:
        headers = httpx.Headers(pairs)
        assert pick_headers(headers) == pick_headers(list(headers.multi_items()))
    assert pick_headers(httpx.Headers([("X-Request-Id", "a"), ("x-request-id", "b")])) == ["a, b", None, None]
