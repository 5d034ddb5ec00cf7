"""What a catalogue may leave out: the standard sanitizer (extended or overridden by rule id)
and the fallback map's standard statuses."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from catalogue_strategies import FUZZ_SCALE, catalogues
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.check.validate import validate
from errcat.model.catalogue import build_model
from errcat.model.defaults import (
    STANDARD_STATUSES,
    derived_fallback,
    effective_sanitizer,
    standard_sanitizer,
)
from errcat.render import render_all
from errcat.source.document import Document
from errcat.source.load import load_catalogue, parse_catalogue

REPO = Path(__file__).resolve().parents[2]
MITOS = REPO / "catalogue" / "errors.yaml"
MITOS_ONLY = {"Mitos API key"}
"""The Mitos catalogue's rules that are its own, so not in the standard sanitizer."""

BUDGET = settings(
    max_examples=10 * FUZZ_SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def model(data: dict[str, Any]) -> Any:
    return build_model(data, source="catalogue.yaml", regenerate="python -m errcat generate")


def valid(data: dict[str, Any]) -> dict[str, Any]:
    doc = Document("catalogue.yaml", data, {}, {})
    assert validate(doc) == []
    return data


def test_the_standard_sanitizer_is_the_mitos_one_less_its_own_rules() -> None:
    mitos = load_catalogue(MITOS).data["sanitizer"]
    standard = standard_sanitizer()
    for key, value in mitos.items():
        if key in ("secrets", "injection"):
            own = [rule for rule in value if rule["name"] not in MITOS_ONLY]
            assert [{k: v for k, v in r.items() if k != "id"} for r in standard[key]] == own
            assert all(rule["id"] for rule in standard[key])
        elif key != "standard":
            assert standard[key] == value, key
    assert "mitos" not in str(standard).lower()


def test_the_standard_sanitizer_is_a_valid_whole_section() -> None:
    data = load_catalogue(REPO / "codegen/tests/fixtures/good/minimal.yaml").data
    data["sanitizer"] = {"standard": False, **standard_sanitizer()}
    valid(data)


@BUDGET
@given(data=catalogues())
def test_a_catalogue_without_a_sanitizer_generates_with_the_standard_one(
    data: dict[str, Any],
) -> None:
    data.pop("sanitizer", None)
    written_out = copy.deepcopy(data)
    written_out["sanitizer"] = {"standard": False, **standard_sanitizer()}
    assert render_all(model(valid(data))) == render_all(model(valid(written_out)))
    names = [rule.name for rule in model(data).sanitizer.secrets]
    assert names == [rule["name"] for rule in standard_sanitizer()["secrets"]]


@BUDGET
@given(data=catalogues(), pattern=st.sampled_from(("[A-Za-z0-9]{20,}", "[A-Za-z0-9._-]{8,}")))
def test_a_rule_with_a_standard_id_overrides_it_in_place_and_others_are_added(
    data: dict[str, Any], pattern: str
) -> None:
    standard = standard_sanitizer()["secrets"]
    index = next(i for i, rule in enumerate(standard) if rule["id"] == "bearer_credential")
    own = {**standard[index], "pattern": pattern}
    added = {"id": "ours", "name": "our key", "pattern": "ours_[a-z0-9]{8,}", "triggers": ["ours_"]}
    data["sanitizer"] = {"redaction": "[hidden]", "secrets": [added, own]}
    secrets = model(valid(data)).sanitizer.secrets
    assert len(secrets) == len(standard) + 1
    assert secrets[index].portable_pattern == pattern
    assert secrets[-1].name == "our key"
    assert model(data).sanitizer.redaction == "[hidden]"
    assert model(data).sanitizer.filtered == standard_sanitizer()["filtered"]


def test_two_rules_with_one_id_are_refused() -> None:
    text = (REPO / "codegen/tests/fixtures/good/minimal.yaml").read_text(encoding="utf-8")
    text = text.replace("  standard: false\n", "", 1)
    text = text.replace(
        "    - name: bearer credential\n", "    - id: twice\n      name: bearer credential\n", 1
    )
    text = text.replace(
        "    - name: chat template special tokens\n",
        "    - id: twice\n      name: chat template special tokens\n",
        1,
    )
    doc = parse_catalogue(text, "minimal.yaml")
    assert [p.rule for p in validate(doc)] == []  # one id in each list is fine
    doubled = text.replace(
        '      triggers: ["<|"]\n',
        '      triggers: ["<|"]\n    - id: twice\n      name: again\n      pattern: "again[0-9]{4}"\n      triggers: [again]\n',
        1,
    )
    problems = validate(parse_catalogue(doubled, "minimal.yaml"))
    assert [p.rule for p in problems] == ["duplicate-rule-id"]
    assert "sanitizer.injection[0]" in problems[0].message


def test_a_whole_section_must_give_every_key() -> None:
    data = load_catalogue(REPO / "codegen/tests/fixtures/good/minimal.yaml").data
    del data["sanitizer"]["redaction"]
    problems = validate(Document("catalogue.yaml", data, {}, {}))
    assert [(p.rule, "redaction" in p.message) for p in problems] == [("missing-key", True)]
    data["sanitizer"]["standard"] = True
    assert validate(Document("catalogue.yaml", data, {}, {})) == []
    assert effective_sanitizer(data["sanitizer"])["redaction"] == "[REDACTED]"


@BUDGET
@given(data=catalogues())
def test_a_standard_status_left_out_goes_to_its_one_code_or_to_its_class(
    data: dict[str, Any],
) -> None:
    cat = model(valid(data))
    given_statuses = set(data["fallback"].get("by_status", {}))
    table = {str(status): code for status, code in cat.fallback.by_status}
    for status in STANDARD_STATUSES:
        if status in given_statuses:
            assert table[status] == data["fallback"]["by_status"][status]
            continue
        carriers = {
            code
            for code, spec in data["codes"].items()
            if spec["http"] == int(status)
            and spec.get("emitted_by") != "sdk"
            and "deprecated" not in spec
        }
        roots = sorted(c for c in carriers if data["codes"][c].get("refines") not in carriers)
        assert table.get(status) == (roots[0] if len(roots) == 1 else None)
        assert derived_fallback(data["codes"], status) == table.get(status)


def test_the_mitos_catalogue_writes_every_default_out() -> None:
    data = load_catalogue(MITOS).data
    assert data["sanitizer"]["standard"] is False
    assert set(STANDARD_STATUSES) <= set(data["fallback"]["by_status"])
