"""Both SDKs read every vector over real HTTP from the loopback reference server.

Each vector that can travel over HTTP is served plain, chunked (the first
bytes in 1-8 byte chunks) and gzip-encoded; the Python SDK reads it with
httpx (``error_from_response`` on a streamed response), the TypeScript SDK
with fetch (``errorFromResponse``), and each result must meet the vector.
Bodies over the cap must not be read whole, and a dropped connection still
gives a typed error.
"""

from __future__ import annotations

import socket
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from errcat.model.catalogue import Catalogue
from testkit import testees
from testkit.expect import problems
from testkit.results import compare
from testkit.runs import Runs
from testkit.server import HttpRun, LoopbackServer
from testkit.tally import record
from testkit.vectors import Vector, body_length, load_all

ALL = load_all()
HTTP = [(index, v) for index, v in enumerate(ALL) if v.http]
# The languages whose testee reads a response itself (the Rust crate reads bytes already read).
READERS = [lang for lang in testees.LANGUAGES if testees.applies(lang, "response")]
BIG = [(index, v) for index, v in HTTP if body_length(v.body) > 8 * 1024 * 1024]


def _judge(
    request: pytest.FixtureRequest, kind: str, vector: Vector, run: HttpRun, cat: Catalogue
) -> None:
    failures = []
    for mode in vector.modes:
        case = f"{vector.name}@{mode}"
        result: dict[str, Any] = run.results.get(case, {"threw": "no result"})
        found = problems(vector, result, cat)
        record(request.config, f"http-{kind}", case, not found)
        if found:
            failures.append(f"{mode}: " + "; ".join(found))
    assert not failures, f"{kind} SDK over HTTP fails vector {vector.name}:\n  " + "\n  ".join(
        failures
    )


@pytest.mark.parametrize("language", READERS)
@pytest.mark.parametrize("vector", [v for _, v in HTTP], ids=lambda v: v.name)
def test_sdk_over_http(
    request: pytest.FixtureRequest, language: str, vector: Vector, runs: Runs, catalogue: Catalogue
) -> None:
    _judge(request, language, vector, runs.http(language), catalogue)


@pytest.mark.parametrize("language", READERS[1:])
@pytest.mark.parametrize("vector", [v for _, v in HTTP], ids=lambda v: v.name)
def test_parity_over_http(
    request: pytest.FixtureRequest, language: str, vector: Vector, runs: Runs
) -> None:
    first = READERS[0]
    mine, theirs = runs.http(first), runs.http(language)
    failures = []
    for mode in vector.modes:
        case = f"{vector.name}@{mode}"
        why = compare(vector, mine.results[case], theirs.results[case])
        record(request.config, "http-parity", case, why is None)
        if why is not None:
            failures.append(f"{mode}: {why}")
    assert not failures, (
        f"{first} and {language} differ over HTTP on {vector.name}:\n  " + "\n  ".join(failures)
    )


@pytest.mark.parametrize("language", READERS)
@pytest.mark.parametrize(("index", "vector"), BIG, ids=[v.name for _, v in BIG])
def test_big_body_is_not_read_whole(language: str, index: int, vector: Vector, runs: Runs) -> None:
    """The client stops at the cap: the server could not write most of a 50 MB body."""
    run = runs.http(language)
    size = body_length(vector.body)
    for mode in ("plain", "chunked"):
        if mode not in vector.modes:
            continue
        sent = run.sent.get(LoopbackServer.path(index, mode), 0)
        assert sent < size // 4, (
            f"{language} read {sent} of {size} body bytes of {vector.name} ({mode});"
            " an error body must be read no further than the cap"
        )


@pytest.mark.parametrize("language", READERS)
def test_every_request_was_served_within_the_cap(language: str, runs: Runs) -> None:
    run = runs.http(language)
    assert run.refused == 0
    assert run.served == len(runs.requests)


def test_server_is_bounded_and_local() -> None:
    """Loopback only, an ephemeral port, a hard cap on requests, and a lifetime."""
    vector = next(v for v in ALL if v.name == "code/not_found/minimal")
    with LoopbackServer([vector], max_requests=2, lifetime_s=30) as server:
        assert server.base_url.startswith("http://127.0.0.1:")
        assert not server.base_url.endswith(":0")
        url = server.base_url + LoopbackServer.path(0, "plain")
        for _ in range(2):
            with pytest.raises(urllib.error.HTTPError) as caught:
                urllib.request.urlopen(url, timeout=5)
            assert caught.value.code == 404  # the vector's status
            assert b"not_found" in caught.value.read()
        with pytest.raises((urllib.error.URLError, ConnectionError, socket.timeout, OSError)):
            urllib.request.urlopen(url, timeout=5)
        assert server.served == 2
        assert server.refused == 1
    with LoopbackServer([vector], max_requests=10, lifetime_s=0.2) as server:
        url = server.base_url + LoopbackServer.path(0, "plain")
        time.sleep(0.6)
        with pytest.raises((urllib.error.URLError, ConnectionError, socket.timeout, OSError)):
            urllib.request.urlopen(url, timeout=2)
