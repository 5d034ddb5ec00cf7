"""A user's code, type-checked with mypy --strict and pyright and also run: the types TypeScript has too.

``KnownAgentRunError`` (TypeScript's union of the generated classes), narrowed
by the ``Literal`` code of each class; recovery actions and side effects as
``Literal``s; ``install_error_hook`` giving back the kind of client it was
given (a sync client stays sync).
"""

from typing import Literal, assert_type

import httpx

import mitos_errors
from mitos_errors import KnownAgentRunError, NotFoundError, RateLimitedError


def delay_of(err: KnownAgentRunError) -> int | None:
    """A branch on the code narrows the union to the code's class."""
    if err.code == "rate_limited":
        assert_type(err, RateLimitedError)
        return err.retry_after_ms
    return None


known = mitos_errors.error_for_code("rate_limited", "slow down", context={"retry_after_ms": 5})
assert isinstance(known, KnownAgentRunError)
assert delay_of(known) == 5
assert not isinstance(mitos_errors.error_for_code("not_in_the_catalogue", ""), KnownAgentRunError)

err = NotFoundError("gone")
assert_type(
    err.side_effects,
    Literal["none_expected", "possible", "unknown"],
)
assert_type(err.recovery.same_arguments, Literal["safe", "conditional", "discouraged", "never"])
action = err.recovery.action
assert action in {"revise_and_retry", "rediscover", "inspect_and_escalate", "do_not_retry"}
if action == "rediscover":
    assert_type(action, Literal["rediscover"])

sync_client = mitos_errors.install_error_hook(httpx.Client(), token="t")
assert_type(sync_client, httpx.Client)
async_client = mitos_errors.install_error_hook(httpx.AsyncClient(), token="t")
assert_type(async_client, httpx.AsyncClient)
sync_client.close()
