"""The one place where the two SDKs' results are put into the same shape.

Both runners report, per vector, the public fields of the error the SDK gave.
Python reports them under their Python names; the Node runner reports the
TypeScript names (``errorCause``, ``retryAfterMs``...), which
:func:`from_typescript` maps onto the Python ones. :func:`canonical` turns a
normalized result into the bytes the parity test compares.
"""

from __future__ import annotations

import json
from typing import Any

from testkit.vectors import Vector

Json = Any

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
"""The fields every result carries and the parity test compares, in this order."""

TEXT_FIELDS: tuple[str, ...] = ("code", "message", "cause", "remediation", "request_id")
"""Fields holding one sanitized text each (context strings are checked apart)."""

TS_NAMES: dict[str, str] = {
    "name": "class",
    "code": "code",
    "message": "message",
    "errorCause": "cause",
    "remediation": "remediation",
    "status": "status",
    "context": "context",
    "retryable": "retryable",
    "retryAfterMs": "retry_after_ms",
    "requestId": "request_id",
    "recovery": "recovery",
    "sideEffects": "side_effects",
    "origin": "origin",
    "isAuthFailure": "is_auth_failure",
    "isCancelled": "is_cancelled",
    "httpStatus": "http_status",
    "grpcStatus": "grpc_status",
    "baseInstance": "base_instance",
}
"""TypeScript field name -> Python field name, for every compared field."""

TS_RECOVERY_NAMES: dict[str, str] = {
    "action": "action",
    "sameArguments": "same_arguments",
    "guidance": "guidance",
}

EXTRAS: tuple[str, ...] = (
    "vector",
    "path",
    "resanitized",
    "text_forms",
    "body_sha256",
    "elapsed_ms",
    "threw",
)
"""Runner-reported members that are checked but never compared across languages."""


def from_typescript(
    raw: dict[str, Json], class_names: dict[str, str] | None = None
) -> dict[str, Json]:
    """Rename the fields of one Node runner result to their Python names.

    ``class_names`` maps TypeScript class names to Python ones for a catalogue
    whose per-language overrides make them differ; results then always carry
    the Python name.
    """
    out: dict[str, Json] = {}
    for key, value in raw.items():
        if key in TS_NAMES:
            name = TS_NAMES[key]
            if name == "recovery" and isinstance(value, dict):
                value = {TS_RECOVERY_NAMES.get(k, k): v for k, v in value.items()}
            if name == "class" and class_names and isinstance(value, str):
                value = class_names.get(value, value)
            out[name] = value
        else:
            out[key] = value
    return out


def compared(result: dict[str, Json]) -> dict[str, Json]:
    """Only the fields that both SDKs must give byte for byte alike."""
    return {name: result.get(name, "<missing>") for name in FIELDS}


def canonical(result: dict[str, Json]) -> bytes:
    """The bytes of a result as the parity test compares them.

    Keys are sorted (a context is a mapping: JavaScript orders integer-like
    keys first whatever the SDK does), numbers print the Python way, text is
    UTF-8.
    """
    return json.dumps(compared(result), sort_keys=True, ensure_ascii=False).encode(
        "utf-8", "surrogatepass"
    )


def first_difference(left: bytes, right: bytes) -> int | None:
    """The offset of the first byte where ``left`` and ``right`` differ, or ``None``."""
    for index, (a, b) in enumerate(zip(left, right, strict=False)):
        if a != b:
            return index
    if len(left) != len(right):
        return min(len(left), len(right))
    return None


def show_difference(left: bytes, right: bytes, at: int, width: int = 60) -> str:
    """Both sides around offset ``at``, for a failure message."""
    start = max(0, at - width)

    def around(data: bytes) -> str:
        return data[start : at + width].decode("utf-8", "backslashreplace")

    return f"byte {at}:\n  python:     …{around(left)}…\n  typescript: …{around(right)}…"


def time_dependent(vector: Vector) -> bool:
    """True when the expected delay is measured from now (an HTTP date in the future)."""
    return isinstance(vector.expect.get("retry_after_ms"), dict)


def compare(vector: Vector, python: dict[str, Json], typescript: dict[str, Json]) -> str | None:
    """Why the two SDKs' results for ``vector`` differ, or ``None`` when they are identical."""
    if python.get("threw") or typescript.get("threw"):
        return (
            f"an SDK raised: python {python.get('threw')!r}, typescript {typescript.get('threw')!r}"
        )
    if time_dependent(vector):
        # Each is checked against the clock by its own test; here only the type is compared.
        python = {**python, "retry_after_ms": type(python.get("retry_after_ms")).__name__}
        typescript = {
            **typescript,
            "retry_after_ms": type(typescript.get("retry_after_ms")).__name__,
        }
    left, right = canonical(python), canonical(typescript)
    at = first_difference(left, right)
    if at is None:
        return None
    return show_difference(left, right, at)
