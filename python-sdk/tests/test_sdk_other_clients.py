"""Other HTTP clients' responses and already parsed bodies (contract section 1, input forms).

``error_from_response`` reads a requests, urllib3 or urllib response the way
it reads an httpx one (at most the body cap, then closed) and refuses any
other object with a ``TypeError`` naming the call to make, never a status-0
error. ``error_from_body`` given the value a client already parsed the body
to gives the error of that body's bytes.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from testkit.oracle import fields_of
from testkit.sdk_strategies import PROPERTY, hostile_body, statuses, tokens
from testkit.transport_servers import serving

from mitos_errors import QuotaExceededError, RateLimitedError, aerror_from_response, error_from_body
from mitos_errors import error_from_response as from_response
from mitos_errors._generated.catalogue import ERROR_BODY_MAX_BYTES, JSON_MAX_DEPTH

ENVELOPE = json.dumps(
    {"error": {"code": "quota_exceeded", "message": "over quota", "cause": "the plan's limit"}}
).encode()


# Valid JSON with the envelope, but only past the cap: cut at the cap, it is not JSON.
LONG = ENVELOPE[:-1] + b',"pad":"' + b"x" * (8 * ERROR_BODY_MAX_BYTES) + b'"}'


def _answer(body: bytes) -> Any:
    """A handler that answers 429 with ``body``."""

    def handler(conn: socket.socket) -> None:
        conn.recv(65536)
        conn.sendall(
            b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\nX-Request-Id: req-7\r\nConnection: close\r\n\r\n".encode()
            + body
        )

    return handler


def _check_refined(err: object) -> None:
    assert type(err) is QuotaExceededError
    assert err.status == 429
    assert err.message == "over quota"
    assert err.request_id == "req-7"


# ---------------------------------------------------------------- urllib (stdlib)


def test_an_http_client_response_is_read_like_an_httpx_one() -> None:
    with serving(_answer(ENVELOPE)) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/")
        resp = conn.getresponse()
        _check_refined(from_response(resp))
        assert resp.isclosed()


def test_a_urllib_http_error_is_read_like_an_httpx_one() -> None:
    with serving(_answer(ENVELOPE)) as port:
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5)
        _check_refined(from_response(caught.value))


def test_an_unread_body_is_read_no_further_than_the_cap() -> None:
    assert type(error_from_body(LONG, status=429)) is RateLimitedError
    assert type(error_from_body(json.loads(LONG), status=429)) is RateLimitedError
    with serving(_answer(LONG)) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/")
        resp = conn.getresponse()
        err = from_response(resp)
    # Only the cap was read: not JSON, so the status decides.
    assert type(err) is RateLimitedError
    assert resp.isclosed()


# ---------------------------------------------------------------- requests and urllib3, when installed


def test_a_requests_response_is_read_read_or_streamed() -> None:
    requests = pytest.importorskip("requests")
    with serving(_answer(ENVELOPE)) as port:
        _check_refined(from_response(requests.get(f"http://127.0.0.1:{port}/", timeout=5)))
        streamed = requests.get(f"http://127.0.0.1:{port}/", timeout=5, stream=True)
        _check_refined(from_response(streamed))


def test_a_urllib3_response_is_read_preloaded_or_not() -> None:
    urllib3 = pytest.importorskip("urllib3")
    with serving(_answer(ENVELOPE)) as port, urllib3.PoolManager() as pool:
        url = f"http://127.0.0.1:{port}/"
        _check_refined(from_response(pool.request("GET", url, retries=False)))
        unread = pool.request("GET", url, retries=False, preload_content=False)
        _check_refined(from_response(unread))


# ---------------------------------------------------------------- the shapes, whatever is installed


def _shaped(module: str, name: str, **attrs: object) -> object:
    kind = type(name, (), {"__module__": module})
    obj = kind()
    obj.__dict__.update(attrs)
    return obj


def test_a_requests_shaped_response_unread_is_read_raw_to_the_cap_and_closed() -> None:
    closed: list[bool] = []
    asked: list[int] = []
    first = [LONG[:100]]

    def read1(amt: int, decode_content: bool) -> bytes:
        assert decode_content is False  # inflated by the SDK, never past the cap
        asked.append(amt)
        return first.pop() if first else b"x" * amt  # a body without end

    raw = _shaped("urllib3.response", "HTTPResponse", read1=read1)
    resp = _shaped(
        "requests.models",
        "Response",
        _content=False,
        status_code=429,
        headers={"x-request-id": "req-7"},
        raw=raw,
        close=lambda: closed.append(True),
    )
    err = from_response(resp)
    assert type(err) is RateLimitedError  # cut inside the string: not JSON
    assert closed == [True]
    assert sum(asked) <= ERROR_BODY_MAX_BYTES + 16_384


def test_a_requests_shaped_response_already_read_keeps_its_class() -> None:
    resp = _shaped(
        "requests.models",
        "Response",
        _content=ENVELOPE,
        content=ENVELOPE,
        status_code=429,
        headers={"x-request-id": "req-7"},
        raw=None,
    )
    _check_refined(from_response(resp))


@pytest.mark.parametrize("resp", [None, 429, b"{}", {"status": 429}, object()])
def test_anything_else_is_refused_never_given_status_zero(resp: object) -> None:
    with pytest.raises(TypeError, match="error_from_body"):
        from_response(resp)
    with pytest.raises(TypeError, match="error_from_response"):
        asyncio.run(aerror_from_response(resp))  # type: ignore[arg-type]


# ---------------------------------------------------------------- bodies a client already parsed


def _parsed(body: bytes) -> object:
    """``body`` as a client parses it: decoded as UTF-8 with replacement, as the SDK
    reads bytes (``json.loads(bytes)`` would keep an encoded surrogate as one)."""
    try:
        return json.loads(body.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return None


@PROPERTY
@given(data=st.data(), token=st.one_of(st.none(), tokens), status=statuses)
def test_a_parsed_body_gives_the_error_of_its_bytes(
    data: st.DataObject, token: str | None, status: int
) -> None:
    body, _ = data.draw(hostile_body(token))
    value = _parsed(body)
    # Re-escaped, a parsed value is longer than its bytes; near the cap the two may be cut differently.
    if type(value) not in (dict, list) or len(body) * 6 >= ERROR_BODY_MAX_BYTES:
        return
    # A duplicate key can drop a part nested too deep: then the bytes are not JSON, the value is.
    if body.count(b"{") + body.count(b"[") > JSON_MAX_DEPTH:
        return
    headers = [("X-Request-Id", "req-7")]
    want = fields_of(error_from_body(body, status=status, headers=headers, token=token))
    assert fields_of(error_from_body(value, status=status, headers=headers, token=token)) == want  # type: ignore[arg-type]


class _Endless(list[object]):
    def __iter__(self) -> Iterator[object]:
        while True:
            yield "x" * 1000


class _Failing(dict[str, object]):
    def items(self) -> Any:
        raise RuntimeError("a member fails as it is read")


def _cycle() -> dict[str, object]:
    value: dict[str, object] = {"error": {"code": "quota_exceeded"}}
    value["self"] = value
    return value


@pytest.mark.parametrize(
    "value",
    [
        _cycle(),
        {"error": {"code": "quota_exceeded", "n": float("nan")}},
        {"error": {"code": "quota_exceeded", "s": {1, 2}}},
        _Failing(error={"code": "quota_exceeded"}),
        _Endless(),
        [{"error": {"code": "quota_exceeded"}}] + ["x" * 1000] * 10_000,
    ],
    ids=["cycle", "nan", "set", "failing-items", "endless", "past-the-cap"],
)
def test_a_hostile_parsed_value_never_raises_and_the_status_decides(value: object) -> None:
    err = error_from_body(value, status=429)  # type: ignore[arg-type]
    assert type(err) is RateLimitedError


def test_a_parsed_envelope_within_the_cap_keeps_its_class_and_texts() -> None:
    err = error_from_body(json.loads(ENVELOPE), status=429, headers={"x-request-id": "req-7"})
    _check_refined(err)
    assert err.cause == "the plan's limit"


@pytest.mark.parametrize("number", [b"1e400", b"-1e400", b"1.5", b"12345678901234567890", b"-0"])
def test_a_parsed_number_past_the_double_range_is_read_as_its_bytes_are(number: bytes) -> None:
    body = b'{"error":{"code":"quota_exceeded","context":{"sandbox":"s","n":' + number + b"}}}"
    want = fields_of(error_from_body(body, status=429))
    assert fields_of(error_from_body(json.loads(body), status=429)) == want
