"""One typed class per catalogue code, registered, exported, classified and picklable."""

from __future__ import annotations

import json
import pickle

import pytest

import mitos_errors
from mitos_errors import AgentRunError, error_for_code, error_from_body, lookup
from mitos_errors._generated import catalogue
from mitos_errors._spec import SPECS

CODES = sorted(catalogue.SPECS)


def envelope(code: object, **fields: object) -> bytes:
    """An error envelope as bytes."""
    return json.dumps({"error": {"code": code, **fields}}).encode()


@pytest.mark.parametrize("code", CODES)
def test_every_code_yields_its_class_from_an_envelope(code: str) -> None:
    spec = SPECS[code]
    err = error_from_body(envelope(code, message="m", remediation="r"), status=spec.http_status)
    cls = getattr(mitos_errors, spec.class_name)
    assert type(err) is cls
    assert err.code == code
    assert (err.message, err.remediation, err.cause) == ("m", "r", spec.cause)
    assert cls.http_status == spec.http_status
    assert cls.grpc_status == spec.grpc_status
    assert lookup(code) is cls
    assert isinstance(err, AgentRunError)


@pytest.mark.parametrize("code", CODES)
def test_every_class_is_public_documented_and_named_after_the_package(code: str) -> None:
    cls = lookup(code)
    assert cls.__name__ in mitos_errors.__all__
    assert cls.__module__ == "mitos_errors"
    assert cls.__doc__ and SPECS[code].cause.split()[0] in cls.__doc__
    assert cls.catalogue_code == code


def test_all_names_resolve_and_nothing_else_is_claimed() -> None:
    missing = [name for name in mitos_errors.__all__ if not hasattr(mitos_errors, name)]
    assert missing == []
    assert len(set(mitos_errors.__all__)) == len(mitos_errors.__all__)
    classes = {c.__name__ for c in map(lookup, CODES)} | {"AgentRunError"}
    exported = {n for n in mitos_errors.__all__ if isinstance(getattr(mitos_errors, n), type)}
    assert classes <= exported


def test_mitos_run_names_and_signatures_still_work() -> None:
    # mitos-run 0.3.1: AgentRunError(message, code, cause="", remediation="", status=None, context=None)
    err = mitos_errors.AgentRunError("boom", "exec_failed", "cause", "fix it", 500, {"sandbox": "sb-1"})
    assert (err.message, err.code, err.cause, err.remediation, err.status) == (
        "boom",
        "exec_failed",
        "cause",
        "fix it",
        500,
    )
    assert dict(err.context) == {"sandbox": "sb-1"}
    legacy = mitos_errors.TimeoutTooLargeError(
        "too long", code="timeout_too_large", context={"requested_s": 90000, "max_timeout_s": 86400}
    )
    assert legacy.context["requested_s"] == 90000
    typed = error_for_code("rate_limited", "slow down", status=429, context={"retry_after_ms": 5})
    assert type(typed) is mitos_errors.RateLimitedError
    assert typed.retry_after_ms == 5
    assert str(typed).startswith("[rate_limited] slow down | cause: ")


def test_a_leaf_defaults_and_guards_its_code() -> None:
    assert mitos_errors.NotFoundError("gone").code == "not_found"
    with pytest.raises(ValueError):
        mitos_errors.NotFoundError("gone", code="rate_limited")
    with pytest.raises(TypeError):
        AgentRunError("no code")


def test_empty_texts_take_the_catalogue_text() -> None:
    spec = SPECS["idle_timeout"]
    err = mitos_errors.IdleTimeoutError("")
    assert (err.message, err.cause, err.remediation) == (spec.message, spec.cause, spec.remediation)


def test_unknown_code_gives_the_base_class_with_the_catch_all() -> None:
    err = error_from_body(envelope("brand_new\u202e_code", message="new"), status=503)
    assert type(err) is AgentRunError
    assert err.code == "brand_new_code"
    fallback = SPECS[catalogue.FALLBACK_BY_STATUS[503]]
    assert err.remediation == fallback.remediation
    assert err.cause == fallback.cause
    assert err.message == "new"
    # The catch-all is the catalogue's unknown_code entry, guidance included.
    assert err.retryable is catalogue.UNKNOWN_RETRYABLE is False
    assert err.recovery.to_dict() == catalogue.UNKNOWN_RECOVERY
    assert err.recovery.action == "inspect_and_escalate"
    assert err.recovery.same_arguments == "discouraged"
    assert err.recovery.guidance.startswith("Treat the code as opaque")
    assert err.side_effects == catalogue.UNKNOWN_SIDE_EFFECTS == "unknown"
    assert err.origin == catalogue.UNKNOWN_ORIGIN == err.to_dict()["origin"] == "runtime"
    assert err.to_dict()["recovery"]["guidance"] == err.recovery.guidance
    assert not err.is_auth_failure and not err.is_cancelled
    assert AgentRunError.http_status is None and AgentRunError.grpc_status is None
    assert lookup("brand_new_code") is AgentRunError


