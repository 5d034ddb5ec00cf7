"""Pathological bodies parse in linear time: no step of error_from_body scans a run once per position.

The families are the benchmark's (``bench/bench.py``: unclosed strings of
escapes, runs of quotes and backslashes, deep nesting, partial secrets), at
1 KiB, 8 KiB and the 64 KiB body cap, and random mixes of their pieces. Each
result must equal the contract's reference implementation, and the guard
fails a call that runs for seconds (a hang detector, not a timer: the speed
itself is measured by ``nox -s bench``).
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest
from testkit.oracle import REFERENCE, fields_of, hang_guard

from mitos_errors import error_from_body


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "bench" / "bench.py"
    spec = importlib.util.spec_from_file_location("mitos_errors_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


def _check(body: bytes, status: int) -> None:
    with hang_guard(3):
        got = fields_of(error_from_body(body, status=status))
    assert got == REFERENCE.error_from_body(body, status=status), body[:80]


@pytest.mark.parametrize("size", BENCH.WORST_CASE_SIZES)
@pytest.mark.parametrize("family", sorted(BENCH.WORST_CASE_FAMILIES))
def test_pathological_families_parse_in_linear_time(family: str, size: int) -> None:
    _check(BENCH.worst_case_body(family, size), 500)


def test_random_mixes_of_pathological_pieces_parse_in_linear_time() -> None:
    rng = random.Random(9)
    deep = BENCH.DEEP
    pieces = ['\\"', "\\\\", '"', "[", "{", "]", "}", '{"a":', "\\", ":", ",", "x", " ", "%", deep]
    for _ in range(40):
        size = rng.choice(BENCH.WORST_CASE_SIZES)
        head = rng.choice(["", deep, BENCH.ENVELOPE_CAUSE])
        body = head + "".join(rng.choice(pieces) * rng.randint(1, 400) for _ in range(400))
        _check(body.encode()[:size], rng.choice([400, 500, 502]))
