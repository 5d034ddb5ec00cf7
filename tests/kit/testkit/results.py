"""How the parity tests compare two SDKs' records of the same request.

Both testees give one record (:mod:`testkit.record`); :func:`canonical`
turns its compared fields into the bytes the parity test compares, and
:func:`compare` says where two records differ.
"""

from __future__ import annotations

import json
from typing import Any

from testkit.record import FIELDS
from testkit.vectors import Vector

Json = Any


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
    if vector.expect.get("refused") and python.get("threw") and typescript.get("threw"):
        return None  # both refused the call, each with its own language's exception
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
