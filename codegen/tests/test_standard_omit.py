"""``sanitizer.omit``: a section that builds on the standard sanitizer leaves standard rules out by id.

Generated catalogues omit any set of standard rules (the model then has every
other standard rule, in order, and the section's own), or name an id that is
no standard rule's, omit in a whole sanitizer (``standard: false``), or omit a
rule they also replace: each of those is refused at its own line and column.
"""

from __future__ import annotations

import re
from typing import Any

from catalogue_strategies import FUZZ_SCALE, SANITIZER, SNAKE, catalogues, to_yaml
from catalogue_variants import MINIMAL_TEXT
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from errcat.check.validate import validate
from errcat.model.catalogue import build_model
from errcat.model.defaults import RULE_LISTS, standard_rule_ids, standard_sanitizer
from errcat.problems import Problem
from errcat.source.load import parse_catalogue

SETTINGS = settings(
    max_examples=20 * FUZZ_SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
STANDARD_IDS = sorted(standard_rule_ids())


def _validated(data: dict[str, Any]) -> tuple[str, list[Problem]]:
    text = to_yaml(data)
    return text, validate(parse_catalogue(text, "drawn.yaml"))


def _line_of(text: str, pattern: str) -> int:
    """The 1-based line of the first line of ``text`` that matches ``pattern``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if re.fullmatch(pattern, line))


def test_a_standard_id_names_one_rule_across_both_lists() -> None:
    standard = standard_sanitizer()
    ids = [rule["id"] for key in RULE_LISTS for rule in standard[key]]
    assert len(ids) == len(set(ids)) == len(STANDARD_IDS)


@SETTINGS
@given(data=catalogues(), omit=st.lists(st.sampled_from(STANDARD_IDS), min_size=1, unique=True))
def test_omitted_standard_rules_are_left_out_and_the_rest_kept_in_order(
    data: dict[str, Any], omit: list[str]
) -> None:
    section = data.get("sanitizer") or {}
    assume(section.get("standard") is not False)
    own = {rule["id"]: rule["name"] for key in RULE_LISTS for rule in section.get(key, [])}
    omit = [rule_id for rule_id in omit if rule_id not in own]
    assume(omit)
    data["sanitizer"] = {**section, "omit": omit}
    _, problems = _validated(data)
    assert problems == []
    cat = build_model(data, source="drawn.yaml", regenerate="x")
    standard = standard_sanitizer()
    for key in RULE_LISTS:
        kept = [own.get(r["id"], r["name"]) for r in standard[key] if r["id"] not in omit]
        added = [r["name"] for r in section.get(key, []) if r["id"] not in standard_rule_ids()]
        assert [rule.name for rule in getattr(cat.sanitizer, key)] == kept + added


@SETTINGS
@given(data=catalogues(), unknown=SNAKE, at=st.integers(0, 3))
def test_an_id_no_standard_rule_has_is_refused_where_it_is_written(
    data: dict[str, Any], unknown: str, at: int
) -> None:
    assume(unknown not in STANDARD_IDS)
    section = data.get("sanitizer") or {}
    assume(section.get("standard") is not False)
    omit = [rule_id for rule_id in section.get("omit", []) if rule_id != unknown]
    omit.insert(min(at, len(omit)), unknown)
    data["sanitizer"] = {**section, "omit": omit}
    text, problems = _validated(data)
    line = _line_of(text, f'  - {unknown}|  - "{unknown}"')
    assert [(p.rule, p.line, p.column) for p in problems] == [("unknown-standard-rule", line, 5)]
    (problem,) = problems
    assert problem.message.endswith(f'"{unknown}" is not the id of a standard rule')
    assert problem.fix.startswith("write ") or problem.fix.endswith(", ".join(STANDARD_IDS))


def test_a_near_miss_gets_the_standard_id_as_its_fix() -> None:
    data = dict(parse_catalogue(MINIMAL_TEXT, "minimal.yaml").data)
    data["sanitizer"] = {"omit": ["url_credential"]}
    _, problems = _validated(data)
    assert [(p.rule, p.fix) for p in problems] == [
        ("unknown-standard-rule", 'write "url_credentials"')
    ]


@SETTINGS
@given(data=catalogues(), omit=st.lists(st.sampled_from(STANDARD_IDS), min_size=1, unique=True))
def test_omit_in_a_whole_sanitizer_is_refused(data: dict[str, Any], omit: list[str]) -> None:
    data["sanitizer"] = {"standard": False, "omit": omit, **SANITIZER, **_markers()}
    text, problems = _validated(data)
    line = _line_of(text, "  omit:")
    assert [(p.rule, p.line, p.column) for p in problems] == [("omit-without-standard", line, 3)]


def _markers() -> dict[str, str]:
    return {"redaction": "[x]", "filtered": "[f]", "truncation_marker": "…"}


@SETTINGS
@given(data=catalogues(), replaced=st.sampled_from(STANDARD_IDS))
def test_omitting_a_rule_the_section_replaces_is_refused(
    data: dict[str, Any], replaced: str
) -> None:
    key = standard_rule_ids()[replaced]
    rule = {"id": replaced, "name": "own", "pattern": "own_[a-z]{8,}", "triggers": ["own_"]}
    data["sanitizer"] = {"omit": [replaced], key: [rule]}
    text, problems = _validated(data)
    line = _line_of(text, f"  - id: {replaced}")
    assert [(p.rule, p.line) for p in problems] == [("omitted-rule-replaced", line)]
    assert problems[0].fix.startswith(f'remove "{replaced}" from sanitizer.omit')
