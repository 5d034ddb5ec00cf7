"""Bounds at the edges (issue 20): the retry delay's ceiling and repeated headers.

- Every delay an error derives (the context's ``retry_after_ms``,
  ``Retry-After-Ms``, ``Retry-After`` in seconds or as an HTTP date) is at
  most the catalogue's ``retry_after_max_ms`` (docs/sdk-contract.md section
  1, step 6), so ``time.sleep(err.retry_after_ms / 1000)`` neither hangs
  for years nor overflows.
- A compressed error body (gzip, deflate) is inflated as it is read, never
  past the body cap: a bomb costs about the cap in memory, counted with
  tracemalloc over the loopback server.
- Reading headers is linear in their size, however often a name repeats
  (values are collected, then joined once): 200,000 repeats of one name, a
  quadratic reader's minutes, finish well inside a hang guard.
"""

from __future__ import annotations

import json
import socket
import threading
import tracemalloc
import zlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TypeVar

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit.oracle import REFERENCE, hang_guard
from testkit.sdk_strategies import PROPERTY
from testkit.transport_servers import serving

from mitos_errors import AgentRunError, error_from_body, error_from_response
from mitos_errors._generated.catalogue import ERROR_BODY_MAX_BYTES as CAP
from mitos_errors._generated.catalogue import RETRY_AFTER_MAX_MS
from mitos_errors._headers import pick_headers, retry_after_ms_from_headers

T = TypeVar("T")
CEILING = RETRY_AFTER_MAX_MS
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
NOW_MS = (NOW - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)

# Delays at, around and far past the ceiling, up to the 15 digits a header may hold.
delays = st.one_of(
    st.integers(CEILING - 2, CEILING + 2),
    st.integers(0, 2 * CEILING),
    st.integers(CEILING, 10**15 - 1),
)


def _imf(when_ms: int) -> str:
    moment = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=when_ms)
    return moment.strftime("%a, %d %b %Y %H:%M:%S GMT")


def test_the_ceiling_is_a_delay_every_timer_can_wait() -> None:
    """The README's loop sleeps ``retry_after_ms / 1000``: at the ceiling, no overflow and no years."""
    assert 1000 <= CEILING <= 2**31 - 1
    assert CEILING / 1000 < threading.TIMEOUT_MAX


@PROPERTY
@given(ms=delays)
def test_retry_after_ms_header_is_cut_to_the_ceiling(ms: int) -> None:
    err = error_from_body(b"", status=503, headers={"Retry-After-Ms": str(ms)})
    assert err.retry_after_ms == min(ms, CEILING)
    assert err.retry_after_ms == REFERENCE.retry_after({}, [("retry-after-ms", str(ms))], NOW)


