"""The Python SDK's tests' view of the oracle: the reference over this catalogue, the SDK's fields, a hang guard.

The reference is :mod:`testkit.reference`: written from docs/sdk-contract.md
alone, every rule run on every text, nothing cached. The SDK's fast paths are
held to it on random input, as the vectors are held to it in the conformance
suite.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from typing import Any

import mitos_errors
from errcat.cli import load_model
from testkit.paths import CATALOGUE, REPO
from testkit.reference import Reference

REFERENCE = Reference(load_model(CATALOGUE, REPO))
"""The reference over ``catalogue/errors.yaml``, which this package was generated from."""


def fields_of(err: mitos_errors.AgentRunError) -> dict[str, Any]:
    """The fields of an SDK error under the names the reference gives them."""
    return {
        "class": type(err).__name__,
        "code": err.code,
        "message": err.message,
        "cause": err.cause,
        "remediation": err.remediation,
        "context": dict(err.context),
        "status": err.status,
        "request_id": err.request_id,
        "retry_after_ms": err.retry_after_ms,
        "retryable": err.retryable,
        "is_auth_failure": err.is_auth_failure,
        "is_cancelled": err.is_cancelled,
        "recovery": err.recovery.to_dict(),
        "side_effects": err.side_effects,
        "origin": err.origin,
        "http_status": type(err).http_status,
        "grpc_status": type(err).grpc_status,
    }


class Hang(BaseException):
    """A call ran for seconds; not an ``Exception``, so the SDK's own catch-all cannot swallow it."""


@contextlib.contextmanager
def hang_guard(seconds: int) -> Iterator[None]:
    """Raise :class:`Hang` if the block runs longer than ``seconds``: a hang detector, not a timer.

    A call into C (a regular expression) is interrupted when it returns.
    """
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def expired(signum: int, frame: object) -> None:
        raise Hang(f"still running after {seconds} s: a scan once per position?")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
