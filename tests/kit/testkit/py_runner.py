"""Run vectors through the Python SDK, in process and over HTTP with httpx.

Each result is a dict of the fields :mod:`testkit.results` names,
plus ``resanitized`` (each text sanitized once more, for the idempotence
check), ``text_forms`` (``str``, ``repr``, the pickle and the JSON form,
for the token check) and, in process, ``elapsed_ms`` (how long the SDK call
took, for the ``fast`` invariant). An SDK call that raises gives
``{"threw": ...}``.
"""

from __future__ import annotations

import hashlib
import pickle
import time
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from testkit.expect import texts_of
from testkit.vectors import HttpRequest, Vector, body_chunks, body_value

Json = Any


def sdk() -> ModuleType:
    """The installed Python SDK; raises ``ImportError`` with the fix when it is not installed."""
    try:
        import mitos_errors
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "mitos_errors is not importable: install it (`pip install ./python-sdk`) or put"
            " python-sdk/src on PYTHONPATH"
        ) from exc
    return mitos_errors


def describe(err: BaseException, token: str | None) -> dict[str, Json]:
    """The public fields of one SDK error, under the Python names."""
    m = sdk()
    cls = type(err)
    e: Any = err
    recovery = e.recovery
    context = e.context
    out: dict[str, Json] = {
        "class": cls.__name__,
        "code": e.code,
        "message": e.message,
        "cause": e.cause,
        "remediation": e.remediation,
        "status": e.status,
        "context": dict(context) if context is not None else None,
        "retryable": e.retryable,
        "retry_after_ms": e.retry_after_ms,
        "request_id": e.request_id,
        "recovery": {
            "action": recovery.action,
            "same_arguments": recovery.same_arguments,
            "guidance": recovery.guidance,
        },
        "side_effects": e.side_effects,
        "origin": e.origin,
        "is_auth_failure": e.is_auth_failure,
        "is_cancelled": e.is_cancelled,
        "http_status": getattr(cls, "http_status", "<missing>"),
        "grpc_status": getattr(cls, "grpc_status", "<missing>"),
        "base_instance": isinstance(err, m.AgentRunError) and isinstance(err, Exception),
    }
    out["resanitized"] = {
        where: m.sanitize_text(text, token=token) for where, text in texts_of(out)
    }
    forms = [str(err), repr(err), repr(vars(err))]
    try:
        forms.append(pickle.dumps(err).decode("utf-8", "replace"))
    except Exception as exc:
        forms.append(f"<pickle failed: {exc!r}>")
    to_json = getattr(err, "to_json", None)
    if callable(to_json):
        forms.append(str(to_json()))
    out["text_forms"] = forms
    return out


def body_sha256(vector: Vector) -> str | None:
    """The SHA-256 of a bytes body, to prove both SDKs were handed the same bytes."""
    if vector.body_is_text:
        return None
    digest = hashlib.sha256()
    for chunk in body_chunks(vector.body):
        digest.update(chunk)
    return digest.hexdigest()


def run_direct(vectors: Iterable[Vector]) -> dict[str, dict[str, Json]]:
    """``error_from_body`` on every vector, keyed by vector name."""
    m = sdk()
    results: dict[str, dict[str, Json]] = {}
    for vector in vectors:
        try:
            body = body_value(vector)
            started = time.perf_counter()
            err = m.error_from_body(
                body, status=vector.status, headers=vector.headers_dict(), token=vector.token
            )
            elapsed_ms = (time.perf_counter() - started) * 1000
            del body
            results[vector.name] = {**describe(err, vector.token), "elapsed_ms": elapsed_ms}
        except BaseException as exc:  # a conformance failure, reported as data
            if isinstance(exc, KeyboardInterrupt):
                raise
            results[vector.name] = {"threw": f"{type(exc).__name__}: {exc}"}
    return results


def run_http(
    base_url: str, requests: list[HttpRequest], timeout_s: float
) -> dict[str, dict[str, Json]]:
    """``error_from_response`` over httpx for each request, keyed by its ``case``."""
    import httpx

    m = sdk()
    results: dict[str, dict[str, Json]] = {}
    with httpx.Client(base_url=base_url, timeout=timeout_s) as client:
        for key, path, token, deadline_ms in requests:
            try:
                with client.stream("GET", path) as resp:
                    err = m.error_from_response(resp, token=token, body_read_timeout_ms=deadline_ms)
                results[key] = describe(err, token)
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt):
                    raise
                results[key] = {"threw": f"{type(exc).__name__}: {exc}"}
    return results
