"""Every client's unread body goes through one bounded reader (contract sections 1, 2c and 4).

requests, urllib3 and urllib bodies are read raw, one socket read at a time,
and inflated never past the cap; aiohttp's through ``aerror_from_response``
and ``ErrorMiddleware``. Generated bodies in random chunks and codings give
the error of their bytes; a gzip bomb costs no more than the cap; a stalled
socket is cut at the deadline. The clients against the loopback server, for
both SDKs, are tests/conformance/test_clients.py.
"""

from __future__ import annotations

import asyncio
import gzip
import http.client
import itertools
import json
import pickle
import socket
import sys
import time
import tracemalloc
import zlib
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from testkit.sdk_strategies import PROPERTY, hostile_body, statuses, tokens
from testkit.transport_servers import serving

from mitos_errors import (
    ErrorMiddleware,
    QuotaExceededError,
    aerror_from_response,
    error_from_body,
    error_from_response,
)

ENVELOPE = json.dumps(
    {"error": {"code": "quota_exceeded", "message": "over quota", "cause": "the plan"}}
).encode()


def _raw_deflate(body: bytes) -> bytes:
    packer = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return packer.compress(body) + packer.flush()


CODINGS: dict[str, Callable[[bytes], bytes]] = {
    "identity": lambda b: b,
    "gzip": gzip.compress,
    "deflate": zlib.compress,
    "raw-deflate": _raw_deflate,
}


def _urllib3_shaped(status: int, headers: dict[str, str], chunks: list[bytes], closed: list[bool]) -> object:
    """An unread urllib3 ``HTTPResponse`` as the reader sees it: ``read1`` gives ``chunks`` in turn."""
    kind = type("HTTPResponse", (), {"__module__": "urllib3.response"})
    resp = kind()
    pending = list(chunks)

    def read1(amt: int, decode_content: bool) -> bytes:
        assert not decode_content
        if not pending:
            return b""
        chunk = pending.pop(0)
        if len(chunk) > amt:
            pending.insert(0, chunk[amt:])
        return chunk[:amt]

    resp.__dict__.update(
        status=status,
        headers=headers,
        _body=None,
        stream=None,
        read1=read1,
        close=lambda: closed.append(True),
    )
    return resp


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points) if b > a]


@PROPERTY
@given(
    data=st.data(),
    token=st.one_of(st.none(), tokens),
    status=statuses,
    coding=st.sampled_from(sorted(CODINGS)),
    cuts=st.lists(st.integers(0, 10**6), max_size=6),
)
def test_a_raw_body_in_any_chunks_and_coding_gives_the_error_of_its_bytes(
    data: st.DataObject, token: str | None, status: int, coding: str, cuts: list[int]
) -> None:
    body, _ = data.draw(hostile_body(token))
    closed: list[bool] = []
    header = "deflate" if coding == "raw-deflate" else coding
    headers = {"Content-Encoding": header, "X-Request-Id": "req-1"}
    resp = _urllib3_shaped(status, headers, _split(CODINGS[coding](body), cuts), closed)
    got = error_from_response(resp, token)
    want = error_from_body(body, status=status, headers={"X-Request-Id": "req-1"}, token=token)
    assert got.to_dict() == want.to_dict()
    assert closed == [True]


def test_a_gzip_bomb_costs_no_more_than_the_cap() -> None:
    bomb = gzip.compress(b"a" * (64 * 1024 * 1024))  # 64 MB in about 64 KB
    resp = _urllib3_shaped(500, {"Content-Encoding": "gzip"}, [bomb], [])
    tracemalloc.start()
    try:
        started = time.perf_counter()
        err = error_from_response(resp)
        elapsed = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert err.status == 500
    assert peak < 2 * 1024 * 1024 + len(bomb), peak
    assert elapsed < 0.5, elapsed


