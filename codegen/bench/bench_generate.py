"""Benchmark the generator: the real catalogue, check against generate, and growth.

Run with ``nox -s bench`` (or ``python codegen/bench/bench_generate.py`` in
an environment with errcat installed). Prints the best of several runs per
case, in milliseconds, and the ratios that the goals are stated in, all
measured in this one run.
"""

from __future__ import annotations

import copy
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from errcat.cli import load_model
from errcat.render import TARGETS, render_all
from errcat.write import plan, write_files

REPO = Path(__file__).resolve().parents[2]
CATALOGUE = REPO / "catalogue" / "errors.yaml"


def best_ms(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``repeat`` calls, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def synthetic(n: int, directory: Path) -> Path:
    """The real catalogue grown to ``n`` codes by copies of ``internal`` under new names."""
    data = yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))
    template = data["codes"]["internal"]
    index = 0
    while len(data["codes"]) < n:
        data["codes"][f"synthetic_{index:05d}"] = copy.deepcopy(template)
        index += 1
    path = directory / f"catalogue-{n}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def pipeline(catalogue: Path, out: Path, targets: tuple[str, ...]) -> Callable[[], object]:
    return lambda: render_all(load_model(catalogue, out), targets)


def main() -> None:
    fast_targets = tuple(t for t in TARGETS if t != "python")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        out.mkdir()
        # Warm up imports (jinja, jsonschema, datamodel-code-generator) once.
        files = render_all(load_model(CATALOGUE, REPO))
        write_files(files, out)

        gen = best_ms(lambda: write_files(render_all(load_model(CATALOGUE, REPO)), out), 7)
        chk = best_ms(lambda: plan(render_all(load_model(CATALOGUE, REPO)), out), 7)
        print("Real catalogue (catalogue/errors.yaml), in-process, best of 7")
        print(f"  generate (all targets, nothing to write)  {gen:8.1f} ms")
        print(f"  check    (all targets)                    {chk:8.1f} ms")
        print(f"  check / generate                          {chk / gen:8.2f}x")

        print("\nGrowth (load + validate + model + render; all targets but the Python")
        print("envelope models, which depend on the schema only), best of 3")
        sizes = (100, 1_000, 10_000)
        times = {}
        for n in sizes:
            path = synthetic(n, Path(tmp))
            times[n] = best_ms(pipeline(path, Path(tmp), fast_targets), 3 if n < 10_000 else 2)
            print(f"  {n:>6} codes  {times[n]:9.1f} ms  {times[n] / n * 1000:7.1f} us/code")
        print(f"  1,000 / 100 codes:    {times[1_000] / times[100]:5.1f}x  (linear: 10x)")
        print(f"  10,000 / 1,000 codes: {times[10_000] / times[1_000]:5.1f}x  (linear: 10x)")


if __name__ == "__main__":
    main()
