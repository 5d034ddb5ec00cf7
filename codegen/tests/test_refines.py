"""Refinement (``codes.X.refines``): forests validate and model, broken ones are refused where they break.

Random catalogues (:mod:`catalogue_strategies`) already hold refinement
forests, so the generated-catalogue tests import and type-check refined
classes; here each forest's model is checked against the data, and cycles,
missing or retired targets, status classes and chains over the bound are
made on purpose and must be refused with their rule, at the ``refines``
value, with a fix.
"""

from __future__ import annotations

import copy
from typing import Any

from catalogue_strategies import FUZZ_SCALE, catalogues, code_yaml, minimal_code, to_yaml
from catalogue_variants import CYCLE, edited
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.check.validate import validate
from errcat.metaschema import meta_schema
from errcat.model.catalogue import Catalogue, build_model
from errcat.model.refines import MAX_CHAIN
from errcat.problems import Problem
from errcat.source.load import parse_catalogue

BUDGET = settings(
    max_examples=25 * FUZZ_SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def problems_and_doc(data: dict[str, Any]) -> tuple[list[Problem], Any]:
    doc = parse_catalogue(to_yaml(data), "c.yaml")
    return validate(doc), doc


def model(data: dict[str, Any]) -> Catalogue:
    return build_model(data, source="c.yaml", regenerate="x")


def chain_by_hand(codes: dict[str, Any], code: str) -> list[str]:
    out = []
    while "refines" in codes[code]:
        code = codes[code]["refines"]
        out.append(code)
    return out


@BUDGET
@given(data=catalogues())
def test_a_forest_validates_and_every_code_knows_its_parent_chain_and_refinements(
    data: dict[str, Any],
) -> None:
    problems, _doc = problems_and_doc(data)
    assert problems == []
    cat = model(data)
    order = [c.code for c in cat.class_order]
    assert sorted(order) == sorted(data["codes"])
    for entry in cat.codes:
        assert entry.refines == data["codes"][entry.code].get("refines")
        assert list(entry.chain) == chain_by_hand(data["codes"], entry.code)
        below = [c for c in order if entry.code in chain_by_hand(data["codes"], c)]
        assert list(entry.refined_by) == below
        # A class comes after the class it derives from.
        assert all(order.index(parent) < order.index(entry.code) for parent in entry.chain)
        if entry.refines:
            assert entry.http // 100 == cat.code(entry.refines).http // 100


def _refused(data: dict[str, Any], rule: str, code: str) -> Problem:
    """The one problem of ``data``: ``rule``, at the ``refines`` value of ``code``."""
    problems, doc = problems_and_doc(data)
    assert [p.rule for p in problems] == [rule], "\n".join(map(str, problems))
    line, column = doc.mark(("codes", code, "refines"))
    found = problems[0]
    assert (found.file, found.line, found.column) == ("c.yaml", line, column)
    assert found.message.startswith(f"codes.{code}.refines: ")
    assert found.fix
    return found


@BUDGET
@given(data=catalogues(), picked=st.data())
def test_a_cycle_is_refused_once_at_its_first_code(
    data: dict[str, Any], picked: st.DataObject
) -> None:
    codes = data["codes"]
    data.pop("sdk", None)  # its codes' status classes would change below
    loop = picked.draw(st.lists(st.sampled_from(sorted(codes)), min_size=1, unique=True))
    for code in codes:
        codes[code]["http"] = (
            400 + codes[code]["http"] % 100
        )  # one status class: only the cycle is wrong
    for here, there in zip(loop, loop[1:] + loop[:1], strict=True):
        codes[here]["refines"] = there
    found = _refused(data, "refinement-cycle", min(loop))
    assert all(code in found.message for code in loop)


@BUDGET
@given(data=catalogues(), picked=st.data())
def test_a_refined_code_that_is_missing_retired_or_of_another_status_class_is_refused(
    data: dict[str, Any], picked: st.DataObject
) -> None:
    codes = data["codes"]
    data.pop("sdk", None)  # its codes' status classes would change below
    code = picked.draw(st.sampled_from(sorted(codes)))
    for entry in codes.values():
        entry.pop("refines", None)
    missing = copy.deepcopy(data)
    missing["codes"][code]["refines"] = "zz_no_such_code"
    _refused(missing, "unknown-refined-code", code)
    retired = copy.deepcopy(data)
    retired.setdefault("retired", {})["zz_gone"] = {"reason": "Merged."}
    retired["codes"][code]["refines"] = "zz_gone"
    _refused(retired, "refines-retired-code", code)
    others = [c for c in sorted(codes) if c != code]
    if others:
        other = picked.draw(st.sampled_from(others))
        codes[code]["refines"] = other
        codes[code]["http"] = (9 - codes[other]["http"] // 100) * 100 + codes[code]["http"] % 100
        found = _refused(data, "refinement-status-class", code)
        assert f"{codes[other]['http'] // 100}xx" in found.message


def _chain_catalogue(length: int) -> str:
    """The minimal catalogue with ``length`` codes, each refining the one before, under rate_limited."""
    codes = "".join(
        code_yaml(
            f"finer_{i}",
            minimal_code(message=f"finer {i}", refines=f"finer_{i - 1}" if i else "rate_limited"),
        )
        for i in range(length)
    )
    return edited(("  internal:\n", codes + "  internal:\n"))


def test_a_chain_of_sixteen_codes_is_valid_and_one_more_is_refused_at_the_code_that_breaks_it() -> (
    None
):
    assert validate(parse_catalogue(_chain_catalogue(MAX_CHAIN), "c.yaml")) == []
    doc = parse_catalogue(_chain_catalogue(MAX_CHAIN + 3), "c.yaml")
    problems = validate(doc)
    assert [p.rule for p in problems] == ["refinement-too-deep"]
    assert (problems[0].line, problems[0].column) == doc.mark(
        ("codes", f"finer_{MAX_CHAIN}", "refines")
    )
    assert f"at most {MAX_CHAIN}" in problems[0].message


def test_two_codes_refining_each_other_are_one_problem() -> None:
    problems = validate(parse_catalogue(edited(*CYCLE), "c.yaml"))
    assert [p.rule for p in problems] == ["refinement-cycle"]
    assert "bad_request -> rate_limited -> bad_request" in problems[0].message


def test_the_tests_minimal_code_is_valid_and_has_exactly_the_required_fields() -> None:
    code = meta_schema()["properties"]["codes"]["additionalProperties"]
    assert list(minimal_code()) == code["required"], "give MINIMAL_CODE each required field"
    text = edited(("  internal:\n", code_yaml("quota_exceeded", minimal_code()) + "  internal:\n"))
    assert validate(parse_catalogue(text, "c.yaml")) == []