@PROPERTY
@given(seconds=st.one_of(st.integers(CEILING // 1000 - 2, CEILING // 1000 + 2), st.integers(0, 10**15 - 1)))
def test_retry_after_seconds_are_cut_to_the_ceiling(seconds: int) -> None:
    err = error_from_body(b"", status=503, headers=[("retry-after", str(seconds))])
    assert err.retry_after_ms == min(seconds * 1000, CEILING)
    assert err.retry_after_ms == REFERENCE.retry_after({}, [("retry-after", str(seconds))], NOW)


@PROPERTY
@given(
    ahead_s=st.one_of(st.integers(CEILING // 1000 - 2, CEILING // 1000 + 2), st.integers(0, 80 * 365 * 86400))
)
def test_an_http_date_ahead_is_cut_to_the_ceiling(ahead_s: int) -> None:
    date = _imf(NOW_MS + ahead_s * 1000)
    got = retry_after_ms_from_headers({"Retry-After": date}, NOW_MS)
    assert got == min(ahead_s * 1000, CEILING)
    assert got == REFERENCE.retry_after({}, [("Retry-After", date)], NOW)


@PROPERTY
@given(ms=st.one_of(delays, st.integers(10**15, 2**53 - 1)))
def test_a_context_delay_is_cut_to_the_ceiling_and_the_context_keeps_it(ms: int) -> None:
    body = json.dumps({"error": {"code": "rate_limited", "context": {"retry_after_ms": ms}}})
    err = error_from_body(body, status=429, headers={"Retry-After": "1"})
    assert err.retry_after_ms == min(ms, CEILING)
    assert err.context["retry_after_ms"] == ms
    assert err.retry_after_ms == REFERENCE.retry_after({"retry_after_ms": ms}, [], NOW)


def test_a_date_in_2099_waits_the_ceiling_not_73_years() -> None:
    err = error_from_body(b"", status=503, headers={"Retry-After": "Thu, 01 Jan 2099 00:00:00 GMT"})
    assert err.retry_after_ms == CEILING


# -- repeated headers ------------------------------------------------------------------


REPEATS = 200_000
"""Enough repeats that joining each value onto all earlier ones (19 s at 64,000) trips the guard."""


@pytest.mark.parametrize("name", ["x-request-id", "Retry-After", "retry-after-ms"])
@pytest.mark.parametrize("kind", ["pairs", "bytes", "httpx"])
def test_a_name_repeated_many_times_is_read_in_linear_time(name: str, kind: str) -> None:
    value = "v" * 8
    pairs: list[tuple[str, str]] = [(name, value)] * REPEATS
    headers: object
    if kind == "httpx":
        headers = httpx.Headers(pairs)
    elif kind == "bytes":
        headers = [(name.encode(), value.encode())] * REPEATS
    else:
        headers = pairs
    with hang_guard(10):
        picked = pick_headers(headers)
        err = error_from_body(b"", status=503, headers=headers)
    assert picked is not None
    joined = picked[["x-request-id", "retry-after-ms", "retry-after"].index(name.lower())]
    assert joined is not None and len(joined) == REPEATS * (len(value) + 2) - 2
    assert err.retry_after_ms is None  # "v, v, ..." is no delay


@PROPERTY
@given(
    values=st.lists(
        st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=6),
        min_size=1,
        max_size=40,
    ),
    name=st.sampled_from(["x-request-id", "X-Request-ID", "Retry-After", "RETRY-AFTER-MS"]),
    kind=st.sampled_from(["pairs", "httpx"]),
)
def test_repeated_headers_join_as_fetch_does(values: list[str], name: str, kind: str) -> None:
    pairs = [(name if i % 2 else name.swapcase(), v) for i, v in enumerate(values)]
    headers: object = httpx.Headers(pairs) if kind == "httpx" else pairs
    picked = pick_headers(headers)
    assert picked is not None
    index = ["x-request-id", "retry-after-ms", "retry-after"].index(name.lower())
    assert picked[index] == REFERENCE.header(pairs, name.lower()) == ", ".join(values)


# -- compressed bodies -----------------------------------------------------------------


def _compressed(data: bytes, coding: str) -> bytes:
    """``data`` as a server sends it in ``coding`` (``deflate-raw``: deflate without zlib's wrapper)."""
    wbits = {"gzip": 31, "deflate": 15, "deflate-raw": -15}[coding]
    packer = zlib.compressobj(9, zlib.DEFLATED, wbits)
    return packer.compress(data) + packer.flush()


def _sending(head: bytes, body: bytes) -> Callable[[socket.socket], None]:
    def handler(conn: socket.socket) -> None:
        conn.settimeout(5)
        conn.recv(65536)
        conn.sendall(head + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)

    return handler


def _peak_while(call: Callable[[], T]) -> tuple[T, int]:
    """What ``call()`` gives, and the most memory Python held for it at once (counted by tracemalloc)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        got = call()
        return got, tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def _error_over_loopback(head: bytes, body: bytes) -> tuple[AgentRunError, int]:
    with (
        serving(_sending(head, body)) as port,
        httpx.Client() as client,
        client.stream("GET", f"http://127.0.0.1:{port}/") as resp,
    ):
        return _peak_while(lambda: error_from_response(resp))


@settings(PROPERTY, max_examples=min(PROPERTY.max_examples, 12))
@given(
    coding=st.sampled_from(["gzip", "deflate", "deflate-raw"]),
    inflated=st.one_of(st.integers(0, 2 * CAP), st.integers(CAP, 16 * 2**20)),
    message=st.text(st.characters(min_codepoint=ord("a"), max_codepoint=ord("z")), min_size=1, max_size=40),
)
def test_a_compressed_body_is_inflated_no_further_than_the_cap(
    coding: str, inflated: int, message: str
) -> None:
    """A bomb (megabytes from kilobytes) costs about the cap in memory, and its envelope is still read."""
    envelope = json.dumps({"error": {"code": "rate_limited", "message": message}}).encode()
    body = _compressed(envelope + b" " * inflated, coding)
    encoding = "deflate" if coding == "deflate-raw" else coding
    head = f"HTTP/1.1 429 Too Many Requests\r\nContent-Encoding: {encoding}\r\n".encode()
    err, peak = _error_over_loopback(head, body)
    assert err.code == "rate_limited" and err.message == message
    assert peak <= 8 * CAP, f"{peak} bytes held at once for a {len(body)}-byte {coding} body"


def test_a_body_in_a_coding_not_read_gives_the_status_error_unread() -> None:
    """``br``, ``zstd`` or stacked codings cannot be inflated within a bound here: the status decides."""
    envelope = json.dumps({"error": {"code": "rate_limited", "message": "m"}}).encode()
    for encoding in ("br", "zstd", "gzip, deflate"):
        head = f"HTTP/1.1 503 Service Unavailable\r\nContent-Encoding: {encoding}\r\n".encode()
        err, _ = _error_over_loopback(head, envelope)
        assert err.code == "unavailable", encoding


def test_the_peak_counter_sees_a_whole_chunk_inflated() -> None:
    """The memory count can fail: inflating a bomb in one call holds all of it."""
    bomb = _compressed(b" " * (16 * 2**20), "gzip")
    _, peak = _peak_while(lambda: zlib.decompress(bomb, 31))
    assert peak > 8 * CAP
