"""A user's code, type-checked with mypy --strict and pyright and also run: lookups and narrowing."""

from typing import Literal, assert_type

import mitos_errors
from mitos_errors import AgentRunError, NotFoundError, RateLimitedError, error_for_code, lookup

assert_type(lookup("not_found"), type[NotFoundError])
assert lookup("not_found") is NotFoundError
assert_type(lookup("rate_limited"), type[RateLimitedError])


def class_of(code: str) -> type[AgentRunError]:
    return lookup(code)  # any other string: the base class's type


assert_type(class_of("zzz"), type[AgentRunError])
assert class_of("zzz") is AgentRunError

limited = error_for_code("rate_limited", "slow down", context={"retry_after_ms": 250})
assert_type(limited, RateLimitedError)
assert type(limited) is RateLimitedError
assert limited.retry_after_ms == 250

err = mitos_errors.error_from_body(b'{"error": {"code": "not_found", "cause": "sb-1"}}', status=404)
assert_type(err, AgentRunError)


def describe(err: NotFoundError | RateLimitedError) -> str:
    """``code`` is a Literal on each class, so comparing it narrows a union of classes."""
    if err.code == "not_found":
        assert_type(err, NotFoundError)
        return "gone"
    assert_type(err, RateLimitedError)
    assert_type(err.code, Literal["rate_limited"])
    return f"retry in {err.retry_after_ms} ms"


assert describe(NotFoundError("gone")) == "gone"
assert describe(limited) == "retry in 250 ms"

try:
    raise error_for_code("not_found", "no such sandbox")
except NotFoundError as caught:
    assert_type(caught.code, Literal["not_found"])
    assert caught.code == "not_found"