def _serve(body: bytes, missing: int = 0) -> Callable[[socket.socket], None]:
    """A handler answering 429 with ``body``, promising ``missing`` more bytes that never come."""

    def handler(conn: socket.socket) -> None:
        conn.recv(65536)
        head = (
            f"HTTP/1.1 429 Too Many\r\nContent-Length: {len(body) + missing}\r\nX-Request-Id: req-7\r\n\r\n"
        )
        conn.sendall(head.encode() + body)
        if missing:
            time.sleep(3)

    return handler


def _http_client(port: int) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/")
    return conn.getresponse()


def _urllib3(port: int) -> object:
    urllib3 = pytest.importorskip("urllib3")
    return urllib3.PoolManager(timeout=10, retries=False).request(
        "GET", f"http://127.0.0.1:{port}/", preload_content=False
    )


def _requests(port: int) -> object:
    requests = pytest.importorskip("requests")
    return requests.get(f"http://127.0.0.1:{port}/", stream=True, timeout=10)


@pytest.mark.parametrize(
    "open_", [_http_client, _urllib3, _requests], ids=["http.client", "urllib3", "requests"]
)
def test_a_stalled_body_is_cut_at_the_deadline_whatever_the_clients_own_timeout(
    open_: Callable[[int], object],
) -> None:
    with serving(_serve(ENVELOPE, missing=100)) as port:
        resp = open_(port)
        started = time.monotonic()
        err = error_from_response(resp, body_read_timeout_ms=200)
        elapsed = time.monotonic() - started
    assert type(err) is QuotaExceededError
    assert err.cause.endswith("(the error body was cut short: it did not arrive within 200 ms)")
    assert elapsed < 1.5, elapsed


def test_aiohttp_through_the_middleware_and_aerror_from_response() -> None:
    aiohttp = pytest.importorskip("aiohttp")

    async def run(port: int) -> tuple[object, object]:
        url = f"http://127.0.0.1:{port}/"
        async with aiohttp.ClientSession(middlewares=(ErrorMiddleware(token="tok"),)) as session:
            with pytest.raises(QuotaExceededError) as raised:
                await session.get(url)
        async with aiohttp.ClientSession() as plain, plain.get(url) as resp:
            with pytest.raises(TypeError, match="await aerror_from_response"):
                error_from_response(resp)
            return raised.value, await aerror_from_response(resp)

    with serving(_serve(ENVELOPE)) as port:
        via_middleware, via_call = asyncio.run(run(port))
    for err in (via_middleware, via_call):
        assert type(err) is QuotaExceededError and err.request_id == "req-7"  # type: ignore[attr-defined]
    tb = via_middleware.__traceback__  # type: ignore[attr-defined]
    while tb is not None:  # no frame the error passed through holds the request or response
        if tb.tb_frame.f_globals.get("__name__", "").startswith("mitos_errors"):
            assert not {"request", "response"} & set(tb.tb_frame.f_locals), tb.tb_frame.f_code.co_name
        tb = tb.tb_next


def test_the_middleware_hides_its_token_and_is_not_picklable() -> None:
    middleware = ErrorMiddleware(token="sekrit")
    assert "sekrit" not in repr(middleware)
    with pytest.raises(TypeError, match="not picklable"):
        pickle.dumps(middleware)


def test_no_client_is_imported_by_the_sdk() -> None:
    code = (
        "import sys, mitos_errors as m\n"
        "m.error_from_response; m.aerror_from_response; m.ErrorMiddleware; m.error_from_dict\n"
        "bad = {'httpx', 'aiohttp', 'requests', 'urllib3'} & set(sys.modules)\n"
        "assert not bad, bad\n"
    )
    import subprocess

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("resp", [None, 429, b"{}", {"status": 429}, object()])
def test_aerror_from_response_refuses_anything_else_naming_the_call(resp: object) -> None:
    with pytest.raises(TypeError, match="error_from_response"):
        asyncio.run(aerror_from_response(resp))  # type: ignore[arg-type]
