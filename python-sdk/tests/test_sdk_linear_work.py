"""Linear time (docs/sdk-contract.md section 2a), held by counting work, never by a clock.

Two counts, each compared between the 1 KiB and the 64 KiB body of every
pathological family of the benchmark (``bench/bench.py``, which has the
TypeScript benchmark's families too):

- the Python lines the SDK runs (``sys.settrace`` on its own modules): a
  loop once per position of a run, or a scan repeated per match, grows with
  the square of the size;
- the characters every catalogue pattern is given to read (each ``search``
  from its start to its match's end, or to the end of the text when it
  fails; each anchored ``match`` up to its cut): a pattern run once per
  position, or on the whole text after each prefix, does too.

Linear work grows 64-fold from 1 to 64 KiB; the contract allows 80. What the
regular expression engine does inside one window is the catalogue's part of
the contract (its patterns never backtrack more than a constant per
character) and is measured by the worst-case benchmark; long hostile runs
through the sanitizer are held to it here by a hang guard.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any

import pytest
from testkit.oracle import REFERENCE, hang_guard

import mitos_errors
from mitos_errors import _sanitize, error_from_body, sanitize_text
from mitos_errors._generated import catalogue
from mitos_errors._sanitize import sanitize_with, token_forms

PACKAGE_DIR = str(Path(mitos_errors.__file__).parent)
LIMIT = 80


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "bench" / "bench.py"
    spec = importlib.util.spec_from_file_location("mitos_errors_bench_linear", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


class _Counting:
    """A compiled pattern that adds to ``tally`` the characters each call may read."""

    def __init__(self, pattern: Any, tally: list[int]) -> None:
        self._pattern, self._tally = pattern, tally

    def search(self, text: str, pos: int = 0) -> Any:
        m = self._pattern.search(text, pos)
        self._tally[0] += (m.end() if m is not None else len(text)) - pos + 1
        return m

    def match(self, text: str, pos: int, endpos: int) -> Any:
        self._tally[0] += endpos - pos + 1
        return self._pattern.match(text, pos, endpos)


@contextmanager
def counting_patterns() -> Iterator[list[int]]:
    """Every catalogue rule's prefix and pattern wrapped to count what they read."""
    tally = [0]
    real = _sanitize._compiled()

    def wrap(rules: Any) -> tuple[Any, ...]:
        return tuple(
            (None if p is None else _Counting(p, tally), _Counting(q, tally), t) for p, q, t in rules
        )

    saved = (real.injection, real.secrets)
    real.injection, real.secrets = wrap(real.injection), wrap(real.secrets)
    try:
        yield tally
    finally:
        real.injection, real.secrets = saved


def lines_run(call: Any) -> int:
    """The number of lines of the SDK's own modules that ``call()`` runs."""
    count = [0]

    def local(frame: FrameType, event: str, arg: object) -> Any:
        if event == "line":
            count[0] += 1
        return local

    def tracer(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_code.co_filename.startswith(PACKAGE_DIR) else None

    sys.settrace(tracer)
    try:
        call()
    finally:
        sys.settrace(None)
    return count[0]


def work(body: bytes) -> tuple[int, int]:
    """(SDK lines run, pattern characters read) of one ``error_from_body``, with a token."""
    with counting_patterns() as tally:
        lines = lines_run(lambda: error_from_body(body, status=500, token=BENCH.WORST_CASE_TOKEN))
    return lines, tally[0]


def _growth(small: int, big: int) -> float:
    # A constant amount of work (a few lines whatever the size) grows by 1; +50 keeps tiny counts honest.
    return (big + 50) / (small + 50)


@pytest.mark.parametrize("family", sorted(BENCH.WORST_CASE_FAMILIES))
def test_work_grows_linearly_with_the_body(family: str) -> None:
    small = work(BENCH.worst_case_body(family, 1024))
    big = work(BENCH.worst_case_body(family, 64 * 1024))
    assert _growth(small[0], big[0]) <= LIMIT, ("lines", small[0], big[0])
    assert _growth(small[1], big[1]) <= LIMIT, ("pattern characters", small[1], big[1])


def test_the_counts_see_quadratic_work() -> None:
    """The counters can fail: a pattern run once per position reads a quadratic number of characters."""
    text = "bearer " * 64
    with counting_patterns() as tally:
        rules = _sanitize._compiled().secrets
        for start in range(len(text)):
            rules[0][1].match(text, start, len(text))
    assert tally[0] > LIMIT * len(text)
    assert lines_run(lambda: [None for _ in range(10)]) == 0  # only the SDK's own lines count
    assert lines_run(lambda: _sanitize.sanitize_steps("x" * 10, ())) > 0


@pytest.mark.parametrize("seed", range(4))
def test_random_mixes_of_secret_and_marker_shapes_grow_linearly(seed: int) -> None:
    rng = random.Random(seed)
    pieces = [
        "bearer ",
        "Bearer ",
        "basic ",
        "password=",
        "sk-",
        "a://",
        "b:",
        "@",
        "eyJ",
        "a.",
        "ignore ",
        "previous ",
        "-----BEGIN ",
        "PRIVATE KEY-----",
        "%",
        "\\u200b",
        "tok_9f8e7d",
        "<|",
        "x",
        " ",
    ]
    unit = "".join(rng.choice(pieces) for _ in range(40))
    head, tail = BENCH.ENVELOPE_CAUSE, '"}}'

    def body(size: int) -> bytes:
        return (head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail).encode()

    small, big = work(body(1024)), work(body(64 * 1024))
    assert _growth(small[0], big[0]) <= LIMIT, ("lines", unit, small[0], big[0])
    assert _growth(small[1], big[1]) <= LIMIT, ("pattern characters", unit, small[1], big[1])


# Long runs on which the URL and JWT patterns would backtrack quadratically but
# for the catalogue's fixed-width lookbehinds, which make each run scan once. The
# guard fails the test if a call hangs (it is a hang detector, not a benchmark).
HOSTILE_RUNS = {
    "url scheme run": "x:// " + "a" * 63_000,
    "scheme run before ://": "a" * 63_000 + "://x",
    "dotted scheme run": "a." * 31_500 + "://",
    "many eyJ": "eyJ" * 21_000,
    "eyJ segments": "eyJaaaa." * 7_875,
    "userinfo colons": "a://" + "b:" * 31_500,
    "userinfo run": "a://" + ":" * 63_000,
    "basic run": "basic " + "a" * 63_000,
    "private key run": "-----BEGIN " + "A" * 63_000,
    "override spaces": "ignore" + " " * 63_000,
    "assignment run": "token" * 12_600,
    "bearer words": "bearer " * 9_000,
    "chat tokens": "<|" * 31_500,
}


@pytest.mark.parametrize("name", sorted(HOSTILE_RUNS))
def test_long_hostile_runs_sanitize_without_backtracking(name: str) -> None:
    text = HOSTILE_RUNS[name]
    with hang_guard(5):
        out = sanitize_text(text)
        forms = token_forms("tok")
        body_field = sanitize_with(text, forms)
    assert out == REFERENCE.sanitize(text)
    assert body_field == REFERENCE.sanitize(text, "tok")
    assert len(out) <= catalogue.TEXT_MAX_CHARS
