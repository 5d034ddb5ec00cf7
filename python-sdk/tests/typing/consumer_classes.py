"""A user's code, type-checked with mypy --strict and pyright and also run: the classes and their fields.

Every ``assert_type`` is what both checkers must infer; every ``assert`` is what
the run time then holds, so the types and the values are checked together.
"""

from typing import Literal, assert_type

import mitos_errors
from mitos_errors import AgentRunError, NotFoundError, RateLimitedError

assert_type(NotFoundError.code, Literal["not_found"])
assert NotFoundError.code == "not_found"
assert_type(NotFoundError.catalogue_code, Literal["not_found"])
assert_type(NotFoundError.http_status, Literal[404])
assert NotFoundError.http_status == 404
assert_type(RateLimitedError.grpc_status, Literal["ResourceExhausted"])
assert RateLimitedError.grpc_status == "ResourceExhausted"
assert_type(AgentRunError.http_status, int | None)
assert AgentRunError.http_status is None

err = NotFoundError("gone", cause="sb-1")
assert_type(err.code, Literal["not_found"])
assert_type(err.message, str)
assert_type(err.status, int | None)
assert_type(err.retry_after_ms, int | None)
assert_type(err.retryable, bool)
assert_type(err.spec, mitos_errors.CodeSpec | None)
assert_type(err.recovery, mitos_errors.Recovery)
assert (err.code, err.message, err.retryable) == ("not_found", "gone", False)

# The base class is called by its run-time name, and its fields exist only on instances.
base = AgentRunError("boom", code="not_in_the_catalogue")
assert_type(base, AgentRunError)
assert_type(base.code, str)
assert type(base).__name__ == "AgentRunError"
try:
    AgentRunError.message  # type: ignore[misc]  # noqa: B018  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
except AttributeError:
    pass
else:
    raise AssertionError("AgentRunError.message is an instance attribute, not a class attribute")

spec = mitos_errors.code_spec("not_found")
assert spec is not None
assert_type(spec.http_status, int)
assert_type(spec.context_fields, tuple[str, ...])
assert spec.class_name == "NotFoundError"
