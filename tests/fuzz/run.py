"""Differential fuzzing of both SDKs' public APIs: ``nox -s fuzz`` (``-- --cases N``, ``--seed S``).

Generates hostile error responses from a seed (case ``i`` depends only on the
seed and ``i``), runs each through Python's ``mitos_errors.error_from_body``
in this process and TypeScript's ``errorFromBody`` in one ``node`` process,
compares every public field and checks the invariants (nothing raised, no
token form, no removed character, every text within the cap). Each kind of
failure is shrunk to a small case and printed as a conformance vector. Exits 1
on any failure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from errcat.cli import load_model
from testkit.fuzz import cases as casegen
from testkit.fuzz.checks import Checker, Finding
from testkit.fuzz.runners import run_both
from testkit.fuzz.shrink import shrink
from testkit.fuzz.texts import Pool
from testkit.fuzz.vector import vector
from testkit.reference import Reference
from testkit.testees import NodeTestee

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

ENTRY = ROOT / "ts-sdk" / "dist" / "cjs" / "index.js"
Case = dict[str, Any]


def make_case(pool: Pool, seed: int, index: int) -> Case:
    """Case ``index`` of ``seed``: the same on every run and machine."""
    return casegen.generate(random.Random(f"{seed}:{index}"), pool)


def _args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="nox -s fuzz --", description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2000, help="how many cases (default 2000)")
    parser.add_argument("--seed", type=int, help="the seed to replay (default: a new one, printed)")
    parser.add_argument("--case", type=int, help="run only this case of the seed")
    parser.add_argument("--batch", type=int, default=400, help="cases per round trip to node")
    parser.add_argument(
        "--shrink", type=int, default=12, help="kinds of failure to shrink and print"
    )
    parser.add_argument("--budget", type=int, default=3000, help="tries per shrink")
    parser.add_argument("--report", type=Path, help="also write the findings as JSON here")
    parser.add_argument(
        "--ts-entry", type=Path, default=ENTRY, help="the built TypeScript SDK to load"
    )
    return parser.parse_args(argv)


class Session:
    """One fuzz run: the worker, the checks, and what failed."""

    def __init__(self, pool: Pool, worker: NodeTestee) -> None:
        self.pool, self.worker, self.checker = pool, worker, Checker(pool)
        self.first: dict[str, tuple[int, Case, list[Finding]]] = {}
        self.counts: Counter[str] = Counter()
        self.reached: Counter[str] = Counter()
        self.failed = 0

    def _tally(self, python: dict[str, Any]) -> None:
        """Count what the case reached, to show what the generator exercises."""
        shown = " ".join(
            str(python.get(k))
            for k in ("code", "message", "cause", "remediation", "request_id", "context")
        )
        san = self.pool.cat.sanitizer
        for name, marker in (
            ("redacted", san.redaction),
            ("filtered", san.filtered),
            ("truncated", san.truncation_marker),
        ):
            self.reached[name] += marker in shown
        self.reached["unknown code"] += python.get("class") == self.pool.cat.base_class
        known = {c.code for c in self.pool.cat.codes}
        self.reached["refined class"] += (
            python.get("class") != self.pool.cat.base_class and python.get("code") not in known
        )
        self.reached["retry delay"] += python.get("retry_after_ms") is not None
        self.reached["context kept"] += bool(python.get("context"))
        self.reached["request id"] += python.get("request_id") is not None

    def check(self, batch: list[tuple[int, Case]]) -> None:
        """Run a batch and record its failures (the first case of each kind kept)."""
        results = run_both(self.worker, [c for _, c in batch])
        for (index, case), (python, typescript) in zip(batch, results, strict=True):
            self._tally(python)
            found = self.checker.findings(case, python, typescript)
            if not found:
                continue
            self.failed += 1
            labels = {label for label, _ in found}
            self.counts.update(labels)
            for label in labels:
                self.first.setdefault(label, (index, case, found))

    def labels_of(self, case: Case) -> set[str]:
        """The failure labels of one case, run again."""
        ((python, typescript),) = run_both(self.worker, [case])
        return {label for label, _ in self.checker.findings(case, python, typescript)}


def _progress(done: int, total: int, started: float, failed: int) -> None:
    rate = done / max(1e-9, time.perf_counter() - started)
    print(f"  {done}/{total} cases, {rate:,.0f} cases/s, {failed} failing", flush=True)


def _report_kind(
    session: Session, ref: Reference, seed: int, primary: str, args: argparse.Namespace
) -> dict[str, Any]:
    """Shrink the first case that failed with ``primary``, print it and its vector."""
    index, case, _ = session.first[primary]
    small, tries = shrink(case, lambda c: primary in session.labels_of(c), args.budget)
    ((python, typescript),) = run_both(session.worker, [small])
    details = session.checker.findings(small, python, typescript)
    name = f"fuzz/{primary.replace(':', '-').replace(' ', '-')}-{seed}-{index}"
    why = "; ".join(f"{label}: {detail}" for label, detail in details[:6])[:1500]
    vec = vector(ref, name, small, why)
    verdicts = {}
    for field in {label.split(":", 1)[1] for label, _ in details if label.startswith("differ:")}:
        want = vec["expect"].get(field, "<not in expect>")
        verdicts[field] = {
            "python": python.get(field),
            "typescript": typescript.get(field),
            "reference": want,
        }
    print(
        f"\n== {primary}: {session.counts[primary]} cases; first: case {index} (replay: --seed {seed} --case {index})"
    )
    print(f"   shrunk in {tries} tries to:")
    for label, detail in details:
        print(f"   - {label}: {detail[:600]}")
    for field, sides in verdicts.items():
        print(f"   {field}: " + json.dumps(sides, ensure_ascii=True)[:1200])
    print("   vector:")
    print(json.dumps(vec, indent=2, ensure_ascii=True))
    return {
        "label": primary,
        "index": index,
        "shrunk": small,
        "findings": details,
        "verdicts": verdicts,
        "vector": vec,
    }


def main(argv: list[str]) -> int:
    """Run the session; 0 when every case passed."""
    args = _args(argv)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    cat = load_model(ROOT / "catalogue" / "errors.yaml", ROOT)
    pool = Pool(cat)
    indexes = [args.case] if args.case is not None else list(range(args.cases))
    print(
        f"fuzz: seed {seed}, {len(indexes)} cases (replay: nox -s fuzz -- --seed {seed} --cases {args.cases})",
        flush=True,
    )
    pool.by_category  # noqa: B018  (built before the clock starts)
    worker = NodeTestee(args.ts_entry)
    session = Session(pool, worker)
    started = last = time.perf_counter()
    try:
        for start in range(0, len(indexes), args.batch):
            chunk = indexes[start : start + args.batch]
            session.check([(i, make_case(pool, seed, i)) for i in chunk])
            if time.perf_counter() - last > 15:
                last = time.perf_counter()
                _progress(start + len(chunk), len(indexes), started, session.failed)
        elapsed = time.perf_counter() - started
        print(
            f"fuzz: seed {seed}: {len(indexes)} cases in {elapsed:.1f} s, {len(indexes) / elapsed:,.0f} cases/s;"
            f" {session.failed} failing, {len(session.first)} kinds",
            flush=True,
        )
        reached = ", ".join(
            f"{name} {count / len(indexes):.0%}" for name, count in session.reached.items()
        )
        print(f"  cases that reached: {reached}")
        for label, count in session.counts.most_common():
            print(f"  {count:8d}  {label}")
        ref = Reference(cat)
        kinds = sorted(session.first, key=lambda k: -session.counts[k])[: args.shrink]
        reports = [_report_kind(session, ref, seed, label, args) for label in kinds]
    finally:
        worker.close()
    if args.report:
        summary = {
            "seed": seed,
            "cases": len(indexes),
            "seconds": elapsed,
            "failing": session.failed,
            "counts": dict(session.counts),
            "kinds": reports,
        }
        args.report.write_text(json.dumps(summary, indent=1, ensure_ascii=True, default=str) + "\n")
    if session.first:
        print(f"\nfuzz: FAILED: {session.failed} of {len(indexes)} cases (seed {seed})")
        return 1
    print(f"fuzz: every case agreed and held the invariants (seed {seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
