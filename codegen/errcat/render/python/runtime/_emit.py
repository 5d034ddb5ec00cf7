"""The server side: the canonical envelope bytes of an error (docs/sdk-contract.md section 6).

``envelope_bytes`` gives the status, headers and body a Python server (or a
test) sends, byte for byte what the Go and Rust writers and ``envelopeBytes``
send for the same input. Strings are written by the runtime's JSON text writer
of a parsed body (section 1 step 1); numbers as ECMAScript writes them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ._base import AgentRunError
from ._generated import catalogue as _cat
from ._parse import _ENCODER
from ._sanitize import sanitize_with, token_forms

__all__ = ["EnvelopeBytes", "envelope_bytes"]

_MAX_KEYS = _cat.CONTEXT_MAX_KEYS
_MAX_DEPTH = _cat.JSON_MAX_DEPTH
_CONTEXT_DEPTH = 3  # the context object's own depth in {"error":{"context":{...}}}
_RETRY_KEY = "retry_after_ms"


class EnvelopeBytes:
    """What a server sends for an error: the status, the headers, the body."""

    __slots__ = ("status", "headers", "body")

    def __init__(self, status: int, headers: tuple[tuple[str, str], ...], body: bytes) -> None:
        self.status: int = status
        """The code's HTTP status."""
        self.headers: tuple[tuple[str, str], ...] = headers
        """``(name, value)`` pairs, names in lower case, sorted by name."""
        self.body: bytes = body
        """The envelope: compact JSON, pure ASCII, no trailing newline."""

    def __repr__(self) -> str:
        return f"EnvelopeBytes(status={self.status}, headers={self.headers!r}, body={self.body!r})"


class _Skip:
    """A context value that is not written (a NaN, nesting too deep, a type JSON has no value of)."""


_SKIP = _Skip()
_Value = object


def _double(value: int | float) -> float:
    """An integer as the nearest double (an infinity past the range); a float as is."""
    if type(value) is float:
        return value
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _number(value: float) -> str:
    """ECMAScript's Number::toString of a finite or infinite double (an infinity as ``±1e400``)."""
    if math.isinf(value):
        return "1e400" if value > 0 else "-1e400"
    if value == 0:
        return "0"
    mantissa, _, exp = repr(abs(value)).partition("e")
    head, _, tail = mantissa.partition(".")
    # repr gives the shortest digits that read back; put them in ECMAScript's layout.
    raw = head + tail
    digits = raw.lstrip("0")
    point = len(head) + int(exp or 0) - (len(raw) - len(digits))
    digits = digits.rstrip("0")
    size = len(digits)
    if size <= point <= 21:
        text = digits + "0" * (point - size)
    elif 0 < point <= 21:
        text = f"{digits[:point]}.{digits[point:]}"
    elif -6 < point <= 0:
        text = "0." + "0" * -point + digits
    else:
        rest = "." + digits[1:] if size > 1 else ""
        text = f"{digits[0]}{rest}e{point - 1:+d}"
    return "-" + text if value < 0 else text


def _clean(value: object, forms: tuple[str, ...], depth: int) -> object:
    """A context value sanitized and bounded, or ``_SKIP``; ``depth`` is its depth in the body."""
    if value is None or type(value) is bool:
        return value
    if isinstance(value, str):
        return sanitize_with(value, forms)
    if isinstance(value, (int, float)):
        number = _double(value)
        return _SKIP if math.isnan(number) else number
    if depth > _MAX_DEPTH:
        return _SKIP
    if isinstance(value, (list, tuple)):
        items = (_clean(item, forms, depth + 1) for item in value)
        return [item for item in items if item is not _SKIP]
    if isinstance(value, Mapping):
        return _members(value, forms, depth)
    return _SKIP


def _members(obj: Mapping[str, object], forms: tuple[str, ...], depth: int) -> dict[str, object]:
    """Clean keys only, sorted by code point, at most ``context_max_keys`` of them."""
    kept: dict[str, object] = {}
    for key in sorted(k for k in obj if isinstance(k, str)):
        if not key or sanitize_with(key, forms) != key:
            continue
        item = _clean(obj[key], forms, depth + 1)
        if item is not _SKIP:
            kept[key] = item
            if len(kept) == _MAX_KEYS:
                break
    return kept


