"""The one record of an SDK error, the same for every request and both languages.

Both testees (``testee.cjs`` for TypeScript, :mod:`testkit.testee` for Python)
answer a request that gives an error with its record: the fields
:data:`FIELDS` names, under the Python names, and the members of
:data:`EXTRAS`. :func:`python_record` makes the Python one; the TypeScript one
is made by ``record()`` in testee.cjs, and ``tests/conformance/test_testees.py``
holds both to :data:`FIELDS` on every kind of request. :func:`read` is where
every answer is read, whichever testee gave it.
"""

from __future__ import annotations

import pickle
from types import ModuleType
from typing import Any

Json = Any
Record = dict[str, Json]

FIELDS: tuple[str, ...] = (
    "class",
    "code",
    "message",
    "cause",
    "remediation",
    "status",
    "context",
    "retryable",
    "retry_after_ms",
    "request_id",
    "recovery",
    "side_effects",
    "origin",
    "is_auth_failure",
    "is_cancelled",
    "http_status",
    "grpc_status",
    "base_instance",
)
"""The public fields every record carries and the parity test compares, in this order."""

EXTRAS: tuple[str, ...] = (
    "lineage",  # the class names from the error's own to the base class
    "chained",  # whether the error holds the failure it was made from (__cause__, cause)
    "revives",  # the pickled error comes back equal (Python); null where there is no serial form
    "resanitized",  # every text sanitized once more with the request's token, by label
    "forms",  # the texts the error shows itself as: str, repr or stack, JSON, pickle, inspect
    "elapsed_ms",  # how long the SDK call took
    "before",  # the clock (ms since the epoch) just before the call
    "after",  # and just after it
)
"""Members every record carries beside :data:`FIELDS`; checked, never compared across languages."""

TEXT_FIELDS: tuple[str, ...] = ("code", "message", "cause", "remediation", "request_id")
"""Fields holding one sanitized text each (context strings are checked apart)."""


def texts_of(result: Record) -> list[tuple[str, str]]:
    """Every text a record holds, labelled where it is.

    Labels are ``code``, ``message``, ``cause``, ``remediation``,
    ``request_id``, ``context key:KEY`` and ``context value:KEY``; both
    testees label their re-sanitized texts the same way.
    """
    out = [(name, result[name]) for name in TEXT_FIELDS if isinstance(result.get(name), str)]
    context = result.get("context")
    if isinstance(context, dict):
        for key, value in context.items():
            out.append((f"context key:{key}", key))
            if isinstance(value, str):
                out.append((f"context value:{key}", value))
    return out


def _revives(err: Any) -> bool:
    try:
        again = pickle.loads(pickle.dumps(err))
    except Exception:
        return False
    return type(again) is type(err) and again.to_dict() == err.to_dict()


def python_record(sdk: ModuleType, err: BaseException, token: str | None) -> Record:
    """The record of one error of the Python SDK ``sdk`` (the fields, the forms, the texts sanitized again)."""
    cls = type(err)
    e: Any = err
    recovery = e.recovery
    context = e.context
    out: Record = {
        "class": cls.__name__,
        "lineage": [c.__name__ for c in cls.__mro__ if issubclass(c, sdk.AgentRunError)],
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
        "origin": getattr(e, "origin", None),
        "is_auth_failure": e.is_auth_failure,
        "is_cancelled": e.is_cancelled,
        "http_status": getattr(cls, "http_status", "<missing>"),
        "grpc_status": getattr(cls, "grpc_status", "<missing>"),
        "base_instance": isinstance(err, sdk.AgentRunError) and isinstance(err, Exception),
        "chained": err.__cause__ is not None,
        "revives": _revives(err),
    }
    out["resanitized"] = {
        where: sdk.sanitize_text(text, token=token) for where, text in texts_of(out)
    }
    forms = {"str": str(err), "repr": repr(err), "vars": repr(vars(err))}
    try:
        forms["pickle"] = pickle.dumps(err).decode("utf-8", "replace")
    except Exception as exc:
        forms["pickle"] = f"<pickle failed: {exc!r}>"
    to_json = getattr(err, "to_json", None)
    if callable(to_json):
        forms["json"] = str(to_json())
    out["forms"] = forms
    return out


def read(answer: Record, class_names: dict[str, str] | None = None) -> Record:
    """One answer of either testee, with class names as Python's.

    ``class_names`` maps TypeScript class names to Python ones for a catalogue
    whose per-language overrides make them differ (``class`` and ``lineage``).
    """
    if not class_names:
        return answer
    out = dict(answer)
    if isinstance(out.get("class"), str):
        out["class"] = class_names.get(out["class"], out["class"])
    if isinstance(out.get("lineage"), list):
        out["lineage"] = [class_names.get(name, name) for name in out["lineage"]]
    return out