@pytest.mark.parametrize(
    ("status", "fallback"),
    [
        (None, catalogue.FALLBACK_DEFAULT),
        (503, catalogue.FALLBACK_BY_STATUS[503]),
        (418, catalogue.FALLBACK_CLIENT_ERROR),
        (599, catalogue.FALLBACK_SERVER_ERROR),
        (200, catalogue.FALLBACK_DEFAULT),
    ],
)
def test_an_unknown_code_takes_the_texts_of_its_status_fallback(status: int | None, fallback: str) -> None:
    # Contract section 3: texts not given come from the code the status falls back to.
    err = error_for_code("mystery_code_v9", "", status=status)
    spec = SPECS[fallback]
    assert type(err) is AgentRunError
    assert (err.code, err.message, err.cause, err.remediation) == (
        "mystery_code_v9",
        spec.message,
        spec.cause,
        spec.remediation,
    )
    given = error_for_code("mystery_code_v9", "m", cause="password=hunter2 x", status=status)
    assert given.cause == "password=[REDACTED] x"
    assert given.remediation == spec.remediation


def test_classification_comes_from_the_catalogue() -> None:
    for code in CODES:
        spec = SPECS[code]
        err = lookup(code)("x")
        assert err.retryable is spec.retryable is err.is_transient
        assert err.is_auth_failure is spec.is_auth_failure
        assert err.is_cancelled is spec.is_cancelled
        assert err.recovery == spec.recovery
        assert err.side_effects == spec.side_effects
        assert err.origin == spec.origin == err.to_dict()["origin"]
    assert mitos_errors.UnauthorizedError("x").is_auth_failure
    assert mitos_errors.ForbiddenError("x").is_auth_failure
    assert mitos_errors.RequestCanceledError("x").is_cancelled
    assert mitos_errors.RateLimitedError("x").retryable


def test_except_base_catches_every_class() -> None:
    for code in [*CODES, "unknown_thing"]:
        with pytest.raises(AgentRunError):
            raise error_for_code(code, "m")


@pytest.mark.parametrize("code", [*CODES, "not_in_the_catalogue"])
def test_errors_pickle_to_the_same_class_and_fields(code: str) -> None:
    err = error_from_body(
        envelope(
            code, message="m", cause="c", remediation="r", context={"sandbox": "sb-1", "retry_after_ms": 7}
        ),
        status=429,
        headers={"X-Request-Id": "req-1"},
    )
    err.add_note("a note")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is type(err)
    assert back.to_dict() == err.to_dict()
    assert back.__notes__ == ["a note"]
    assert back.args == err.args


def test_context_is_read_only() -> None:
    err = mitos_errors.NotFoundError("x", context={"sandbox": "sb-1"})
    with pytest.raises(TypeError):
        err.context["sandbox"] = "other"  # type: ignore[index]


def test_json_form_is_complete_and_valid_json() -> None:
    err = error_from_body(envelope("rate_limited", context={"retry_after_ms": 1200}), status=429)
    data = json.loads(err.to_json())
    assert data["code"] == "rate_limited"
    assert data["type"] == "RateLimitedError"
    assert data["retry_after_ms"] == 1200
    assert data["recovery"]["action"] == "retry_after" or data["recovery"]["action"] == "retry_later"
    assert set(data) >= {"message", "cause", "remediation", "context", "status", "request_id", "side_effects"}


def test_repr_and_str_name_the_code() -> None:
    err = mitos_errors.NotFoundError("no such sandbox", cause="sb-9", status=404)
    assert repr(err).startswith("NotFoundError(code='not_found'")
    assert str(err) == (
        "[not_found] no such sandbox | cause: sb-9 | remediation: " + SPECS["not_found"].remediation
    )


def test_code_spec_and_constants() -> None:
    assert mitos_errors.code_spec("rate_limited") is SPECS["rate_limited"]
    assert mitos_errors.code_spec("rate_limited").message == catalogue.SPECS["rate_limited"]["message"]
    assert mitos_errors.code_spec("nope") is None
    assert mitos_errors.MAX_EXEC_TIMEOUT_S == catalogue.MAX_EXEC_TIMEOUT_S == 86400
    assert mitos_errors.CONTRACT_VERSION == 1
    assert mitos_errors.EXEC_TIMEOUT_EXIT_CODE == 124


def test_retired_codes_are_not_classes() -> None:
    for code in catalogue.RETIRED:
        assert lookup(code) is AgentRunError
        assert code not in SPECS
