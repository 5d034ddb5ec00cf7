"""Each SDK's answers to the conformance vectors, in process and over HTTP, made once per session.

Every language of the language record (:data:`testkit.testees.LANGUAGES`) is
run the same way: one process per SDK for all the in-process vectors, and one
loopback server per SDK for all the HTTP requests.
"""

from __future__ import annotations

from typing import Any

from testkit import testees
from testkit.server import HttpRun, LoopbackServer
from testkit.vectors import HttpRequest, Vector

Results = dict[str, dict[str, Any]]
HTTP_TIMEOUT_S = 20.0


class Runs:
    """Each SDK's answers to the vectors, made once per session when a test first asks."""

    def __init__(self, vectors: tuple[Vector, ...], class_names: dict[str, str]) -> None:
        self.vectors, self.class_names = vectors, class_names
        self.requests = http_requests(vectors)
        self._direct: dict[str, Results] = {}
        self._http: dict[str, HttpRun] = {}

    def direct(self, language: str) -> Results:
        """The record of every in-process vector from the SDK of ``language``, in one process."""
        if language not in self._direct:
            requests = [v.request() for v in self.vectors if v.direct]
            answers = testees.run(language, requests, class_names=self.class_names)
            self._direct[language] = testees.answers_by_id(answers)
        return self._direct[language]

    def http(self, language: str) -> HttpRun:
        """The SDK of ``language`` over its HTTP client against its own loopback server."""
        if language not in self._http:
            requests = self.requests
            with _serve(self.vectors, requests) as server:
                timeout_ms = int(HTTP_TIMEOUT_S * 1000)
                sent = [r.request(server.base_url, timeout_ms) for r in requests]
                answers = testees.run(language, sent, class_names=self.class_names)
                run = HttpRun(
                    testees.answers_by_id(answers), server.sent, server.served, server.refused
                )
            self._http[language] = run
        return self._http[language]


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


def _serve(vectors: tuple[Vector, ...], requests: list[HttpRequest]) -> LoopbackServer:
    return LoopbackServer(vectors, max_requests=len(requests) + 8, lifetime_s=120, io_timeout_s=10)
