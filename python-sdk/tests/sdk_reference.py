"""A straightforward reference of docs/sdk-contract.md, to hold the SDK's fast paths to.

Written from the contract, step by step, with nothing skipped and nothing
cached: every sanitizer rule runs on every text, every field is sanitized on
its own, and JSON is read by ``json.loads``. It reads the generated tables
only (limits, character ranges, patterns, specs), never the SDK's runtime.
"""

from __future__ import annotations

import base64
import contextlib
import json
import math
import re
import signal
from collections.abc import Iterator
from typing import Any

from mitos_errors._generated import catalogue, sanitizer_rules

CAP = catalogue.TEXT_MAX_CHARS
MARKER = sanitizer_rules.TRUNCATION_MARKER
RED = sanitizer_rules.REDACTION
FIL = sanitizer_rules.FILTERED
_UNRESERVED = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_MAX_SAFE = 2**53 - 1


def _chars(ranges: tuple[tuple[int, int], ...]) -> str:
    return "[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges) + "]"


def reference_step1(text: str) -> str:
    """Step 1: delete the removed characters, turn the spacing ones into a space each."""
    text = re.sub(_chars(sanitizer_rules.REMOVE), "", text)
    return re.sub(_chars(sanitizer_rules.TO_SPACE), " ", text)


def reference_forms(token: str | bytes | None) -> tuple[str, ...]:
    """The token's forms, longest first (ties in the contract's order), without empty or marker parts."""
    if isinstance(token, bytes):
        token = token.decode("utf-8", "replace")
    if not token:
        return ()
    plain = reference_step1(token)
    raw = plain.encode("utf-8")
    upper = "".join(chr(b) if b in _UNRESERVED else f"%{b:02X}" for b in raw)
    lower = "".join(chr(b) if b in _UNRESERVED else f"%{b:02x}" for b in raw)
    b64 = base64.b64encode(raw).decode().rstrip("=")
    url = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    forms: list[str] = []
    for form in (plain, upper, lower, b64, url):
        if form and form not in forms and not any(form in m for m in (RED, FIL, MARKER)):
            forms.append(form)
    return tuple(sorted(forms, key=len, reverse=True))


def reference_sanitize(text: str, forms: tuple[str, ...]) -> str:
    """Contract section 2, every step in full, in order: characters, markers, secrets, token, cap."""
    text = reference_step1(text)
    for marker, table in ((FIL, sanitizer_rules.INJECTION), (RED, sanitizer_rules.SECRETS)):
        for _name, regex, _triggers in table:
            text = re.sub(regex, lambda m, marker=marker: m.group(1) + marker, text)
    for form in forms:
        text = text.replace(form, RED)
    return text if len(text) <= CAP else text[: CAP - len(MARKER)] + MARKER


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _constant(name: str) -> object:
    raise ValueError(name)


def reference_body(body: bytes | str) -> object:
    """Steps 1 to 3: the parsed object, or ``None`` when the body is not a JSON object."""
    if isinstance(body, str):
        # Each unpaired surrogate becomes U+FFFD, as JavaScript's TextEncoder does.
        raw = body.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace").encode("utf-8")
    else:
        raw = body
    text = raw[: catalogue.ERROR_BODY_MAX_BYTES].decode("utf-8", "replace")
    text = text.removeprefix("\ufeff")
    if not text.lstrip(" \t\n\r").startswith("{"):
        return None
    try:
        value = json.loads(text, parse_int=float, parse_constant=_constant)
    except (ValueError, RecursionError):
        return None
    if _depth(value) > catalogue.JSON_MAX_DEPTH:
        return None
    return value


def _fallback(status: int) -> str:
    code = catalogue.FALLBACK_BY_STATUS.get(status)
    if code is not None:
        return code
    if 400 <= status <= 499:
        return catalogue.FALLBACK_CLIENT_ERROR
    if 500 <= status <= 599:
        return catalogue.FALLBACK_SERVER_ERROR
    return catalogue.FALLBACK_DEFAULT


def reference_header(headers: list[tuple[str, str]], name: str) -> str | None:
    """A header's value: every value of the name, in any case, joined with ", " in order."""
    values = [value for key, value in headers if key.lower() == name]
    return ", ".join(values) if values else None


