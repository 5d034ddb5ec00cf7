"""Fixtures of the conformance suite, and its one-line summary.

Each SDK answers every vector once, in one process (Python in this one, the
TypeScript SDK in one ``node testee.cjs``), through the one testee protocol
(testkit.testees), in session-scoped fixtures; the tests then judge the
records vector by vector. The loopback server is started once per SDK and
stopped when its run ends.

At the end of the session a line such as::

    conformance: python 437/437, typescript 437/437, parity 437/437 identical

is printed (and one for the HTTP runs), counting the tests that ran.

The TypeScript side needs ``node`` and a built ``ts-sdk``; when either is
missing its tests fail with the command that fixes it. ``ERRCAT_SKIP_TS=1``
skips them instead, for quick local runs.
"""

from __future__ import annotations

from typing import Any

import pytest

from errcat.cli import load_model
from errcat.model.catalogue import Catalogue
from testkit import paths, testees
from testkit.server import HttpRun, LoopbackServer
from testkit.tally import count
from testkit.vectors import HttpRequest, Vector, load_all

Json = Any
Results = dict[str, dict[str, Json]]
HTTP_TIMEOUT_S = 20.0


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Print how many vectors each SDK passed, and the parity result."""
    for label, prefix in (("conformance", ""), ("conformance over HTTP", "http-")):
        parts = []
        for lang in testees.LANGUAGES:
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
    return testees.typescript_class_names(catalogue)


@pytest.fixture(scope="session")
def python_results(vectors: tuple[Vector, ...]) -> Results:
    """The Python SDK's record of every in-process vector."""
    return testees.answers_by_id(testees.run("python", [v.request() for v in vectors if v.direct]))


@pytest.fixture(scope="session")
def typescript_results(vectors: tuple[Vector, ...], class_names: dict[str, str]) -> Results:
    """The TypeScript SDK's record of every in-process vector, from one node process."""
    requests = [v.request() for v in vectors if v.direct]
    return testees.answers_by_id(testees.run("typescript", requests, class_names=class_names))


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


def _http_run(
    language: str,
    vectors: tuple[Vector, ...],
    requests: list[HttpRequest],
    class_names: dict[str, str],
) -> HttpRun:
    with _serve(vectors, requests) as server:
        timeout_ms = int(HTTP_TIMEOUT_S * 1000)
        sent = [r.request(server.base_url, timeout_ms) for r in requests]
        answers = testees.run(language, sent, class_names=class_names)
        return HttpRun(testees.answers_by_id(answers), server.sent, server.served, server.refused)


@pytest.fixture(scope="session")
def python_http(
    vectors: tuple[Vector, ...], http_requests_all: list[HttpRequest], class_names: dict[str, str]
) -> HttpRun:
    """The Python SDK over httpx against its own loopback server."""
    return _http_run("python", vectors, http_requests_all, class_names)


@pytest.fixture(scope="session")
def typescript_http(
    vectors: tuple[Vector, ...], http_requests_all: list[HttpRequest], class_names: dict[str, str]
) -> HttpRun:
    """The TypeScript SDK over fetch against its own loopback server."""
    testees.require_typescript()
    return _http_run("typescript", vectors, http_requests_all, class_names)
