"""Bounds at the edges (issue 20): the retry delay's ceiling and repeated headers.

- Every delay an error derives (the context's ``retry_after_ms``,
  ``Retry-After-Ms``, ``Retry-After`` in seconds or as an HTTP date) is at
  most the catalogue's ``retry_after_max_ms`` (docs/sdk-contract.md section
  1, step 6), so ``time.sleep(err.retry_after_ms / 1000)`` neither hangs
  for years nor overflows.
- Reading headers is linear in their size, however often a name repeats
  (values are collected, then joined once): 200,000 repeats of one name, a
  quadratic reader's minutes, finish well inside a hang guard.
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from testkit.oracle import REFERENCE, hang_guard
from testkit.sdk_strategies import PROPERTY

from mitos_errors import error_from_body
from mitos_errors._generated.catalogue import RETRY_AFTER_MAX_MS
from mitos_errors._headers import pick_headers, retry_after_ms_from_headers

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
