"""The error-body read deadline (docs/sdk-contract.md section 2c) against a real 127.0.0.1 server.

The server sends the status line and headers at once, then the body as the
test asks: one byte every 100 ms, or a first part and then nothing. Each
connection is bounded (at most the body's bytes, at most a few seconds) and
stops by itself, or as soon as the client goes away.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from mitos_errors import (
    AgentRunError,
    aerror_from_response,
    araise_for_status,
    error_from_body,
    error_from_response,
    install_error_hook,
    raise_for_status,
)
from mitos_errors._generated import catalogue

TRICKLE_S = 0.1
"""The trickling server sends one byte this often."""
STALL_S = 3.0
"""The stalling server waits this long after its first part, then closes."""
ENVELOPE = json.dumps({"error": {"code": "rate_limited", "cause": "the server's own cause"}}).encode()


def note(ms: float) -> str:
    return f" (the error body was cut short: it did not arrive within {ms} ms)"


def _serve(conn: socket.socket, first: bytes, rest: bytes, mode: str, stop: threading.Event) -> None:
    body_len = len(first) + len(rest)
    head = (
        f"HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\n"
        f"Content-Length: {body_len}\r\nConnection: close\r\n\r\n"
    ).encode()
    try:
        conn.sendall(head + first)
        if mode == "stall":
            stop.wait(STALL_S)
            return
        for i in range(len(rest)):  # bounded by the body's length
            if stop.wait(TRICKLE_S):
                return
            conn.sendall(rest[i : i + 1])
    except OSError:
        return  # the client went away
    finally:
        conn.close()


@contextmanager
def server(first: bytes, rest: bytes, mode: str = "trickle") -> Iterator[str]:
    """A 127.0.0.1 server that answers each connection with ``first`` then ``rest`` (trickled or stalled)."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stop = threading.Event()
    workers: list[threading.Thread] = []

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            worker = threading.Thread(target=_serve, args=(conn, first, rest, mode, stop), daemon=True)
            worker.start()
            workers.append(worker)

    acceptor = threading.Thread(target=accept, daemon=True)
    acceptor.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/"
    finally:
        stop.set()
        acceptor.join(5)
        listener.close()
        for worker in workers:
            worker.join(5)


def _sync_error(url: str, ms: float | None) -> tuple[AgentRunError, float]:
    with httpx.Client(timeout=10) as client, client.stream("GET", url) as resp:
        start = time.monotonic()
        err = error_from_response(resp, body_read_timeout_ms=ms)
        return err, time.monotonic() - start


def _async_error(url: str, ms: float | None) -> tuple[AgentRunError, float]:
    async def run() -> tuple[AgentRunError, float]:
        async with httpx.AsyncClient(timeout=10) as client, client.stream("GET", url) as resp:
            start = time.monotonic()
            err = await aerror_from_response(resp, body_read_timeout_ms=ms)
            return err, time.monotonic() - start

    return asyncio.run(run())


READERS = pytest.mark.parametrize("read", [_sync_error, _async_error], ids=["sync", "async"])


@READERS
def test_a_trickled_body_is_cut_at_the_deadline_not_reset_by_each_byte(read: object) -> None:
    rest = b" " * 40  # 4 s at a byte per 100 ms; each byte alone would reset a read timeout
    with server(b"", ENVELOPE + rest) as url:
        err, took = read(url, 300)  # type: ignore[operator]
    fallback = error_from_body(b"", status=500)
    assert err.code == fallback.code and err.status == 500
    assert err.cause == fallback.cause + note(300)
    assert took < len(rest) * TRICKLE_S / 2  # stopped long before the body ended


@READERS
def test_an_envelope_that_arrived_keeps_its_code_and_cause(read: object) -> None:
    with server(ENVELOPE, b" " * 40) as url:
        err, _ = read(url, 250)  # type: ignore[operator]
    whole = error_from_body(ENVELOPE, status=500)
    assert err.code == whole.code == "rate_limited"
    assert err.cause == "the server's own cause" + note(250)


@READERS
def test_a_stalled_body_is_cut_at_the_deadline(read: object) -> None:
    with server(ENVELOPE[:10], ENVELOPE[10:], mode="stall") as url:
        err, took = read(url, 200)  # type: ignore[operator]
    assert err.cause.endswith(note(200))
    assert took < STALL_S / 2


@READERS
def test_a_sub_millisecond_deadline_is_written_in_plain_decimal(read: object) -> None:
    # Contract section 2c, a number in a text: as TypeScript writes it, never 1e-05.
    with server(ENVELOPE[:10], ENVELOPE[10:], mode="stall") as url:
        err, _ = read(url, 0.00001)  # type: ignore[operator]
    assert err.cause.endswith("did not arrive within 0.00001 ms)"), err.cause


@READERS
def test_a_body_within_the_deadline_is_not_cut(read: object) -> None:
    with server(ENVELOPE, b"  ") as url:
        err, _ = read(url, 5000)  # type: ignore[operator]
    assert err.code == "rate_limited" and err.cause == "the server's own cause"


def test_the_default_deadline_is_the_catalogues_and_bad_values_mean_it() -> None:
    from mitos_errors._bounded import deadline_of

    assert deadline_of(None) == catalogue.ERROR_BODY_READ_TIMEOUT_MS
    for bad in (-1, float("nan"), float("inf"), True, "100", 2**31):
        assert deadline_of(bad) == catalogue.ERROR_BODY_READ_TIMEOUT_MS, bad
    assert deadline_of(0) == 0 and deadline_of(100.0) == 100 and deadline_of(1.5) == 1.5


def test_a_cut_cause_is_capped() -> None:
    cause = "c" * catalogue.TEXT_MAX_CHARS
    body = json.dumps({"error": {"code": "rate_limited", "cause": cause}}).encode()
    with server(body, b" " * 30) as url:
        err, _ = _sync_error(url, 200)
    assert len(err.cause) == catalogue.TEXT_MAX_CHARS and err.cause.endswith("[truncated]")


def test_the_hooks_and_raise_for_status_take_the_deadline() -> None:
    with server(b"", ENVELOPE + b" " * 30) as url:
        client = install_error_hook(httpx.Client(timeout=10), body_read_timeout_ms=150)
        assert isinstance(client, httpx.Client)
        with client, pytest.raises(AgentRunError) as caught:
            client.get(url)
        assert caught.value.cause.endswith(note(150))
        with (
            httpx.Client(timeout=10) as plain,
            plain.stream("GET", url) as resp,
            pytest.raises(AgentRunError) as raised,
        ):
            raise_for_status(resp, body_read_timeout_ms=150)
        assert raised.value.cause.endswith(note(150))

        async def run() -> AgentRunError:
            async with httpx.AsyncClient(timeout=10) as client, client.stream("GET", url) as resp:
                try:
                    await araise_for_status(resp, body_read_timeout_ms=150)
                except AgentRunError as err:
                    return err
            raise AssertionError("no error raised")

        assert asyncio.run(run()).cause.endswith(note(150))