def _context_value(value: object, forms: tuple[str, ...]) -> tuple[bool, object]:
    if isinstance(value, str):
        return True, reference_sanitize(value, forms)
    if value is None or isinstance(value, bool):
        return True, value
    if isinstance(value, float):
        if not math.isfinite(value):
            return False, None
        if value.is_integer():
            return abs(value) <= _MAX_SAFE, int(value)
        return True, value
    return False, None


def reference_error(
    body: bytes | str, status: int, headers: list[tuple[str, str]], token: str | None
) -> dict[str, Any]:
    """What contract section 1 says the error of a response is, as plain fields."""
    forms = reference_forms(token)
    parsed = reference_body(body)
    envelope = parsed.get("error") if isinstance(parsed, dict) else None
    raw_code = envelope.get("code") if isinstance(envelope, dict) else None
    code = reference_sanitize(raw_code, forms) if isinstance(raw_code, str) else ""
    context: dict[str, object] = {}
    envelope_id = None
    if code:
        assert isinstance(envelope, dict)
        row = catalogue.SPECS.get(code) or catalogue.SPECS[_fallback(status)]
        texts = []
        for name, default in (
            ("message", row["message"]),
            ("cause", row["cause"]),
            ("remediation", row["remediation"]),
        ):
            value = envelope.get(name)
            clean = reference_sanitize(value, forms) if isinstance(value, str) else ""
            texts.append(clean or default)
        message, cause, remediation = texts
        members = envelope.get("context")
        if isinstance(members, dict):
            if len(members) > catalogue.CONTEXT_MAX_KEYS:
                members = {k: v for k, v in members.items() if k in catalogue.CONTEXT_FIELDS}
            for key, value in members.items():
                if not key or reference_sanitize(key, forms) != key:
                    continue
                keep, kept = _context_value(value, forms)
                if keep:
                    context[key] = kept
        value = envelope.get("request_id")
        if isinstance(value, str):
            envelope_id = reference_sanitize(value, forms) or None
    else:
        code = _fallback(status)
        row = catalogue.SPECS[code]
        message, cause, remediation = row["message"], row["cause"], row["remediation"]
    header_id = reference_header(headers, "x-request-id")
    request_id = (reference_sanitize(header_id, forms) if header_id is not None else "") or envelope_id
    retry = context.get("retry_after_ms")
    retry_after_ms = retry if isinstance(retry, int) and not isinstance(retry, bool) and retry >= 0 else None
    if retry_after_ms is None:
        ms = reference_header(headers, "retry-after-ms")
        seconds = reference_header(headers, "retry-after")
        if ms is not None and re.fullmatch("[0-9]{1,15}", ms):
            retry_after_ms = int(ms)
        elif seconds is not None and re.fullmatch("[0-9]{1,15}", seconds):
            retry_after_ms = int(seconds) * 1000
    known = code in catalogue.SPECS
    return {
        "class": catalogue.SPECS[code]["class_name"] if known else catalogue.BASE_CLASS,
        "code": code,
        "message": message,
        "cause": cause,
        "remediation": remediation,
        "status": status,
        "context": context,
        "request_id": request_id,
        "retry_after_ms": retry_after_ms,
        "retryable": catalogue.SPECS[code]["retryable"] if known else catalogue.UNKNOWN_RETRYABLE,
        "recovery": tuple(
            (catalogue.SPECS[code]["recovery"] if known else catalogue.UNKNOWN_RECOVERY).values()
        ),
        "side_effects": catalogue.SPECS[code]["side_effects"] if known else catalogue.UNKNOWN_SIDE_EFFECTS,
    }


def fields_of(err: Any) -> dict[str, Any]:
    """The same fields of an SDK error."""
    return {
        "class": type(err).__name__,
        "code": err.code,
        "message": err.message,
        "cause": err.cause,
        "remediation": err.remediation,
        "status": err.status,
        "context": dict(err.context),
        "request_id": err.request_id,
        "retry_after_ms": err.retry_after_ms,
        "retryable": err.retryable,
        "recovery": (err.recovery.action, err.recovery.same_arguments, err.recovery.guidance),
        "side_effects": err.side_effects,
    }


@contextlib.contextmanager
def hang_guard(seconds: int) -> Iterator[None]:
    """Raise ``TimeoutError`` if the block runs longer than ``seconds``: a hang detector, not a timer."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s: catastrophic backtracking?")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
