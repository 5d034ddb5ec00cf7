"""Every HTTP client each SDK is embedded in gives the error its own reference path gives, bounded.

The loopback reference server (``testkit.server``) serves three responses,
plain, chunked and gzip-encoded: an envelope that echoes the token, a body of
24 MB whose envelope only closes past the cap, and an envelope trickled one
byte every 200 ms. Each client of :mod:`testkit.client_drivers` (Python:
httpx, requests, urllib3, urllib, aiohttp's middleware and
``aerror_from_response``) and of testee.cjs (TypeScript: axios, axios with a
stream, got, ky, undici, fetch) fetches each, through the ``client`` request;
its error must equal, field by field, the one the language's reference path
gives (httpx's ``error_from_response``, fetch's ``errorFromResponse``). The
clients whose bodies the SDK reads itself must stop reading near the cap
(the server sees most of the 24 MB unsent) and cut the trickle at the read
deadline, saying so in the cause.
"""

from __future__ import annotations

import base64
import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from testkit import testees
from testkit.client_drivers import DRIVERS
from testkit.record import FIELDS, Record
from testkit.sdk_strategies import EXAMPLES
from testkit.server import LoopbackServer
from testkit.vectors import Trickle, Vector

TOKEN = "tok-Client9x8y7z"
BIG = 24 * 1024 * 1024
DEADLINE_MS = 400
CLIENTS = {
    "python": [*DRIVERS],
    "typescript": ["fetch", "axios", "axios-stream", "got", "ky", "undici"],
}
BUFFERED = {"axios", "got"}
"""Clients that read the whole body before the SDK sees it (their own limits bound it)."""
MODES = ("plain", "chunked", "gzip")
PROPERTY_BATCHES = settings(max_examples=max(2, EXAMPLES // 20), deadline=None)
"""Each example is a batch served once and read by every path of both SDKs (two processes each)."""


def _vector(name: str, status: int, body: dict[str, Any], trickle: Trickle | None = None) -> Vector:
    return Vector(
        name=name,
        source="test_clients.py",
        description="",
        status=status,
        headers=(("Content-Type", "application/json"), ("X-Request-Id", "req-c1")),
        body=body,
        token=TOKEN,
        transport="http",
        drop_after=None,
        trickle=trickle,
        body_read_timeout_ms=None,
        modes=MODES,
        expect={},
        invariants=(),
        covers=(),
    )


ENVELOPE = (
    '{"error":{"code":"quota_exceeded","message":"over quota for ' + TOKEN + '","cause":"plan"}}'
)
VECTORS = [
    _vector("envelope", 429, {"text": ENVELOPE}),
    _vector(
        "big",
        500,
        {
            "parts": [
                '{"error":{"code":"rate_limited","message":"m","pad":"',
                {"repeat": "x", "times": BIG},
                '"}}',
            ]
        },
    ),
    _vector("trickle", 503, {"text": ENVELOPE}, Trickle(after=5, every_ms=200)),
]


def _requests(server: LoopbackServer, client: str, reference: bool) -> list[dict[str, Any]]:
    out = []
    for index, vector in enumerate(VECTORS):
        modes = (
            ("plain", "chunked") if vector.trickle is not None else MODES
        )  # the server trickles no gzip
        for mode in modes:
            if vector.trickle is not None and client in BUFFERED:
                continue
            path = server.path(index, mode)
            request = {
                "id": f"{vector.name}@{mode}",
                "url": server.base_url + path,
                "token": TOKEN,
                "timeout_ms": 20000,
                "body_read_timeout_ms": DEADLINE_MS if vector.trickle is not None else None,
            }
            out.append(
                {**request, "op": "response"}
                if reference
                else {**request, "op": "client", "client": client}
            )
    return out


def _fields(record: Record) -> dict[str, Any]:
    assert "threw" not in record, record
    assert "none" not in record, record
    return {name: record[name] for name in FIELDS}


@pytest.mark.parametrize(
    ("language", "client"),
    [(lang, client) for lang in testees.LANGUAGES for client in CLIENTS.get(lang, [])],
)
def test_each_client_gives_the_reference_error_within_the_cap_and_the_deadline(
    language: str, client: str
) -> None:
    with LoopbackServer(VECTORS, max_requests=64, lifetime_s=120) as server:
        wanted = testees.run(language, _requests(server, client, reference=True))
        got = testees.run(language, _requests(server, client, reference=False), concurrency=1)
        sent = server.sent
    for want, answer in zip(wanted, got, strict=True):
        case = str(answer["id"])
        assert _fields(answer) == _fields(want), case
        assert TOKEN not in str(answer), case
        if case.startswith("trickle"):
            assert answer["cause"].endswith(f"within {DEADLINE_MS} ms)"), (case, answer["cause"])
            assert answer["elapsed_ms"] < DEADLINE_MS + 1500, (case, answer["elapsed_ms"])
    if client not in BUFFERED:
        for mode in ("plain", "chunked"):
            # Both reads of "big" (the reference's and the client's) stopped near the cap.
            assert sent[LoopbackServer.path(1, mode)] < BIG, (mode, sent)


# --- compressed bodies: gzip, zlib-wrapped and raw deflate, cut anywhere -----------------------

CODED = ("gzip", "deflate", "deflate-raw")
"""The server's compressed modes: ``deflate-raw`` is sent as ``Content-Encoding: deflate``."""
BOMB = 64 * 1024 * 1024
"""A body of this many bytes compresses to about 1/1000 of it: inflated whole, it would cost as much memory."""
CODED_READERS = {
    "python": [("response", None), ("client", "requests"), ("client", "urllib3")],
    "typescript": [("response", None), ("client", "undici"), ("client", "axios-stream")],
}
"""Each SDK's paths that read a compressed body: its reference (httpx, fetch) and clients it inflates itself."""


@st.composite
def _coded_case(draw: st.DrawFn) -> tuple[Vector, str, tuple[int, ...]]:
    """A random body (an envelope or any bytes), a status, a compressed mode and where its chunks end."""
    status = draw(st.sampled_from([400, 404, 429, 500, 503]))
    if draw(st.booleans()):
        error = {
            "code": draw(st.sampled_from(["quota_exceeded", "rate_limited", "not_found", "x"])),
            "message": draw(st.text(max_size=40)),
            "cause": draw(st.text(max_size=40) | st.just(TOKEN)),
        }
        body: dict[str, Any] = {"text": json.dumps({"error": error})}
    else:
        body = {"base64": base64.b64encode(draw(st.binary(max_size=200))).decode()}
    cuts = tuple(sorted(set(draw(st.lists(st.integers(1, 160), max_size=5)))))
    vector = dataclasses.replace(VECTORS[0], name="coded", status=status, body=body, modes=CODED)
    return vector, draw(st.sampled_from(CODED)), cuts


@PROPERTY_BATCHES
@given(cases=st.lists(_coded_case(), min_size=6, max_size=6))
def test_compressed_bodies_give_the_same_error_in_both_sdks(
    cases: list[tuple[Vector, str, tuple[int, ...]]],
) -> None:
    bomb_body = {
        "parts": ['{"error":{"code":"rate_limited","pad":"', {"repeat": "a", "times": BOMB}, '"}}']
    }
    bomb = dataclasses.replace(VECTORS[0], name="bomb", status=500, body=bomb_body, modes=CODED)
    served = [*cases, *((bomb, mode, (1,)) for mode in CODED)]
    vectors = [vector for vector, _, _ in served]
    with LoopbackServer(vectors, max_requests=64, lifetime_s=120) as server:
        answers: dict[tuple[str, str, str | None], list[Record]] = {}
        for language, readers in CODED_READERS.items():
            for op, client in readers:
                requests = [
                    {
                        "id": f"{index}:{mode}:{','.join(map(str, cuts))}",
                        "op": op,
                        **({"client": client} if client else {}),
                        "url": server.base_url + server.path(index, mode, cuts),
                        "token": TOKEN,
                        "timeout_ms": 20000,
                    }
                    for index, (_, mode, cuts) in enumerate(served)
                ]
                answers[(language, op, client)] = testees.run(language, requests, concurrency=1)
    reference = answers[("python", "response", None)]
    for path, got in answers.items():
        for want, answer in zip(reference, got, strict=True):
            assert _fields(answer) == _fields(want), (path, answer["id"], served)
            assert TOKEN not in str(answer), (path, answer["id"])
    for want in reference[
        len(cases) :
    ]:  # the bomb: cut at the cap, so not JSON; the status decides
        assert want["code"] == "internal", want
        assert want["elapsed_ms"] < 5000, want
