"""The generator does work in proportion to the number of codes.

Work is counted, not timed (:mod:`work_count`): the Python lines executed
while loading, validating, modelling and rendering the real catalogue grown
by n, 2n and 4n copies of one code, with Hypothesis choosing n. Each copy
adds the same work when the generator is linear, so the work the last 2n
codes add is twice the work the n before them add (``LINEAR`` leaves room
for n log n), in all and on every line; a step that scans every code per
code makes it up to four times on its line. A scan that runs in C without
calling Python (``x in a_tuple_of_strings``) is not counted.

The valid catalogue's copies refine one code and join a family (lookups of
a code's parent, refinements and families); the broken one's copies have
illegal class names and refine each other round one cycle (the rules'
suggestions and their walks along refinement chains).
"""

from __future__ import annotations

import copy
import functools
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from work_count import Line, line_work

from errcat.check.validate import validate
from errcat.cli import load_model
from errcat.model.catalogue import Catalogue
from errcat.render import NEUTRAL_TARGETS, render_all
from errcat.render.python import target as python
from errcat.source.load import parse_catalogue

CATALOGUE = Path(__file__).resolve().parents[2] / "catalogue" / "errors.yaml"
LINEAR = 2.3
"""The largest ratio of the work the last n codes add to the work the n before add."""

BUDGET = settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
GENERATE_BUDGET = settings(BUDGET, max_examples=2)
"""Generation traces the whole real catalogue at each of the three sizes (about ten seconds of
CPU an example): two values of n a run, drawn anew each run."""
SIZES = st.integers(min_value=30, max_value=60)


@functools.cache
def _real() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))
    return data


def grown(extra: int, *, broken: bool = False) -> dict[str, Any]:
    """The real catalogue with ``extra`` copies of ``internal``, each alike but for its name."""
    data = copy.deepcopy(_real())
    family = next(iter(data["families"].values()))
    names = [f"grown_{i:05d}" for i in range(extra)]
    for index, name in enumerate(names):
        entry = copy.deepcopy(data["codes"]["internal"])
        if broken:
            entry["class_name"] = "None"  # a Python keyword
            entry["refines"] = names[index - 1]  # the first refines the last: one cycle
        else:
            entry["refines"] = "internal"
            family["codes"].append(name)
        data["codes"][name] = entry
    return data


def _text(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def _render(cat: Catalogue) -> None:
    render_all(cat, (*NEUTRAL_TARGETS, "typescript"))
    # The Python package but its envelope models, which depend on the schema only.
    python.render_init(cat)
    python.render_catalogue(cat)
    python.render_overloads(cat)


def _counts(sizes: tuple[int, int, int], action: Callable[[int], object]) -> list[Counter[Line]]:
    """The lines ``action`` runs at each size, after one untraced run fills every cache."""
    action(sizes[0])
    return [line_work(functools.partial(action, size)) for size in sizes]


def _assert_linear(sizes: tuple[int, int, int], counts: list[Counter[Line]]) -> None:
    """The work the last codes add is at most ``LINEAR`` times what the codes before add.

    In all, and line by line: a scan of every code per code stands out on its
    own line long before it shows in the total. A line may run ``sizes[0]``
    times more than linear (a count that steps at some size, not grows with it).
    """
    totals = [sum(c.values()) for c in counts]
    assert totals[1] - totals[0] > 0, (sizes, totals)
    assert totals[2] - totals[1] <= LINEAR * (totals[1] - totals[0]), (sizes, totals)
    small, middle, large = counts
    faster = {
        line: (small[line], middle[line], large[line])
        for line in large
        if large[line] - middle[line] > LINEAR * (middle[line] - small[line]) + sizes[0]
    }
    assert not faster, (sizes, faster)


@GENERATE_BUDGET
@given(SIZES)
def test_generate_work_grows_linearly(size: int) -> None:
    sizes = (size, 2 * size, 4 * size)
    with tempfile.TemporaryDirectory() as tmp:
        # Names of one width: the source path is printed in every header.
        paths = {extra: Path(tmp) / f"grown-{extra:05d}.yaml" for extra in sizes}
        for extra, path in paths.items():
            path.write_text(_text(grown(extra)), encoding="utf-8")
        counts = _counts(sizes, lambda extra: _render(load_model(paths[extra], Path(tmp))))
    _assert_linear(sizes, counts)


@BUDGET
@given(SIZES)
def test_validate_work_grows_linearly_on_broken_catalogues(size: int) -> None:
    sizes = (size, 2 * size, 4 * size)
    docs = {extra: parse_catalogue(_text(grown(extra, broken=True)), "c.yaml") for extra in sizes}
    for doc in docs.values():
        rules = {p.rule for p in validate(doc)}
        assert {"class-name", "refinement-cycle"} <= rules, rules
    _assert_linear(sizes, _counts(sizes, lambda extra: validate(docs[extra])))
