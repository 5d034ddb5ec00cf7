"""The reference writer: docs/sdk-contract.md section 6 (the canonical envelope), over any catalogue.

Part of the one oracle of the contract: written from the contract alone,
character by character, never from an SDK or a JSON library's writer. The emit
vectors' expectations are made by it (``testkit.cases_emit``) and every
writer (Go, Rust, ``envelope_bytes``, ``envelopeBytes``) is held to them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from errcat.model.catalogue import ErrorCode
from testkit.reference import Reference

Json = Any

CONTENT_TYPE = "application/json"
RETRY_KEY = "retry_after_ms"
_SHORT_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}
# The depth of the context object itself in {"error":{"context":{...}}}.
_CONTEXT_DEPTH = 3


@dataclass(frozen=True)
class EmitInput:
    """What a writer is given (one emit vector's ``input``).

    ``code`` ``None`` stands for an error value that is not a catalogue error.
    """

    code: str | None
    surface: str | None = None
    message: str | None = None
    remediation: str | None = None
    cause: str = ""
    context: Mapping[str, Json] = field(default_factory=dict)
    request_id: str | None = None
    token: str | None = None

    def to_json(self) -> dict[str, Json]:
        """The vector's ``input`` object, every member present."""
        return {
            "code": self.code,
            "surface": self.surface,
            "message": self.message,
            "remediation": self.remediation,
            "cause": self.cause,
            "context": dict(self.context),
            "request_id": self.request_id,
            "token": self.token,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Json]) -> EmitInput:
        """The input of a vector's ``input`` object (the inverse of :meth:`to_json`)."""
        return cls(**{name: raw[name] for name in cls.__dataclass_fields__ if name in raw})


@dataclass(frozen=True)
class Emitted:
    """What a writer gives: the status, the headers (lower-case names, sorted) and the body."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: str

    def to_json(self) -> dict[str, Json]:
        """The vector's ``expected`` object."""
        return {
            "status": self.status,
            "headers": [list(h) for h in self.headers],
            "body": self.body,
        }


def json_string(text: str) -> str:
    """A JSON string as section 6 writes it: printable ASCII as is, the rest escaped, lower-case hex."""
    out = ['"']
    for ch in text:
        point = ord(ch)
        if ch in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[ch])
        elif 0x20 <= point <= 0x7E:
            out.append(ch)
        elif point > 0xFFFF:
            point -= 0x10000
            out.append(f"\\u{0xD800 + (point >> 10):04x}\\u{0xDC00 + (point & 0x3FF):04x}")
        else:
            out.append(f"\\u{point:04x}")
    out.append('"')
    return "".join(out)


