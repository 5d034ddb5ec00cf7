"""``error_from_dict``: from ``to_dict()`` back to the same typed error, and total on any dict.

The round trip is checked on errors of every class (built by code, by
constructor with a finer code, for unknown codes, and from hostile bodies),
straight from ``to_dict()`` and through JSON text; hostile dicts (every
member of every JSON type, deep nesting, keys of the wrong type) always give
an error whose texts are sanitized and capped. The same round trip across
languages is ``tests/conformance/test_from_dict.py``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from testkit.sdk_strategies import CAP, PROPERTY, hostile_body, hostile_text, statuses, tokens

import mitos_errors
from mitos_errors import AgentRunError, error_for_code, error_from_body, error_from_dict, sanitize_text
from mitos_errors._base import CLASSES

CODES = sorted(CLASSES)
KEYS = list(AgentRunError("", "x").to_dict())
json_scalar = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True), st.text(max_size=20)
)
json_value = st.recursive(
    json_scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _same(err: AgentRunError, again: AgentRunError) -> None:
    assert type(again) is type(err)
    assert again.to_dict() == err.to_dict()
    assert str(again) == str(err)


@st.composite
def any_error(draw: st.DrawFn) -> AgentRunError:
    """An error of any class: by code, a class's constructor with a finer code, an unknown code, a body."""
    token = draw(st.one_of(st.none(), tokens))
    text = lambda: draw(hostile_text(token))[0]  # noqa: E731
    how = draw(st.sampled_from(["code", "finer", "unknown", "body"]))
    context = draw(st.dictionaries(st.text(max_size=8), json_scalar, max_size=4))
    status = draw(st.one_of(st.none(), statuses))
    if how == "body":
        body, _ = draw(hostile_body(token))
        return error_from_body(body, status=status or 500, token=token)
    if how == "unknown":
        return error_for_code(text(), text(), cause=text(), status=status, context=context)
    cls = CLASSES[draw(st.sampled_from(CODES))]
    code = (
        None
        if how == "code"
        else f"{cls.catalogue_code}.{draw(st.from_regex('[a-z_]{1,12}', fullmatch=True))}"
    )
    delay = draw(st.one_of(st.none(), st.integers(0, 10**12)))
    request_id = draw(st.one_of(st.none(), st.text(max_size=10)))
    return cls(
        text(),
        code,
        cause=text(),
        remediation=text(),
        status=status,
        context=context,
        request_id=request_id,
        retry_after_ms=delay,
    )


@PROPERTY
@given(err=any_error())
def test_every_class_comes_back_from_its_dict_and_its_json(err: AgentRunError) -> None:
    _same(err, error_from_dict(err.to_dict()))
    _same(err, error_from_dict(json.loads(err.to_json())))


def _check(err: AgentRunError) -> None:
    assert isinstance(err, AgentRunError)
    for text in (err.code, err.message, err.cause, err.remediation, err.request_id or ""):
        assert len(text) <= CAP
        assert sanitize_text(text) == text
    json.dumps(err.to_dict())


@PROPERTY
@given(value=json_value)
def test_any_json_value_gives_an_error(value: Any) -> None:
    _check(error_from_dict(value))


@PROPERTY
@given(
    members=st.dictionaries(
        st.one_of(st.sampled_from(KEYS), st.text(max_size=6), st.integers()), json_value, max_size=12
    ),
    code=st.one_of(st.sampled_from(CODES), st.text(max_size=12), json_value),
    type_name=st.one_of(st.sampled_from([c.__name__ for c in CLASSES.values()]), json_value),
)
def test_hostile_dicts_give_an_error_never_an_exception(
    members: dict[Any, Any], code: Any, type_name: Any
) -> None:
    _check(error_from_dict({**members, "code": code, "type": type_name}))


def test_a_finer_code_keeps_the_class_its_dict_names() -> None:
    err = error_from_body(
        b'{"error":{"code":"rate_limited.per_key","refines":["rate_limited"],"message":"slow"}}', status=429
    )
    assert type(err) is mitos_errors.RateLimitedError
    again = error_from_dict(err.to_dict())
    assert type(again) is mitos_errors.RateLimitedError and again.code == "rate_limited.per_key"
    assert again.retryable


@pytest.mark.parametrize(
    ("data", "cls", "code"),
    [
        ({"type": "RateLimitedError", "code": "not_found"}, "NotFoundError", "not_found"),  # the code decides
        ({"type": "RateLimitedError", "code": ""}, "AgentRunError", ""),  # no finer code without a code
        ({"type": "NoSuchError", "code": "x.y"}, "AgentRunError", "x.y"),
        ({"type": "AgentRunError", "code": "rate_limited"}, "RateLimitedError", "rate_limited"),
        ({"code": 7, "status": True, "retry_after_ms": -1, "context": [1]}, "AgentRunError", ""),
        ([("code", "rate_limited")], "AgentRunError", ""),
        ("rate_limited", "AgentRunError", ""),
        (None, "AgentRunError", ""),
    ],
)
def test_the_class_is_the_codes_and_a_wrong_member_is_ignored(data: object, cls: str, code: str) -> None:
    err = error_from_dict(data)
    assert (type(err).__name__, err.code) == (cls, code)
    assert err.status is None and err.retry_after_ms is None and dict(err.context) == {}


def test_the_classification_comes_from_the_class_not_the_dict() -> None:
    data = error_for_code("not_found", "gone", status=404).to_dict()
    data.update(retryable=True, origin="transport", recovery={"action": "retry_later"})
    again = error_from_dict(data)
    assert not again.retryable and again.origin != "transport"
    assert again.to_dict() == error_for_code("not_found", "gone", status=404).to_dict()