def _json(value: object) -> str:
    """The canonical text of a cleaned value: strings by the section 1 writer, keys already sorted."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _ENCODER.encode(value)
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, list):
        return "[" + ",".join(_json(item) for item in value) + "]"
    assert isinstance(value, dict)
    return "{" + ",".join(_ENCODER.encode(k) + ":" + _json(v) for k, v in value.items()) + "}"


def _body(members: list[tuple[str, object]]) -> str:
    return '{"error":{' + ",".join(f'"{name}":{_json(v)}' for name, v in members if v) + "}}"


def _headers(context: Mapping[str, object], request_id: str) -> tuple[tuple[str, str], ...]:
    headers = [("content-type", "application/json")]
    if request_id and all("!" <= ch <= "~" for ch in request_id):
        headers.append(("x-request-id", request_id))
    delay = context.get(_RETRY_KEY)
    if isinstance(delay, (int, float)) and type(delay) is not bool:
        number = _double(delay)
        if number >= 0:
            ms = math.ceil(min(number, _cat.RETRY_AFTER_MAX_MS))
            headers += [("retry-after", str(-(-ms // 1000))), ("retry-after-ms", str(ms))]
    return tuple(sorted(headers))


def envelope_bytes(
    error: str | BaseException | None,
    *,
    surface: str | None = None,
    cause: str = "",
    context: Mapping[str, object] | None = None,
    request_id: str | None = None,
    token: str | None = None,
    message: str | None = None,
    remediation: str | None = None,
) -> EnvelopeBytes:
    """The status, headers and body a server sends for an error; never raises, never leaks.

    The canonical form of docs/sdk-contract.md section 6, byte for byte what
    every writer (Go, Rust, TypeScript's ``envelopeBytes``) gives::

        sent = envelope_bytes(code, context=fields, request_id=rid, token=tok)
        return Response(sent.body, status=sent.status, headers=list(sent.headers))

    Args:
        error: a server code of the catalogue, or an ``AgentRunError`` (its
            ``code`` is used; pass its cause and context yourself). Anything
            else (another exception, ``None``, an unknown or SDK-local code)
            is sent as ``internal`` with the catalogue's texts and no cause
            or context: its own text never reaches the wire.
        surface: the surface answering (``"console"``), whose catalogue
            texts replace the code's own where it overrides them.
        cause: what went wrong this time; sanitized, capped, left out when empty.
        context: structured facts; keys and strings sanitized, keys sorted,
            bounded by the catalogue's limits. A ``retry_after_ms`` number
            also gives the ``Retry-After`` and ``Retry-After-Ms`` headers.
        request_id: sent in the body and, when it is visible ASCII, as ``X-Request-Id``.
        token: the request's own credential, redacted from every text.
        message, remediation: the caller's own texts instead of the catalogue's; sanitized.

    Returns:
        The status, the headers (lower-case names, sorted) and the body.
    """
    code = error.code if isinstance(error, AgentRunError) else error
    row = _cat.SPECS.get(code) if isinstance(code, str) else None
    if row is None or row["emitted_by"] == "sdk":
        code = _cat.FALLBACK_SERVER_ERROR
        row = _cat.SPECS[code]
        cause, context, message, remediation = "", None, None, None
    assert isinstance(code, str)
    forms = token_forms(token) if token else ()
    texts = _cat.SURFACES.get(code, {}).get(surface or "", (row["message"], row["remediation"]))
    given = context or {}
    members: list[tuple[str, object]] = [
        ("code", code),
        ("message", sanitize_with(message, forms) if message else texts[0]),
        ("cause", sanitize_with(cause, forms) if cause else ""),
        ("remediation", sanitize_with(remediation, forms) if remediation else texts[1]),
        ("context", _members(given, forms, _CONTEXT_DEPTH)),
        ("request_id", sanitize_with(request_id, forms) if request_id else ""),
        ("refines", list(_cat.REFINES_CHAINS.get(code, ()))),
    ]
    header_id = str(members[5][1])
    body = _bounded(members, texts)
    return EnvelopeBytes(row["http_status"], _headers(given, header_id), body.encode("ascii"))


def _bounded(members: list[tuple[str, object]], texts: tuple[str, str]) -> str:
    """The body; over the cap, without the context, then the cause, the request id, the caller's texts."""
    if not members[1][1]:
        members[1] = ("message", texts[0])  # a caller's text empty once sanitized is not given
    if not members[3][1]:
        members[3] = ("remediation", texts[1])
    body = _body(members)
    for index, fallback in ((4, {}), (2, ""), (5, ""), (1, texts[0])):
        if len(body) <= _cat.ERROR_BODY_MAX_BYTES:
            break
        members[index] = (members[index][0], fallback)
        if index == 1:
            members[3] = ("remediation", texts[1])
        body = _body(members)
    return body