def as_double(value: int | float) -> float:
    """A number as the double a writer holds: an integer rounded to the nearest (ties to even)."""
    if isinstance(value, float):
        return value
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def json_number(value: int | float) -> str:
    """ECMAScript's Number::toString of the double ``value``; an infinity as ``1e400`` / ``-1e400``.

    The shortest digits that read back to the double are Python's ``repr``'s;
    their layout (plain up to 21 integer digits, down to 6 leading zeros,
    else ``d.ddde±n``) is ECMAScript's.
    """
    x = as_double(value)
    if math.isnan(x):
        raise ValueError("NaN has no JSON text")
    if math.isinf(x):
        return "1e400" if x > 0 else "-1e400"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    mantissa, _, exponent = repr(abs(x)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + int(exponent or "0")
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    k, n = len(digits), point
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        mark = "+" if e >= 0 else "-"
        text = digits[0] + ("." + digits[1:] if k > 1 else "") + f"e{mark}{abs(e)}"
    return sign + text


_DROP = object()
"""A context value that is not written (a NaN, nesting too deep, a type JSON has no value of)."""


@dataclass(frozen=True)
class EmitReference(Reference):
    """Section 6 of the contract over one catalogue."""

    def entry(self, code: str | None) -> ErrorCode | None:
        """The catalogue's server code ``code``, or ``None`` when it is written as the substitute."""
        by_code = {c.code: c for c in self.cat.server_codes}
        return by_code.get(code) if code is not None else None

    def texts(self, entry: ErrorCode, surface: str | None) -> tuple[str, str]:
        """The catalogue's message and remediation of ``entry`` on ``surface``."""
        message, remediation = entry.message, entry.remediation
        for override in entry.surfaces:
            if override.surface == surface:
                message = override.message or message
                remediation = override.remediation or remediation
        return message, remediation

    def value(self, value: Json, token: str | None, depth: int) -> Json:
        """A context value sanitized and bounded, or ``_DROP``; ``depth`` is its own in the body."""
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, str):
            return self.sanitize(value, token)
        if isinstance(value, (int, float)):
            x = as_double(value)
            return _DROP if math.isnan(x) else x
        if isinstance(value, (list, tuple)):
            if depth > self.cat.limits.json_max_depth:
                return _DROP
            items = [self.value(item, token, depth + 1) for item in value]
            return [item for item in items if item is not _DROP]
        if isinstance(value, Mapping):
            if depth > self.cat.limits.json_max_depth:
                return _DROP
            return self.members(value, token, depth)
        return _DROP

    def members(self, obj: Mapping[Json, Json], token: str | None, depth: int) -> dict[str, Json]:
        """An object of the context: clean keys only, sorted by code point, the first ``context_max_keys``."""
        kept: dict[str, Json] = {}
        for key in sorted(k for k in obj if isinstance(k, str)):
            if not key or self.sanitize(key, token) != key:
                continue
            item = self.value(obj[key], token, depth + 1)
            if item is not _DROP:
                kept[key] = item
            if len(kept) == self.cat.limits.context_max_keys:
                break
        return kept

    def write(self, value: Json) -> str:
        """The canonical JSON text of an already bounded value (keys already sorted)."""
        if value is None:
            return "null"
        if value is True:
            return "true"
        if value is False:
            return "false"
        if isinstance(value, str):
            return json_string(value)
        if isinstance(value, (int, float)):
            return json_number(value)
        if isinstance(value, list):
            return "[" + ",".join(self.write(item) for item in value) + "]"
        return "{" + ",".join(json_string(k) + ":" + self.write(v) for k, v in value.items()) + "}"

    def emit(self, given: EmitInput) -> Emitted:
        """The status, headers and body a writer sends for ``given``."""
        entry = self.entry(given.code)
        token = given.token
        request_id = self.sanitize(given.request_id, token) if given.request_id else ""
        if entry is None:
            entry = self.cat.code(self.cat.fallback.server_error)
            given = EmitInput(code=entry.code, surface=given.surface)
        message, remediation = self.texts(entry, given.surface)
        own_message = self.sanitize(given.message, token) if given.message else ""
        own_remediation = self.sanitize(given.remediation, token) if given.remediation else ""
        cause = self.sanitize(given.cause, token) if given.cause else ""
        context = self.members(given.context, token, _CONTEXT_DEPTH)

        def body() -> str:
            members = [("code", json_string(entry.code))]
            members.append(("message", json_string(own_message or message)))
            if cause:
                members.append(("cause", json_string(cause)))
            members.append(("remediation", json_string(own_remediation or remediation)))
            if context:
                members.append(("context", self.write(context)))
            if request_id:
                members.append(("request_id", json_string(request_id)))
            if entry.chain:
                members.append(("refines", self.write(list(entry.chain))))
            return '{"error":{' + ",".join(f'"{name}":{text}' for name, text in members) + "}}"

        cap = self.cat.limits.error_body_max_bytes
        text = body()
        id_header = request_id
        for drop in ("context", "cause", "request_id", "texts"):
            if len(text) <= cap:
                break
            if drop == "context":
                context = {}
            elif drop == "cause":
                cause = ""
            elif drop == "request_id":
                request_id = ""
            else:
                own_message = own_remediation = ""
            text = body()
        return Emitted(entry.http, self.headers(given.context, id_header), text)

    def headers(self, context: Mapping[str, Json], request_id: str) -> tuple[tuple[str, str], ...]:
        """The headers, lower-case names sorted: content type, request id, retry delay."""
        headers = [("content-type", CONTENT_TYPE)]
        if request_id and all(0x21 <= ord(ch) <= 0x7E for ch in request_id):
            headers.append(("x-request-id", request_id))
        delay = context.get(RETRY_KEY)
        if isinstance(delay, (int, float)) and not isinstance(delay, bool):
            x = as_double(delay)
            if x >= 0:
                ms = math.ceil(min(x, self.cat.limits.retry_after_max_ms))
                headers.append(("retry-after", str(-(-ms // 1000))))
                headers.append(("retry-after-ms", str(ms)))
        return tuple(sorted(headers))
