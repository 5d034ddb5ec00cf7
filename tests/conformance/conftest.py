"""Fixtures of the conformance suite, and its one-line summary.

Each SDK runs every vector once, in one process (Python in this one, the
TypeScript SDK in one ``node`` subprocess), in session-scoped fixtures; the
tests then judge the results vector by vector. The loopback server is started
once per SDK and stopped when its run ends.

At the end of the session a line such as::

    conformance: python 437/437, typescript 437/437, parity 437/437 identical

is printed (and one for the HTTP runs), counting the tests that ran.

The TypeScript side needs ``node`` and a built ``ts-sdk``; when either is
missing its tests fail with the command that fixes it. ``ERRCAT_SKIP_TS=1``
skips them instead, for quick local runs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conformance_kit import paths, py_runner, ts_runner
from conformance_kit.server import HttpRun, LoopbackServer
from conformance_kit.tally import count
from conformance_kit.vectors import HttpRequest, Vector, load_all
from errcat.cli import load_model
from errcat.model.catalogue import Catalogue

Json = Any
Results = dict[str, dict[str, Json]]
HTTP_TIMEOUT_S = 20.0


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Print how many vectors each SDK passed, and the parity result."""
    for label, prefix in (("conformance", ""), ("conformance over HTTP", "http-")):
        parts = []
        for lang in ("python", "typescript"):
            passed = count(config, prefix + lang)
            if passed is not None:
                parts.append(f"{lang} {passed}")
            elif lang == "typescript" and paths.skip_typescript():
                parts.append(f"typescript skipped ({paths.SKIP_TS_ENV}=1)")
        parity = count(config, prefix + "parity")
        if parity is not None:
            parts.append(f"parity {parity} identical")
        if parts:
            terminalreporter.write_line(f"{label}: {', '.join(parts)}")


@pytest.fixture(scope="session")
def catalogue() -> Catalogue:
    """The catalogue model the expectations are judged against."""
    return load_model(paths.CATALOGUE, paths.REPO)


@pytest.fixture(scope="session")
def vectors() -> tuple[Vector, ...]:
    """Every vector of every file."""
    return load_all()


@pytest.fixture(scope="session")
def class_names(catalogue: Catalogue) -> dict[str, str]:
    """TypeScript class name -> Python class name, where a catalogue makes them differ."""
    names = [(c.class_names["typescript"], c.class_names["python"]) for c in catalogue.codes]
    return {ts: py for ts, py in names if ts != py}


def require_typescript() -> None:
    """Skip under ERRCAT_SKIP_TS=1; fail with the fix when node or the build is missing."""
    if paths.skip_typescript():
        pytest.skip(f"{paths.SKIP_TS_ENV}=1: the TypeScript SDK is left out of this run")
    try:
        paths.node_binary()
        paths.typescript_entry()
    except paths.TypeScriptUnavailableError as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="session")
def python_results(vectors: tuple[Vector, ...]) -> Results:
    """``error_from_body`` of the Python SDK on every in-process vector."""
    return py_runner.run_direct(v for v in vectors if v.direct)


@pytest.fixture(scope="session")
def typescript_results(vectors: tuple[Vector, ...], class_names: dict[str, str]) -> Results:
    """``errorFromBody`` of the TypeScript SDK on every in-process vector, in one node process."""
    require_typescript()
    return ts_runner.run_direct((v for v in vectors if v.direct), class_names)


def http_requests(vectors: tuple[Vector, ...]) -> list[HttpRequest]:
    """The request of every vector served over HTTP, in each of its modes."""
    return [
        HttpRequest(
            f"{v.name}@{mode}", LoopbackServer.path(index, mode), v.token, v.body_read_timeout_ms
        )
        for index, v in enumerate(vectors)
        if v.http
        for mode in v.modes
    ]


@pytest.fixture(scope="session")
def http_requests_all(vectors: tuple[Vector, ...]) -> list[HttpRequest]:
    """Every HTTP request either SDK makes."""
    return http_requests(vectors)


def _serve(vectors: tuple[Vector, ...], requests: list[HttpRequest]) -> LoopbackServer:
    return LoopbackServer(vectors, max_requests=len(requests) + 8, lifetime_s=120, io_timeout_s=10)


@pytest.fixture(scope="session")
def python_http(vectors: tuple[Vector, ...], http_requests_all: list[HttpRequest]) -> HttpRun:
    """The Python SDK over httpx against its own loopback server."""
    with _serve(vectors, http_requests_all) as server:
        results = py_runner.run_http(server.base_url, http_requests_all, HTTP_TIMEOUT_S)
        run = HttpRun(results, server.sent, server.served, server.refused)
    return run


@pytest.fixture(scope="session")
def typescript_http(
    vectors: tuple[Vector, ...],
    http_requests_all: list[HttpRequest],
    class_names: dict[str, str],
) -> HttpRun:
    """The TypeScript SDK over fetch against its own loopback server."""
    require_typescript()
    with _serve(vectors, http_requests_all) as server:
        results = ts_runner.run_http(
            server.base_url, http_requests_all, class_names, per_request_timeout_s=HTTP_TIMEOUT_S
        )
        run = HttpRun(results, server.sent, server.served, server.refused)
    return run
