"""The rule registry: each catalogue rule is listed once, and reports only the ids listed with it."""

from __future__ import annotations

import inspect
from collections import Counter
from pathlib import Path

import pytest

from errcat.check import rules
from errcat.check.context import Context
from errcat.check.rules import RETIRED, RULES, Rule
from errcat.check.validate import validate
from errcat.source.load import parse_catalogue

MITOS = Path(__file__).resolve().parents[2] / "catalogue" / "errors.yaml"
TESTS = Path(__file__).resolve().parent


def test_each_rule_is_one_function_over_the_context() -> None:
    for rule in RULES:
        parameters = list(inspect.signature(rule.check).parameters.values())
        assert [p.annotation for p in parameters] == ["Context"], rule.check.__qualname__
        assert rule.check.__module__.startswith("errcat.check."), rule.check.__qualname__
    assert len({rule.check for rule in RULES}) == len(RULES), "a rule is listed twice"


def test_each_rule_id_belongs_to_one_rule() -> None:
    # retired-code-referenced is the one id shared: every rule that names codes reports it.
    counts = Counter(rule_id for rule in RULES for rule_id in rule.ids if rule_id != RETIRED)
    assert [rule_id for rule_id, n in counts.items() if n > 1] == []


def test_each_rule_id_is_exercised_by_a_test() -> None:
    # An id nothing in the tests names is a rule no test would see break.
    tests = "".join(p.read_text(encoding="utf-8") for p in TESTS.rglob("*.py"))
    tests += "".join(p.read_text(encoding="utf-8") for p in TESTS.rglob("*.json"))
    unnamed = sorted(
        rule_id
        for rule in RULES
        for rule_id in rule.ids
        if f"[{rule_id}]" not in tests and f'"{rule_id}"' not in tests
    )
    assert unnamed == []


def test_a_rule_cannot_report_an_id_it_is_not_listed_with(monkeypatch: pytest.MonkeyPatch) -> None:
    def stray(ctx: Context) -> None:
        ctx.add(("codes",), "code-name", "a message", "a fix")

    monkeypatch.setattr(rules, "RULES", (Rule(stray, ("something-else",)),))
    doc = parse_catalogue(MITOS.read_bytes(), "errors.yaml")
    with pytest.raises(ValueError, match="'code-name' is not registered"):
        validate(doc)


def test_a_listed_rule_runs_and_its_problems_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    def always(ctx: Context) -> None:
        ctx.add(("codes",), "always", "every catalogue fails this", "remove the rule")

    monkeypatch.setattr(rules, "RULES", (*RULES, Rule(always, ("always",))))
    doc = parse_catalogue(MITOS.read_bytes(), "errors.yaml")
    assert [p.rule for p in validate(doc)] == ["always"]
