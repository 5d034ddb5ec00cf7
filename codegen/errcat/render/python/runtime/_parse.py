"""From a response body to a typed error (docs/sdk-contract.md section 1): :func:`error_from_body`.

:func:`make_error` reads the body, then tries :func:`_plain_body_error`, a
fast path that returns ``None`` when it does not apply, and otherwise fills
the fields by the contract's steps (:func:`_fields.fill`).
"""

from __future__ import annotations

import json

from ._base import AgentRunError
from ._classes import new_error
from ._fields import MAX_SAFE, context_delay, context_value, fill, store
from ._generated import catalogue as _cat
from ._headers import header_delay, pick_headers
from ._sanitize import (
    CAP,
    STEP1_PRINTABLE,
    catalogue_text_untouched,
    has_trigger,
    holds_any,
    sanitize_with,
    step1_keeps,
    token_forms,
    untouched_ascii,
)
from ._spec import SPECS, CodeSpec, fallback_code, refined_code

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ._fields import ContextValue
    from ._headers import Picked

__all__ = ["error_from_body"]

_MAX_BYTES = _cat.ERROR_BODY_MAX_BYTES
_MAX_DEPTH = _cat.JSON_MAX_DEPTH
_MAX_KEYS = _cat.CONTEXT_MAX_KEYS
_FIELDS = frozenset(_cat.CONTEXT_FIELDS)
_JSON_SPACE = " \t\n\r"
_DELTA = {"{": 1, "[": 1, "}": -1, "]": -1}
# Below these lengths a body cannot nest deeper than the limit: each level of
# arrays takes "[]", and each level of objects '{"":' and "}".
_SHALLOW_ANY = 2 * (_MAX_DEPTH + 1)
_SHALLOW_OBJECTS = 5 * (_MAX_DEPTH + 1) - 3


