"""The README's retry snippets (tenacity, backoff, p-retry) run as written against the loopback server.

Each fenced block after a ``<!-- retry-snippet: NAME -->`` marker in README.md
is run with only ``url`` and ``api_key`` (``apiKey``) defined: the Python ones
with ``exec``, the TypeScript one by node as an ES module inside ts-sdk (so
``@mitos/errors`` and ``p-retry`` resolve). Against a 429 that asks for a
20 ms delay, each tries four times, waits about the delays the server asked
for, and ends with ``RateLimitedError``; against a 404 it tries once; against
a 200 it returns the response.
"""

from __future__ import annotations

import re
import subprocess
import time
from typing import Any

import pytest

from testkit import paths
from testkit.server import LoopbackServer
from testkit.vectors import Vector

README = paths.REPO / "README.md"
SNIPPET = re.compile(r"<!-- retry-snippet: ([\w-]+) -->\n```(\w+)\n(.*?)\n```", re.S)
TOKEN = "sk-readme-0123456789"
DELAY_MS = 20
ATTEMPTS = 4


def snippets() -> dict[str, tuple[str, str]]:
    """Each marked block of the README: its name, language and code."""
    return {
        name: (lang, code)
        for name, lang, code in SNIPPET.findall(README.read_text(encoding="utf-8"))
    }


def _vector(name: str, status: int, headers: tuple[tuple[str, str], ...], text: str) -> Vector:
    return Vector(
        name=name,
        source="test_readme_retries.py",
        description="",
        status=status,
        headers=headers,
        body={"text": text},
        token=None,
        transport="http",
        drop_after=None,
        trickle=None,
        body_read_timeout_ms=None,
        modes=("plain",),
        expect={},
        invariants=(),
        covers=(),
    )


VECTORS = [
    _vector(
        "limited",
        429,
        (("Retry-After-Ms", str(DELAY_MS)),),
        '{"error":{"code":"rate_limited","message":"slow down"}}',
    ),
    _vector("missing", 404, (), '{"error":{"code":"not_found","message":"no such sandbox"}}'),
    _vector("fine", 200, (), '{"id":"sb-1"}'),
]


def _run(name: str, url: str) -> str:
    """Run snippet ``name`` against ``url``: ``ok``, or the class name of what it raised."""
    lang, code = snippets()[name]
    if lang == "python":
        scope: dict[str, Any] = {"url": url, "api_key": TOKEN, "__name__": "readme_snippet"}
        try:
            exec(compile(code, f"README.md:{name}", "exec"), scope)
        except Exception as exc:
            return type(exc).__name__
        return "ok"
    prelude = f"const url = {url!r}; const apiKey = {TOKEN!r};\n"
    ending = '\nconsole.log("ok");\n'
    done = subprocess.run(
        [paths.node_binary(), "--input-type=module", "-e", prelude + code + ending],
        cwd=paths.REPO / "ts-sdk",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if done.returncode == 0:
        return done.stdout.strip().splitlines()[-1]
    found = re.search(r"^(\w+Error)\b", done.stderr, re.M)
    return found.group(1) if found else done.stderr[-2000:]


def test_the_readme_has_the_three_snippets() -> None:
    assert sorted(snippets()) == ["backoff", "p-retry", "tenacity"]


@pytest.mark.parametrize("name", ["tenacity", "backoff", "p-retry"])
def test_a_retryable_error_is_retried_with_the_servers_delay_then_raised(name: str) -> None:
    if name == "p-retry":
        from testkit.testees import require_typescript

        require_typescript()
    with LoopbackServer(VECTORS, max_requests=20, lifetime_s=60) as server:
        started = time.monotonic()
        outcome = _run(name, server.base_url + server.path(0, "plain"))
        elapsed = time.monotonic() - started
        limited = server.served
        assert _run(name, server.base_url + server.path(1, "plain")) == "NotFoundError"
        missing = server.served - limited
        assert _run(name, server.base_url + server.path(2, "plain")) == "ok"
    assert outcome == "RateLimitedError", outcome
    assert (limited, missing) == (ATTEMPTS, 1)
    assert elapsed >= (ATTEMPTS - 1) * DELAY_MS / 1000
