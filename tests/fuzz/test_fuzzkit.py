"""The fuzz session's own machinery: its checks catch what they claim to, its shrinker shrinks, its cases replay.

Planted failures stand in for an SDK: a result changed in one field, a token
left in a text, a removed character kept, a text past the cap. The SDK runs
themselves are ``nox -s fuzz``.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest

from errcat.cli import load_model
from testkit.fuzz import cases
from testkit.fuzz.bodies import jstr
from testkit.fuzz.checks import Checker, same_delay
from testkit.fuzz.runners import run_python
from testkit.fuzz.shrink import shrink
from testkit.fuzz.texts import Pool

HERE = Path(__file__).resolve().parent

ROOT = HERE.parent.parent
TOKEN = "tok_Zq8xW3vN5mL1pR7s"


@pytest.fixture(scope="module")
def pool() -> Pool:
    return Pool(load_model(ROOT / "catalogue" / "errors.yaml", ROOT))


def _case(cause: str, token: str | None = TOKEN) -> dict[str, Any]:
    body = [
        "obj",
        [
            [
                jstr("error"),
                ["obj", [[jstr("code"), jstr("internal")], [jstr("cause"), jstr(cause)]]],
            ]
        ],
    ]
    return {"status": 500, "headers": [], "body": body, "as_text": False, "token": token}


def _as_typescript(result: dict[str, Any]) -> dict[str, Any]:
    """The Python result as the TypeScript SDK would show it (its string form is ``Name: message``)."""
    shown = {**result["forms"], "str": f"{result['class']}: {result['message']}"}
    return {**copy.deepcopy(result), "forms": shown}


def _labels(checker: Checker, case: dict[str, Any], python: Any, typescript: Any) -> set[str]:
    return {label for label, _ in checker.findings(case, python, typescript)}


def test_identical_results_pass(pool: Pool) -> None:
    case = _case("the sandbox sb-1 is gone")
    result = run_python(case, cases.body_of(case))
    assert _labels(Checker(pool), case, result, _as_typescript(result)) == set()


def test_a_changed_field_a_leak_a_kept_character_and_a_long_text_are_caught(pool: Pool) -> None:
    case = _case("the sandbox sb-1 is gone")
    python = run_python(case, cases.body_of(case))
    typescript = _as_typescript(python)
    typescript["cause"] = f"gone {TOKEN} \u200b" + "x" * pool.cap
    typescript["context"] = {"k": True}
    python["context"] = {"k": 1}
    found = _labels(Checker(pool), case, python, typescript)
    assert {"differ:cause", "differ:context", "typescript:leak:cause"} <= found
    assert {"typescript:removed-char:cause", "typescript:over-cap:cause"} <= found


def test_a_throw_is_a_finding(pool: Pool) -> None:
    case = _case("x")
    python = run_python(case, cases.body_of(case))
    assert "typescript:threw" in _labels(Checker(pool), case, python, {"threw": "TypeError: boom"})


def test_delays_from_now_compare_through_the_clock() -> None:
    python = {"retry_after_ms": 5000, "before": 1000, "after": 1001}
    assert same_delay(python, {"retry_after_ms": 4000, "before": 2000, "after": 2002})
    assert not same_delay(python, {"retry_after_ms": 3000, "before": 2000, "after": 2002})
    assert same_delay(
        {**python, "retry_after_ms": 0}, {"retry_after_ms": 0, "before": 9, "after": 9}
    )
    assert not same_delay(
        {**python, "retry_after_ms": None}, {"retry_after_ms": 0, "before": 9, "after": 9}
    )


def test_the_shrinker_keeps_only_what_fails(pool: Pool) -> None:
    case = cases.generate(random.Random(3), pool)
    case["body"] = ["seq", [case["body"], ["raw", "needle"], case["body"]]]

    def fails(c: dict[str, Any]) -> bool:
        body = cases.body_of(c)
        return (b"needle" if isinstance(body, bytes) else "needle") in body

    small, _ = shrink(case, fails)
    assert cases.body_of(small) in (b"needle", "needle")
    assert small["token"] is None
    assert small["headers"] == []


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cases_replay_and_render(pool: Pool, seed: int) -> None:
    for index in range(200):
        first = cases.generate(random.Random(f"{seed}:{index}"), pool)
        assert first == cases.generate(random.Random(f"{seed}:{index}"), pool)
        cases.request(first, cases.body_of(first))