def _not_json(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


# One scanner for every call (json.loads with arguments builds a new decoder
# each time); NaN and Infinity are not JSON. Integers are read as ints, which
# keeps the C fast path: every integer a context keeps (within 2**53 - 1) is
# the same as a double, and any other is dropped either way. An integer past
# Python's digit limit fails the scan; the text is then read again with
# integers as doubles, as JavaScript reads them (a 5,000-digit number is inf).
_scan: Callable[[str, int], tuple[object, int]] = json.JSONDecoder(parse_constant=_not_json).scan_once  # type: ignore[attr-defined]
_scan_doubles: Callable[[str, int], tuple[object, int]] = json.JSONDecoder(
    parse_int=float, parse_constant=_not_json
).scan_once  # type: ignore[attr-defined]


def _text_of(body: object) -> str:
    """Steps 1 and 2: at most the body cap of UTF-8 bytes, decoded with U+FFFD for bad bytes."""
    if type(body) is bytes:
        raw = body[:_MAX_BYTES]
    elif isinstance(body, str):
        head = body[: _MAX_BYTES + 1]
        try:
            raw = head.encode("utf-8")
        except UnicodeEncodeError:
            # Pair surrogates as UTF-16 would; each one left unpaired becomes U+FFFD.
            raw = head.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace").encode("utf-8")
        raw = raw[:_MAX_BYTES]
    elif isinstance(body, (bytes, bytearray, memoryview)):
        raw = bytes(body[:_MAX_BYTES])
    else:
        raw = b""
    try:
        text = raw.decode()
    except UnicodeDecodeError:
        text = raw.decode("utf-8", "replace")
    return text[1:] if text[:1] == "\ufeff" else text


def _too_deep(text: str) -> bool:
    """Whether ``text`` nests arrays and objects deeper than the catalogue allows."""
    if text.count("{") + text.count("[") <= _MAX_DEPTH:
        return False
    import re
    from itertools import accumulate

    # Brackets inside strings do not nest; for valid JSON this removal is exact,
    # and invalid JSON is refused by the parser whatever the depth says. A
    # string left open runs to the end of the text (a lone backslash included),
    # so every match succeeds where it starts: one pass, never once per quote.
    bare = re.sub(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', "", text, flags=re.DOTALL)
    brackets = re.sub(r"[^\[\]{}]+", "", bare)
    return max(accumulate(map(_DELTA.__getitem__, brackets)), default=0) > _MAX_DEPTH


def _int_digits_limit() -> int:
    import sys

    return sys.get_int_max_str_digits()


def _parse(text: str) -> object:
    """Step 3: the JSON value of ``text`` when it is an object within the depth limit, else ``None``."""
    start = 0 if text[:1] == "{" else len(text) - len(text.lstrip(_JSON_SPACE))
    if text[start : start + 1] != "{":
        return None
    size = len(text)
    if size >= _SHALLOW_ANY and (size >= _SHALLOW_OBJECTS or "[" in text) and _too_deep(text):
        return None
    try:
        value, end = _scan(text, start)
    except ValueError:
        limit = _int_digits_limit()
        if not limit or size <= limit:
            return None
        try:
            value, end = _scan_doubles(text, start)
        except (ValueError, StopIteration, RecursionError):
            return None
    except (StopIteration, RecursionError):
        return None
    if end != size and text[end:].strip(_JSON_SPACE):
        return None  # something after the value: not JSON
    return value


class _Defaults:
    """A catalogue code's spec and whether the steps (without a token) keep the code and each of its texts.

    A server that sends a catalogue text unchanged has it checked by one comparison.
    """

    __slots__ = ("spec", "code", "message", "cause", "remediation")

    def __init__(self, spec: CodeSpec) -> None:
        self.spec = spec
        self.code = catalogue_text_untouched(spec.code)
        self.message = catalogue_text_untouched(spec.message)
        self.cause = catalogue_text_untouched(spec.cause)
        self.remediation = catalogue_text_untouched(spec.remediation)


_DEFAULTS: dict[str, _Defaults] = {}


def _defaults(code: str) -> _Defaults:
    """The :class:`_Defaults` of a catalogue code, made on first use (callers try ``_DEFAULTS`` first)."""
    found = _DEFAULTS[code] = _Defaults(SPECS[code])
    return found


# Context field names of the catalogue that the steps leave as they are.
_FIELD_NAMES_UNTOUCHED = frozenset(name for name in _cat.CONTEXT_FIELDS if untouched_ascii(name))


def _body_is_plain(text: str, forms: tuple[str, ...], header_id: str | None) -> bool:
    """Whether every string of the JSON ``text`` (and the request id header) is a piece of it as it stands.

    True when ``text`` is printable ASCII within the cap, without a backslash
    (so no escape), without a character step 1 changes (JSON escapes the
    controls) and without a token form; then step 1, the token and the cap
    change none of its strings, and only a rule (a trigger) can.
    """
    if not text.isascii() or "\\" in text or len(text) > CAP:
        return False
    for ch in STEP1_PRINTABLE:  # holds_any(), inlined: this runs for every envelope
        if ch in text:
            return False
    for form in forms:
        if form in text:
            return False
    if not header_id:
        return True
    return len(header_id) <= CAP and step1_keeps(header_id) and not holds_any(header_id, forms)


def _plain_text(value: object, default: str, untouched: bool, pending: list[str]) -> str:
    """A text member of a plain body as it stands, queued in ``pending`` unless the untouched default."""
    if type(value) is not str or not value:
        return default
    if not (untouched and value == default):
        pending.append(value)
    return value


def _plain_context(members: dict[str, object], pending: list[str]) -> dict[str, ContextValue]:
    """Step 6's context of a plain body's members, its keys and strings queued in ``pending``.

    The parsed object itself when it keeps every member as it is (the common
    case, checked in one pass); else :func:`_rebuilt_context`.
    """
    if len(members) > _MAX_KEYS:
        members = {key: value for key, value in members.items() if key in _FIELDS}
    mark = len(pending)
    for key, item in members.items():
        if key not in _FIELD_NAMES_UNTOUCHED:
            if not key:
                break
            pending.append(key)
        kind = type(item)
        if kind is str:
            if item:
                pending.append(item)  # type: ignore[arg-type]
        elif kind is int:
            if not -MAX_SAFE <= item <= MAX_SAFE:  # type: ignore[operator]
                break
        elif item is not None and kind is not bool:
            break
    else:
        return members  # type: ignore[return-value]
    del pending[mark:]
    return _rebuilt_context(members, pending)


def _rebuilt_context(members: dict[str, object], pending: list[str]) -> dict[str, ContextValue]:
    """The context of members some of which are dropped or changed: empty keys, numbers out of range."""
    out: dict[str, ContextValue] = {}
    for key, item in members.items():
        if not key:
            continue
        if key not in _FIELD_NAMES_UNTOUCHED:
            pending.append(key)
        if type(item) is str:
            if item:
                pending.append(item)
            out[key] = item
            continue
        keep, kept = context_value(item, ())
        if keep:
            out[key] = kept
    return out


def _plain_body_error(
    text: str,
    envelope: dict[str, object],
    code: str,
    status: int,
    picked: Picked | None,
    forms: tuple[str, ...],
) -> AgentRunError | None:
    """The fast path: the error of a plain body (:func:`_body_is_plain`), or ``None`` when it does not apply.

    Every string that is not catalogue text known to be untouched is queued
    and the queue is looked at once, joined: no trigger in it means no step
    changes any of them.
    """
    header_id = None if picked is None else picked[0]
    if not _body_is_plain(text, forms, header_id):
        return None
    pending: list[str] = []
    known = code in SPECS
    # An unknown code takes the class and texts of the first code it refines that the catalogue
    # knows; with none, the base class and its status's fallback texts.
    kind = code if known else refined_code(envelope.get("refines"))
    key = kind if kind is not None else fallback_code(status)
    defaults = _DEFAULTS.get(key) or _defaults(key)
    if not (known and defaults.code):
        pending.append(code)
    spec = defaults.spec
    get = envelope.get
    message = _plain_text(get("message"), spec.message, defaults.message, pending)
    cause = _plain_text(get("cause"), spec.cause, defaults.cause, pending)
    remediation = _plain_text(get("remediation"), spec.remediation, defaults.remediation, pending)
    members = get("context")
    context = _plain_context(members, pending) if type(members) is dict and members else {}
    request_id = header_id or _plain_text(get("request_id"), "", False, pending) or None
    if header_id:
        pending.append(header_id)
    if pending and has_trigger(" ".join(pending).lower()):
        return None
    delay = context_delay(context) if context else None
    if delay is None and picked is not None:
        delay = header_delay(picked)
    status_kept = status if type(status) is int else None
    return store(new_error(kind), code, message, cause, remediation, status_kept, context, request_id, delay)


# Compact JSON with every non-ASCII character escaped (so that it parses back to
# the same value, unpaired surrogates included), written out in pieces so that
# no more than the body cap of it is ever built. Strings, keys and integers end
# their pieces with a quote, a colon or a digit: a piece ending in a bare
# Infinity or NaN is a float, written back as a number that parses to it.
_ENCODER = json.JSONEncoder(separators=(",", ":"))
_INFINITY = "Infinity"


def _piece(piece: str) -> str:
    """``piece`` of the encoder's output with an infinity as ``1e400``; a NaN has no JSON text."""
    if piece.endswith(_INFINITY):
        return piece[: -len(_INFINITY)] + "1e400"
    if piece.endswith("NaN"):
        raise ValueError("NaN is not JSON")
    return piece


def _text_of_parsed(value: dict[object, object] | list[object]) -> str:
    """The compact JSON text of an already parsed body, cut after the body cap (contract section 1, step 1).

    A value no JSON text parses to (a cycle, NaN, a set, nesting past what
    Python can recurse), or one whose members fail as they are read, gives
    the empty text: the status decides, as it does for a body that is not JSON.
    """
    pieces: list[str] = []
    size = 0
    try:
        for raw in _ENCODER.iterencode(value):
            piece = _piece(raw)
            pieces.append(piece)
            size += len(piece)
            if size > _MAX_BYTES:
                break
    except Exception:
        return ""
    return "".join(pieces)


def make_error(body: object, status: int, picked: Picked | None, forms: tuple[str, ...]) -> AgentRunError:
    """Steps 1 to 7 of contract section 1; ``picked`` is what :func:`_headers.pick_headers` found."""
    if isinstance(body, (dict, list)):
        body = _text_of_parsed(body)
    text = _text_of(body)
    first = text[:1]
    value = _parse(text) if first == "{" or (first and first in _JSON_SPACE) else None
    envelope = value.get("error") if type(value) is dict else None
    raw_code = envelope.get("code") if type(envelope) is dict else None
    if type(raw_code) is not str or not raw_code:
        return fill(fallback_code(status), None, status, forms=forms, picked=picked, make=new_error)
    assert type(envelope) is dict
    err = _plain_body_error(text, envelope, raw_code, status, picked, forms)
    if err is not None:
        return err
    code = sanitize_with(raw_code, forms)
    if not code:
        return fill(fallback_code(status), None, status, forms=forms, picked=picked, make=new_error)
    return fill(code, envelope, status, forms=forms, picked=picked, make=new_error)


def error_from_body(
    body: bytes | bytearray | memoryview | str | dict[str, object] | list[object],
    *,
    status: int,
    headers: Mapping[str, str] | object | None = None,
    token: str | bytes | None = None,
) -> AgentRunError:
    """Turn an error response into its typed error; never raises.

    Reads at most the catalogue's body cap. A JSON envelope
    ``{"error": {"code": ...}}`` gives the class of its code; a code the
    catalogue does not know keeps the code and gets the class of the first code
    of the envelope's ``refines`` chain it knows (else the base class); any other body
    (HTML from a proxy, plain text, empty, invalid or too deeply nested JSON)
    gives the code of the status from the catalogue's fallback map, with the
    catalogue's message, cause and remediation. Every text is sanitized and
    ``token`` is redacted from it in every form.

    Args:
        body: the response body, as bytes or text, or the value a client
            already parsed it to (a ``dict`` or ``list``, such as
            ``requests.Response.json()``): that value is read as its compact
            JSON text, no more than the body cap of it written out.
        status: the HTTP status of the response.
        headers: the response headers: ``httpx.Headers``, any mapping, or
            ``(name, value)`` pairs, looked up case-insensitively (a name
            given more than once has its values joined with ``", "``);
            ``x-request-id``, ``Retry-After-Ms`` and ``Retry-After`` are read.
        token: the caller's credential, to be kept out of the error.

    Returns:
        The typed error, ready to raise.
    """
    try:
        picked = None if headers is None else pick_headers(headers)
        return make_error(body, status, picked, token_forms(token) if token else ())
    except Exception:
        return fallback_error(status)


def fallback_error(status: int) -> AgentRunError:
    """The status-derived error, for a failure in building one (unreachable by design).

    If a bug lands in the error path, the caller still gets the typed error of
    the status instead of an exception from the error path.
    """
    return fill(fallback_code(status), None, status, make=new_error)
