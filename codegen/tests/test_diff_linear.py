"""``errcat diff`` does work in proportion to the size of the catalogues.

Work is counted, not timed: the number of Python lines executed while
comparing (``sys.settrace`` line events), for catalogues of n, 2n and 4n
codes in which every code changes several ways and half of them are renamed
(the rename search is where a careless diff turns quadratic). Doubling the
size must at most (about) double the work.
"""

from __future__ import annotations

import copy
import itertools
from pathlib import Path

from diff_support import QUOTA, Data, base, dump
from work_count import work

from errcat.evolve import cli as evolve_cli
from errcat.evolve.compare import compare

SIZES = (40, 80, 160)
LINEAR = 2.25
"""The largest work ratio allowed when the size doubles (2 is linear, 4 quadratic)."""


def sized(codes: int) -> tuple[Data, Data]:
    """A catalogue of ``codes`` extra codes, and a copy where every one of them changed."""
    old = base()
    for i in range(codes):
        entry = copy.deepcopy(QUOTA)
        del entry["class_name"]
        entry["message"] = f"quota {i} exceeded"
        entry["context"] = ["retry_after_ms"] if i % 2 else ["dimension"]
        old["codes"][f"code_{i}"] = entry
    new = copy.deepcopy(old)
    for i in range(codes):
        entry = new["codes"][f"code_{i}"]
        entry["http"] = 403
        entry["retryable"] = not entry["retryable"]
        entry["remediation"] = f"Remedy {i}."
        entry["context"] = ["retry_after_ms", "dimension"]
        if i % 2:
            new["codes"][f"renamed_{i}"] = new["codes"].pop(f"code_{i}")
    return old, new


def _ratios(counts: list[int]) -> list[float]:
    return [later / earlier for earlier, later in itertools.pairwise(counts)]


def test_compare_work_grows_linearly(tmp_path: Path) -> None:
    counts = []
    for size in SIZES:
        old_data, new_data = sized(size)
        (tmp_path / "old.yaml").write_text(dump(old_data), encoding="utf-8")
        (tmp_path / "new.yaml").write_text(dump(new_data), encoding="utf-8")
        old = evolve_cli._side(tmp_path / "old.yaml", "old.yaml")
        new = evolve_cli._side(tmp_path / "new.yaml", "new.yaml")
        changes = compare(old, new)
        assert len(changes) > 2 * size
        counts.append(work(lambda old=old, new=new: compare(old, new)))
    assert all(ratio <= LINEAR for ratio in _ratios(counts)), (SIZES, counts)


def test_whole_command_work_grows_linearly(tmp_path: Path) -> None:
    counts = []
    for size in SIZES:
        old_data, new_data = sized(size)
        old_path, new_path = tmp_path / f"old{size}.yaml", tmp_path / f"new{size}.yaml"
        old_path.write_text(dump(old_data), encoding="utf-8")
        new_path.write_text(dump(new_data), encoding="utf-8")
        argv = [str(old_path), str(new_path)]
        counts.append(work(lambda argv=argv: evolve_cli.run(argv, _Sink(), _Sink())))
    assert all(ratio <= LINEAR for ratio in _ratios(counts)), (SIZES, counts)


class _Sink:
    """A text stream that keeps nothing."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        return None
