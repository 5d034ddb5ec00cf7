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

from typing import Any

import pytest

from testkit import testees
from testkit.client_drivers import DRIVERS
from testkit.record import FIELDS, Record
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
