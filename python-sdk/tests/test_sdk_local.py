"""Errors the SDK raises itself: the timeout ceiling and exit code 124 (contract section 3)."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mitos_errors
from mitos_errors import error_for_exit, validate_timeout
from mitos_errors._generated import catalogue

CEILING = catalogue.MAX_EXEC_TIMEOUT_S


@pytest.mark.parametrize("value", [1, 30, 0.5, CEILING, float(CEILING), Decimal("12.5")])
def test_valid_timeouts_are_returned_unchanged(value: float) -> None:
    assert validate_timeout(value) is value


@pytest.mark.parametrize("value", [CEILING + 1, CEILING + 0.001, 10**30, 1e300])
def test_over_the_ceiling_is_rejected_never_clamped(value: float) -> None:
    with pytest.raises(mitos_errors.TimeoutTooLargeError) as info:
        validate_timeout(value)
    err = info.value
    assert err.status is None
    assert err.context["max_timeout_s"] == CEILING
    if value < 2**53:
        assert err.context["requested_s"] == value
    assert err.message == mitos_errors.code_spec("timeout_too_large").message  # type: ignore[union-attr]


def test_a_custom_ceiling() -> None:
    assert validate_timeout(10, max_timeout_s=10) == 10
    with pytest.raises(mitos_errors.TimeoutTooLargeError) as info:
        validate_timeout(11, max_timeout_s=10)
    assert dict(info.value.context) == {"requested_s": 11, "max_timeout_s": 10}


@pytest.mark.parametrize(
    ("value", "context"),
    [
        (0, {"requested_s": 0}),
        (-5, {"requested_s": -5}),
        (-0.5, {"requested_s": -0.5}),
        (math.nan, {}),
        (math.inf, {}),
        (-math.inf, {}),
        ("30", {}),
        (None, {}),
        (True, {}),
        ([30], {}),
        (10**400, {}),  # beyond any double: infinite, as in JavaScript
    ],
)
def test_zero_negative_and_non_numbers_are_invalid_input(value: object, context: dict[str, object]) -> None:
    with pytest.raises(mitos_errors.InvalidInputError) as info:
        validate_timeout(value)  # type: ignore[arg-type]
    assert dict(info.value.context) == context
    assert info.value.status is None


def test_exit_124_is_the_execution_deadline_with_partial_output() -> None:
    out = "step 1 ok\nstep 2 \x1b[31mfailed\x1b[0m Bearer abcdefghijkl " + "x" * 5000
    err = error_for_exit(124, timeout_s=30.0, stdout=out, stderr=b"killed\xff", token="abcdefghijkl")
    assert type(err) is mitos_errors.ExecutionDeadlineError
    assert list(err.context) == ["exit_code", "timeout_s", "stdout", "stderr"]
    assert err.context["exit_code"] == 124 and err.context["timeout_s"] == 30
    stdout = err.context["stdout"]
    assert isinstance(stdout, str)
    assert stdout.startswith("step 1 ok step 2 [31mfailed[0m Bearer [REDACTED] ")
    assert len(stdout) == catalogue.TEXT_MAX_CHARS and stdout.endswith("\u2026[truncated]")
    assert err.context["stderr"] == "killed\ufffd"
    assert err.status is None


def test_other_exit_codes_give_none() -> None:
    for code in (0, 1, 123, 125, 137, -1):
        assert error_for_exit(code, stdout="x") is None
    assert error_for_exit(True) is None
    err = error_for_exit(124)
    assert err is not None and dict(err.context) == {"exit_code": 124, "stdout": "", "stderr": ""}


_INVISIBLE = st.sampled_from(["\u200b", "\u0000", "\u200e", "\u2066", "\ufeff", "\u0007"])


@settings(max_examples=200, deadline=None)
@given(
    code=st.lists(_INVISIBLE, max_size=4).map("".join),
    message=st.text(alphabet=st.characters(min_codepoint=0x41, max_codepoint=0x7A), min_size=1, max_size=20),
    status=st.none() | st.integers(100, 599),
    value=st.integers(-1000, 1000),
)
def test_a_code_empty_once_sanitized_gives_the_base_class_with_the_callers_texts(
    code: str, message: str, status: int | None, value: int
) -> None:
    # Contract section 3: a code the catalogue does not define; the status picks texts, never the class.
    err = mitos_errors.error_for_code(code, message, status=status, context={"sandbox_id": value})
    assert type(err) is mitos_errors.AgentRunError
    assert (err.code, err.message, err.status, err.retryable) == ("", message, status, False)
    assert dict(err.context) == {"sandbox_id": value}
