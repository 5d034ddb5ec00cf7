"""The runtime of mitos_errors: specs, the sanitizer, body parsing, local errors.

Imported on first use (the first error built, or the first function or
constant read from the package), never by ``import mitos_errors``. It follows
docs/sdk-contract.md and reads every name, limit, table and pattern from the
generated modules, so another catalogue generates a working package too.

Sections, in contract order:

- specs: :class:`Recovery`, :class:`CodeSpec`, the unknown-code catch-all
  (the catalogue's ``unknown_code``), :func:`lookup`, :func:`error_for_code`;
- sanitizing (contract section 2): :func:`sanitize_text`, :func:`token_forms`;
- from a body to an error (section 1): :func:`error_from_body`;
- errors the SDK raises itself (section 3): :func:`validate_timeout`,
  :func:`error_for_exit`, and the constructors' defaults.

The fast paths are exact. Each decides with cheap ``str`` operations that the
full steps would leave a text as it is (printable ASCII, within the cap, no
token form, and no rule that could match, which the generated
``has_trigger`` tells from a few ``memchr`` and substring tests), and
otherwise runs them. An envelope whose body is plain JSON (printable ASCII,
no backslash) has all its strings checked at once, joined. The tests compare
everything with a straightforward reference of the contract on random input
(``tests/sdk_reference.py``).
"""

from __future__ import annotations

import json
from binascii import b2a_base64
from math import isfinite

from . import _generated as _errors
from ._generated import catalogue as _cat
from ._generated import sanitizer_rules as _rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any

    from . import ContextValue, ErrorBase

__all__ = [
    "EXEC_TIMEOUT_EXIT_CODE",
    "SPECS",
    "CodeSpec",
    "Recovery",
    "code_spec",
    "error_for_code",
    "error_for_exit",
    "error_from_body",
    "fallback_code",
    "http_date_ms",
    "lookup",
    "retry_after_ms_from_headers",
    "sanitize_text",
    "token_forms",
    "validate_timeout",
]


# ================================================================== specs


class Recovery:
    """What a caller (a program or a language model) should do next.

    Attributes:
        action: ``revise_and_retry``, ``retry_later``, ``reauthenticate``,
            ``rediscover``, ``reduce_work``, ``inspect_and_escalate``, ...
        same_arguments: whether resending the very same request can succeed:
            ``safe``, ``conditional``, ``discouraged`` or ``never``.
        guidance: one sentence saying what to do.
    """

    __slots__ = ("action", "same_arguments", "guidance")

    action: str
    same_arguments: str
    guidance: str

    def __init__(self, action: str, same_arguments: str, guidance: str = "") -> None:
        object.__setattr__(self, "action", action)
        object.__setattr__(self, "same_arguments", same_arguments)
        object.__setattr__(self, "guidance", guidance)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Recovery is read-only; cannot set {name!r}")

    def __repr__(self) -> str:
        return (
            f"Recovery(action={self.action!r}, same_arguments={self.same_arguments!r}, "
            f"guidance={self.guidance!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Recovery):
            return NotImplemented
        return (self.action, self.same_arguments, self.guidance) == (
            other.action,
            other.same_arguments,
            other.guidance,
        )

    def __hash__(self) -> int:
        return hash((self.action, self.same_arguments, self.guidance))

    def __reduce__(self) -> tuple[type[Recovery], tuple[str, str, str]]:
        return (Recovery, (self.action, self.same_arguments, self.guidance))

    def to_dict(self) -> dict[str, str]:
        """The advice as a JSON-ready dict."""
        return {"action": self.action, "same_arguments": self.same_arguments, "guidance": self.guidance}


class CodeSpec:
    """Everything the catalogue says about one code; read-only.

    Built from the generated catalogue table, one per code. ``message``,
    ``cause`` and ``remediation`` are the defaults an error of this code gets
    when the server sends none; ``context_fields`` are the context keys the
    code documents.
    """

    __slots__ = (
        "code",
        "class_name",
        "message",
        "cause",
        "remediation",
        "http_status",
        "grpc_status",
        "retryable",
        "is_auth_failure",
        "is_cancelled",
        "recovery",
        "side_effects",
        "emitted_by",
        "context_fields",
    )

    code: str
    class_name: str
    message: str
    cause: str
    remediation: str
    http_status: int
    grpc_status: str
    retryable: bool
    is_auth_failure: bool
    is_cancelled: bool
    recovery: Recovery
    side_effects: str
    emitted_by: str
    context_fields: tuple[str, ...]

    def __init__(
        self,
        *,
        code: str,
        class_name: str,
        message: str,
        cause: str,
        remediation: str,
        http_status: int,
        grpc_status: str,
        retryable: bool,
        is_auth_failure: bool,
        is_cancelled: bool,
        recovery: Recovery,
        side_effects: str,
        emitted_by: str,
        context_fields: tuple[str, ...],
    ) -> None:
        values = locals()
        for name in self.__slots__:
            object.__setattr__(self, name, values[name])

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"CodeSpec is read-only; cannot set {name!r}")

    def __repr__(self) -> str:
        return f"CodeSpec(code={self.code!r}, class_name={self.class_name!r}, http_status={self.http_status})"

    @property
    def sdk_local(self) -> bool:
        """True for a code the SDK synthesizes and no server sends."""
        return self.emitted_by == "sdk"

    def to_dict(self) -> dict[str, Any]:
        """The spec as a JSON-ready dict."""
        out: dict[str, Any] = {name: getattr(self, name) for name in self.__slots__}
        out["recovery"] = self.recovery.to_dict()
        out["context_fields"] = list(self.context_fields)
        return out


def _spec_of(code: str, row: _cat.Row) -> CodeSpec:
    (
        name,
        message,
        cause,
        remediation,
        http,
        grpc,
        retryable,
        auth,
        cancelled,
        advice,
        effects,
        by,
        fields,
    ) = row
    return CodeSpec(
        code=code,
        class_name=name,
        message=message,
        cause=cause,
        remediation=remediation,
        http_status=http,
        grpc_status=grpc,
        retryable=retryable,
        is_auth_failure=auth,
        is_cancelled=cancelled,
        recovery=Recovery(*advice),
        side_effects=effects,
        emitted_by=by,
        context_fields=fields,
    )


SPECS: dict[str, CodeSpec] = {code: _spec_of(code, row) for code, row in _cat.SPECS.items()}
"""Every code of the catalogue with its :class:`CodeSpec`."""


class CatchAll:
    """The classification of a code the catalogue does not define (its ``unknown_code`` entry)."""

    __slots__ = ("retryable", "recovery", "side_effects")

    is_auth_failure = False
    is_cancelled = False

    def __init__(self, retryable: bool, recovery: Recovery, side_effects: str) -> None:
        self.retryable = retryable
        self.recovery = recovery
        self.side_effects = side_effects


CATCH_ALL = CatchAll(_cat.UNKNOWN_RETRYABLE, Recovery(*_cat.UNKNOWN_RECOVERY), _cat.UNKNOWN_SIDE_EFFECTS)
"""What an error with an unknown code reports: the catalogue's ``unknown_code`` entry."""


def classify(code: str) -> CodeSpec | CatchAll:
    """The spec of ``code``, or the catch-all for a code the catalogue does not define."""
    return SPECS.get(code) or CATCH_ALL


def code_spec(code: str) -> CodeSpec | None:
    """Return the catalogue's spec of ``code``, or ``None`` for a code it does not know."""
    return SPECS.get(code)


Base = _errors.Base
_CLASSES: dict[str, type[ErrorBase]] = dict(_errors.CLASSES)


def lookup(code: str) -> type[_errors.Base]:
    """Return the exception class of ``code``; a code the catalogue does not know gives the base class.

    The match is exact: ``code`` is compared as given, not sanitized.
    """
    return _errors.CLASSES.get(code, Base) if type(code) is str else Base


def error_for_code(
    code: str,
    message: str,
    *,
    cause: str = "",
    remediation: str = "",
    status: int | None = None,
    context: Mapping[str, Any] | None = None,
) -> _errors.Base:
    """Build the typed error of ``code`` (the base class for an unknown code).

    Every text is sanitized (without a token); an empty ``message``, ``cause``
    or ``remediation`` takes the catalogue's text of the code, or, for a code
    the catalogue does not define, of the code ``status`` falls back to (the
    default fallback without a status). Never raises for any code.

    Args:
        code: the machine code, as the server sent it.
        message: the one-line summary.
        cause: the call-site detail.
        remediation: what to do next.
        status: the HTTP status, if any.
        context: structured fields; non-scalar values are dropped.

    Returns:
        An instance of the code's class, ready to raise.
    """
    cls = lookup(code)
    return cls(message, code, cause=cause, remediation=remediation, status=status, context=context)


# ================================================================== sanitizing

_CAP = _cat.TEXT_MAX_CHARS
_MARKER = _rules.TRUNCATION_MARKER
_KEEP = _CAP - len(_MARKER)
_REDACTION = _rules.REDACTION
# A form never holds NUL (step 1 removes it), so it is inside one of the markers
# exactly when it is inside this NUL-joined string.
_RESERVED_JOINED = "\0".join((_rules.REDACTION, _rules.FILTERED, _rules.TRUNCATION_MARKER))
_UNRESERVED = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
# bytes.translate table: unreserved bytes to themselves, every other byte to 0x80.
_UNRESERVED_TABLE = bytes(b if b in _UNRESERVED else 0x80 for b in range(256))
_has_trigger = _rules.has_trigger


def _ascii_table() -> bytes:
    """A ``bytes.translate`` table: ASCII upper case to lower case, step-1 characters to 0x80.

    ``text.encode().translate(_TABLE)`` of ASCII text is ASCII exactly when
    step 1 leaves the text as it is, and then it is the text in lower case.
    """
    table = bytearray(range(256))
    table[0x41:0x5B] = bytes(range(0x61, 0x7B))
    for first, last in _rules.REMOVE + _rules.TO_SPACE:
        for c in range(first, min(last, 0x7F) + 1):
            table[c] = 0x80
    return bytes(table)


_TABLE = _ascii_table()
# Step-1 characters that a JSON string can hold raw (JSON escapes every character below 0x20).
_STEP1_VISIBLE = tuple(chr(c) for c in range(0x20, 0x80) if _TABLE[c] == 0x80)


class _Patterns:
    """The compiled character classes and rules, built for the first text that needs them."""

    __slots__ = ("remove", "to_space", "rules")

    def __init__(self) -> None:
        import re

        def char_class(ranges: tuple[tuple[int, int], ...]) -> str:
            return "[" + "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in ranges) + "]"

        self.remove: re.Pattern[str] | None = (
            re.compile(char_class(_rules.REMOVE) + "+") if _rules.REMOVE else None
        )
        self.to_space: re.Pattern[str] | None = (
            re.compile(char_class(_rules.TO_SPACE)) if _rules.TO_SPACE else None
        )
        rules: list[tuple[re.Pattern[str], str, tuple[str, ...]]] = []
        # Contract section 2: the injection markers (step 2), then the secrets (step 3).
        for replacement, table in ((_rules.FILTERED, _rules.INJECTION), (_rules.REDACTION, _rules.SECRETS)):
            template = "\\g<1>" + replacement.replace("\\", "\\\\")
            rules.extend((re.compile(regex), template, triggers) for _name, regex, triggers in table)
        self.rules = tuple(rules)


_patterns: list[_Patterns] = []


def _compiled() -> _Patterns:
    if not _patterns:
        _patterns.append(_Patterns())
    return _patterns[0]


def _step1_clean(text: str) -> bool:
    """Whether step 1 leaves ``text`` as it is (always true of printable ASCII)."""
    return text.isascii() and text.encode().translate(_TABLE).isascii()


def _strip(text: str) -> str:
    """Step 1: delete the removed characters, turn the spacing ones into spaces."""
    if _step1_clean(text):
        return text
    c = _compiled()
    if c.remove is not None:
        text = c.remove.sub("", text)
    if c.to_space is not None:
        text = c.to_space.sub(" ", text)
    return text


def _full(text: str, forms: tuple[str, ...]) -> str:
    """Steps 1 to 5 as the contract writes them: characters, markers, secrets, the token, the cap.

    A rule is skipped when none of its triggers is in the lower-cased text,
    which the contract allows for any text: lower-casing maps ASCII letters
    to ASCII letters and the triggers are ASCII, so it never hides one.
    """
    text = _strip(text)
    low = text.lower()
    if _has_trigger(low):
        for pattern, template, triggers in _compiled().rules:
            for trigger in triggers:
                if trigger in low:
                    new = pattern.sub(template, text)
                    if new != text:
                        text = new
                        low = text.lower()
                    break
    for form in forms:
        if form in text:
            text = text.replace(form, _REDACTION)
    if len(text) > _CAP:
        text = text[:_KEEP] + _MARKER
    return text


# Catalogue texts and names: unchecked (None) until the full steps ran on them once.
_KNOWN: dict[str, bool | None] = dict.fromkeys(
    text
    for spec in SPECS.values()
    for text in (spec.code, spec.message, spec.cause, spec.remediation, *spec.context_fields)
)
_KNOWN.update(dict.fromkeys(_cat.CONTEXT_FIELDS))


def _known_clean(text: str) -> bool:
    """Whether ``text`` is a catalogue text that the steps (without a token) leave as it is."""
    state = _KNOWN.get(text, False)
    if state is None:
        state = _KNOWN[text] = _full(text, ()) == text
    return state


def sanitize_with(text: str, forms: tuple[str, ...]) -> str:
    """:func:`sanitize_text` with the token forms already computed by :func:`token_forms`."""
    if text.isascii() and len(text) <= _CAP:
        low = text.encode().translate(_TABLE)
        if low.isascii() and not _has_trigger(low.decode()):
            for form in forms:
                if form in text:
                    return _full(text, forms)
            return text
    if _known_clean(text):
        for form in forms:
            if form in text:
                return _full(text, forms)
        return text
    return _full(text, forms)


def sanitize_text(text: str, *, token: str | bytes | None = None) -> str:
    """Clean one piece of server-controlled text; never raises.

    In the contract's order: removes control, bidi and invisible characters
    (line breaks become spaces, so no text can forge a log line), replaces
    prompt-injection markers, redacts secret-like strings, redacts every form
    of ``token``, and caps the length at the catalogue's text cap, ending in
    ``…[truncated]``. Idempotent for a token without a character of the
    markers (``[REDACTED]``, ``[filtered]``, ``…[truncated]``).

    Args:
        text: the text; anything else is turned into text with ``str()``.
        token: the caller's credential, to be redacted in every form.

    Returns:
        The cleaned text.
    """
    if type(text) is not str:
        text = str(text)  # a caller may pass anything
    if token:
        return sanitize_with(text, token_forms(token))
    # sanitize_with(text, ()) inlined: the clean case is the common one.
    if text.isascii() and len(text) <= _CAP:
        low = text.encode().translate(_TABLE)
        if low.isascii() and not _has_trigger(low.decode()):
            return text
    return text if _known_clean(text) else _full(text, ())


def _percent(raw: bytes, digits: str) -> str:
    return "".join(chr(b) if b in _UNRESERVED else f"%{digits[b >> 4]}{digits[b & 15]}" for b in raw)


def _utf8(text: str) -> bytes:
    """UTF-8 bytes of ``text``, each unpaired surrogate as U+FFFD (as JavaScript's TextEncoder)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace").encode("utf-8")


def token_forms(token: str | bytes | None) -> tuple[str, ...]:
    """The forms of ``token`` that are redacted from text, longest first.

    The token after step 1 of the sanitizer; its UTF-8 bytes percent-encoded
    (every byte outside ``A-Z a-z 0-9 - . _ ~`` as ``%XX``) in upper and in
    lower case; and its UTF-8 bytes in base64 and base64url without padding.
    Empty forms and forms found inside the redaction, filtered or truncation
    markers are left out, so sanitizing stays idempotent. Forms of the same
    length keep that order.
    """
    if type(token) is str and token.isascii():
        raw = token.encode()
        if raw.translate(_UNRESERVED_TABLE).isascii() and raw:
            # The common token, all unreserved (so step 1 leaves it): both
            # percent-encodings are the token itself, and base64 is longer than
            # what it encodes, so the order is known.
            b64 = b2a_base64(raw, newline=False).rstrip(b"=").decode()
            if token not in _RESERVED_JOINED and b64 not in _RESERVED_JOINED:
                if "+" not in b64 and "/" not in b64:
                    return (b64, token)
                url = b64.replace("+", "-").replace("/", "_")
                if url not in _RESERVED_JOINED:
                    return (b64, url, token)
    elif type(token) is not str:
        if isinstance(token, bytes):
            token = token.decode("utf-8", "replace")
        elif not isinstance(token, str):
            return ()
    if token.isascii():
        raw = token.encode()
        if not raw.translate(_TABLE).isascii():
            token = _strip(token)
            raw = token.encode()
    else:
        token = _strip(token)
        raw = _utf8(token)
    if not token:
        return ()
    b64 = b2a_base64(raw, newline=False).rstrip(b"=").decode()
    reserved = _RESERVED_JOINED
    if not raw.translate(None, _UNRESERVED) and token not in reserved and b64 not in reserved:
        # The common token: both percent-encodings are the token itself, and
        # base64 is longer than what it encodes, so the order is known.
        if "+" not in b64 and "/" not in b64:
            return (b64, token)
        url = b64.replace("+", "-").replace("/", "_")
        return (b64, url, token) if url not in reserved else (b64, token)
    forms = dict.fromkeys(
        (
            token,
            _percent(raw, "0123456789ABCDEF"),
            _percent(raw, "0123456789abcdef"),
            b64,
            b64.replace("+", "-").replace("/", "_"),
        )
    )
    return tuple(sorted((form for form in forms if form and form not in reserved), key=len, reverse=True))


# ================================================================== from a body to an error

_MAX_BYTES = _cat.ERROR_BODY_MAX_BYTES
_MAX_DEPTH = _cat.JSON_MAX_DEPTH
_MAX_KEYS = _cat.CONTEXT_MAX_KEYS
_FIELDS = frozenset(_cat.CONTEXT_FIELDS)
_MAX_SAFE = 2**53 - 1
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


def fallback_code(status: int) -> str:
    """The code of a response without an envelope: exact status, then status class, then default."""
    if type(status) is int:
        code = _cat.FALLBACK_BY_STATUS.get(status)
        if code is not None:
            return code
        if 400 <= status <= 499:
            return _cat.FALLBACK_CLIENT_ERROR
        if 500 <= status <= 599:
            return _cat.FALLBACK_SERVER_ERROR
    return _cat.FALLBACK_DEFAULT


def _too_deep(text: str) -> bool:
    """Whether ``text`` nests arrays and objects deeper than the catalogue allows."""
    if text.count("{") + text.count("[") <= _MAX_DEPTH:
        return False
    import re
    from itertools import accumulate

    # Brackets inside strings do not nest; for valid JSON this removal is exact,
    # and invalid JSON is refused by the parser whatever the depth says.
    bare = re.sub(r'"[^"\\]*(?:\\.[^"\\]*)*"', "", text, flags=re.DOTALL)
    brackets = re.sub(r"[^\[\]{}]+", "", bare)
    return max(accumulate(map(_DELTA.__getitem__, brackets)), default=0) > _MAX_DEPTH


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
    text = raw.decode("utf-8", "replace")
    return text[1:] if text[:1] == "\ufeff" else text


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


_WANTED = {"x-request-id": 0, "retry-after-ms": 1, "retry-after": 2}
_WANTED_BYTES = {name.encode(): index for name, index in _WANTED.items()}
_WANTED_LENGTHS = frozenset(map(len, _WANTED))


def _pick_headers(headers: object) -> list[str | None] | None:
    """``[x-request-id, retry-after-ms, retry-after]`` from any headers object, or ``None`` if none is there.

    Names are compared case-insensitively; a name given more than once (in
    any case) gets its values joined with ``", "`` in order, as ``fetch``'s
    ``Headers.get`` does. Accepts ``httpx.Headers`` (its raw byte pairs,
    decoded as Latin-1, as ``fetch`` does), any mapping, or pairs. Headers
    that fail to iterate give nothing.
    """
    found: list[str | None] | None = None
    try:
        raw = None if type(headers) is dict else getattr(headers, "raw", None)
        pairs: Iterable[tuple[object, object]]
        if type(raw) is list:
            for raw_key, raw_value in raw:
                if len(raw_key) in _WANTED_LENGTHS:
                    index = _WANTED_BYTES.get(raw_key.lower())
                    if index is not None:
                        value = raw_value.decode("latin-1")
                        if found is None:
                            found = [None, None, None]
                        prior = found[index]
                        found[index] = value if prior is None else f"{prior}, {value}"
            return found
        pairs = headers.items() if hasattr(headers, "items") else headers  # type: ignore[assignment]
        for raw_key, raw_value in pairs:
            key = raw_key.decode("latin-1") if isinstance(raw_key, bytes) else raw_key
            if not isinstance(key, str) or len(key) not in _WANTED_LENGTHS:
                continue
            index = _WANTED.get(key.lower())
            if index is None:
                continue
            value = raw_value.decode("latin-1") if isinstance(raw_value, bytes) else raw_value
            if isinstance(value, str):
                if found is None:
                    found = [None, None, None]
                prior = found[index]
                found[index] = value if prior is None else f"{prior}, {value}"
    except Exception:
        return None
    return found


def _digits(value: str) -> bool:
    return 0 < len(value) <= 15 and value.isascii() and value.isdigit()


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DAYS = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
_LONG_DAYS = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
_MONTH = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
_TIME = "([0-9]{2}):([0-9]{2}):([0-9]{2})"
_DATE_FORMS = (
    # IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
    (f"{_DAYS}, ([0-9]{{2}}) {_MONTH} ([0-9]{{4}}) {_TIME} GMT", (0, 1, 2, 3, 4, 5)),
    # RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
    (f"{_LONG_DAYS}, ([0-9]{{2}})-{_MONTH}-([0-9]{{2}}) {_TIME} GMT", (0, 1, 2, 3, 4, 5)),
    # asctime: Sun Nov  6 08:49:37 1994
    (f"{_DAYS} {_MONTH} ([ 0-9][0-9]) {_TIME} ([0-9]{{4}})", (1, 0, 5, 2, 3, 4)),
)


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date."""
    year -= month <= 2
    era = (year if year >= 0 else year - 399) // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def http_date_ms(value: str, now_ms: int) -> int | None:
    """Milliseconds since the epoch of an HTTP date (RFC 9110 section 5.6.7), or ``None``.

    Accepts the three forms a recipient must read: IMF-fixdate, RFC 850 (a
    two-digit year more than 50 years ahead of ``now_ms`` is in the past
    century) and asctime.
    """
    import re

    for pattern, order in _DATE_FORMS:
        m = re.fullmatch(pattern, value)
        if m is None:
            continue
        groups = m.groups()
        day, month_name, year_text, hh, mm, ss = (groups[i] for i in order)
        year = int(year_text)
        if len(year_text) == 2:
            this_year = 1970 + now_ms // 31_556_952_000
            year += this_year - this_year % 100
            if year > this_year + 50:
                year -= 100
        month = _MONTHS.index(month_name.lower()) + 1
        day_n, hour, minute, second = int(day), int(hh), int(mm), int(ss)
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        month_days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)[month - 1]
        if not (1 <= day_n <= month_days and hour <= 23 and minute <= 59 and second <= 60):
            return None
        # A leap second (:60) counts as :59, as JavaScript's Date.UTC reads it in the TypeScript SDK.
        second = min(second, 59)
        seconds = _days_from_civil(year, month, day_n) * 86400 + hour * 3600 + minute * 60 + second
        return seconds * 1000
    return None


def _retry_after(ms_header: str | None, header: str | None, now_ms: int | None = None) -> int | None:
    if ms_header is not None and _digits(ms_header):
        return int(ms_header)
    if header is None:
        return None
    if _digits(header):
        return int(header) * 1000
    if now_ms is None:
        import time

        now_ms = int(time.time() * 1000)
    when = http_date_ms(header, now_ms)
    return None if when is None else max(0, when - now_ms)


def retry_after_ms_from_headers(headers: object, now_ms: int | None = None) -> int | None:
    """The retry delay the headers give: ``Retry-After-Ms``, else ``Retry-After`` (seconds or an HTTP date).

    Digits must be plain ASCII, at most 15 of them; a date in the past gives 0.
    """
    picked = _pick_headers(headers)
    return None if picked is None else _retry_after(picked[1], picked[2], now_ms)


def _context_value(value: object, forms: tuple[str, ...]) -> tuple[bool, ContextValue]:
    """Whether a context value is kept, and as what (contract section 1, step 6).

    A string is sanitized; ``True``, ``False`` and ``None`` are kept; a finite
    number is kept (an integral one as an ``int``, if within +-(2**53 - 1));
    anything else is dropped.
    """
    kind = type(value)
    if kind is str:
        return True, sanitize_with(value, forms)  # type: ignore[arg-type]
    if kind is int:
        return -_MAX_SAFE <= value <= _MAX_SAFE, value  # type: ignore[operator, return-value]
    if kind is float:
        number: float = value  # type: ignore[assignment]
        if not isfinite(number):
            return False, None
        if number.is_integer():
            return -_MAX_SAFE <= number <= _MAX_SAFE, int(number)
        return True, number
    if value is None or kind is bool:
        return True, value  # type: ignore[return-value]
    return False, None


def normalize_context(raw: Mapping[str, object] | object, forms: tuple[str, ...]) -> dict[str, ContextValue]:
    """The context an error keeps from ``raw`` (contract section 1, step 6).

    All members, unless there are more than the catalogue's
    ``context_max_keys``: then only those named in its ``context_fields``. A
    member whose key is not a string, is empty, or is changed by sanitizing
    is dropped; values go through :func:`_context_value`.
    """
    if not isinstance(raw, dict):
        try:
            raw = dict(raw)  # type: ignore[call-overload]
        except Exception:
            return {}
    assert isinstance(raw, dict)
    items: Iterable[tuple[object, object]] = raw.items()
    if len(raw) > _MAX_KEYS:
        items = [(key, value) for key, value in items if key in _FIELDS]
    out: dict[str, ContextValue] = {}
    for key, value in items:
        if type(key) is not str or not key or sanitize_with(key, forms) != key:
            continue
        keep, kept = _context_value(value, forms)
        if keep:
            out[key] = kept
    return out


def _build(
    cls: type[ErrorBase],
    message: str,
    code: str,
    cause: str,
    remediation: str,
    status: int | None,
    context: dict[str, ContextValue],
    request_id: str | None,
    retry_after_ms: int | None,
) -> ErrorBase:
    """Make an instance of ``cls`` from sanitized values without running ``__init__``."""
    err = cls.__new__(cls, message)
    err.__dict__ = {
        "code": code,
        "message": message,
        "cause": cause,
        "remediation": remediation,
        "status": status,
        "_context": context,
        "request_id": request_id,
        "retry_after_ms": retry_after_ms,
    }
    return err


def _fast_clean(text: str) -> bool:
    """Whether ``text`` is printable ASCII, within the cap, without a trigger: the steps leave it."""
    if text.isascii() and len(text) <= _CAP:
        low = text.encode().translate(_TABLE)
        return low.isascii() and not _has_trigger(low.decode())
    return False


# Context field names of the catalogue that the steps leave as they are.
_CLEAN_FIELDS = frozenset(name for name in _cat.CONTEXT_FIELDS if _fast_clean(name))
# Per known code: its spec, its class, and whether its message, cause and
# remediation are left as they are by the steps (filled on first use).
_KNOWN_CODES: dict[str, tuple[CodeSpec, type[ErrorBase], bool, bool, bool]] = {}


def _known_code(code: str, spec: CodeSpec) -> tuple[CodeSpec, type[ErrorBase], bool, bool, bool]:
    entry = _KNOWN_CODES[code] = (
        spec,
        _CLASSES.get(code, Base),
        _known_clean(spec.message),
        _known_clean(spec.cause),
        _known_clean(spec.remediation),
    )
    return entry


# Step 1 changes no printable ASCII character other than these; when it
# changes exactly the ASCII controls, str.isprintable() is the ASCII test.
_ASCII_STEP1_IS_CONTROLS = _STEP1_VISIBLE == ("\x7f",) and all(_TABLE[c] == 0x80 for c in range(0x20))


def _plain_context(members: Mapping[str, object], pending: list[str]) -> dict[str, ContextValue]:
    """Step 6's context of members from a plain body (see :func:`_make_error`), its strings left to check.

    Drops empty keys and values that are not kept, turns integral doubles into
    ints, and appends every key that is not a known clean field name and
    every non-empty string value to ``pending``.
    """
    context: dict[str, ContextValue] = {}
    for key, item in members.items():
        if key not in _CLEAN_FIELDS:
            if not key:
                continue
            pending.append(key)
        kind = type(item)
        if kind is str:
            if item:
                pending.append(item)  # type: ignore[arg-type]
            context[key] = item  # type: ignore[assignment]
        elif kind is int:
            if -_MAX_SAFE <= item <= _MAX_SAFE:  # type: ignore[operator]
                context[key] = item  # type: ignore[assignment]
        elif kind is float:
            if item.is_integer():  # type: ignore[attr-defined]
                if -_MAX_SAFE <= item <= _MAX_SAFE:  # type: ignore[operator]
                    context[key] = int(item)  # type: ignore[call-overload]
            elif isfinite(item):  # type: ignore[arg-type]
                context[key] = item  # type: ignore[assignment]
        elif item is None or kind is bool:
            context[key] = item  # type: ignore[assignment]
    return context


def _make_error(  # noqa: PLR0915  (flat on purpose: the hot path)
    body: object, status: int, picked: list[str | None] | None, forms: tuple[str, ...]
) -> ErrorBase:
    """Steps 1 to 7 of contract section 1; ``picked`` is what :func:`_pick_headers` found.

    Written flat, as this is the hot path the benchmark measures
    (docs/benchmarks-python.md). The envelope's fields first take a fast
    path: when the body is strict JSON of printable ASCII without a backslash
    and without a token form, every string in it is a piece of the text as it
    stands, so the steps can change one only through a trigger or the cap.
    The strings that are not catalogue text known to be clean are joined and
    looked at once; a trigger anywhere sends every field through the steps.
    """
    if type(body) is bytes:
        try:
            text = body[:_MAX_BYTES].decode()
        except UnicodeDecodeError:
            text = body[:_MAX_BYTES].decode("utf-8", "replace")
        if text[:1] == "\ufeff":
            text = text[1:]
    else:
        text = _text_of(body)
    header_id = None if picked is None else picked[0]
    envelope: object = None
    first = text[:1]
    if first == "{":
        # _parse inlined for a body that starts with its object.
        size = len(text)
        value: object = None
        if size < _SHALLOW_ANY or ((size < _SHALLOW_OBJECTS and "[" not in text) or not _too_deep(text)):
            try:
                value, end = _scan(text, 0)
            except (ValueError, StopIteration, RecursionError):
                value = _parse(text)
            else:
                if end != size and text[end:].strip(_JSON_SPACE):
                    value = None  # something after the value: not JSON
        if type(value) is dict:
            envelope = value.get("error")
    elif first and first in _JSON_SPACE:
        value = _parse(text)
        if type(value) is dict:
            envelope = value.get("error")
    raw_code = envelope.get("code") if type(envelope) is dict else None
    code = ""
    if type(raw_code) is str and raw_code:
        assert type(envelope) is dict
        get = envelope.get
        # JSON forbids raw characters below 0x20 in a string; check the others step 1 changes.
        plain = text.isascii() and "\\" not in text and len(text) <= _CAP
        if plain and _STEP1_VISIBLE:
            for ch in _STEP1_VISIBLE:
                if ch in text:
                    plain = False
                    break
        if forms and plain:
            # No rule changes a string of a plain body on the fast path, so a
            # form can be in a string only if it is in the text.
            for form in forms:
                if form in text:
                    plain = False
                    break
        if header_id and plain:
            if (
                len(header_id) > _CAP
                or not header_id.isascii()
                or not (header_id.isprintable() if _ASCII_STEP1_IS_CONTROLS else _step1_clean(header_id))
            ):
                plain = False
            else:
                for form in forms:
                    if form in header_id:
                        plain = False
                        break
        if plain:
            pending: list[str] = []
            known = _KNOWN_CODES.get(raw_code)
            if known is None:
                found_spec = SPECS.get(raw_code)
                if found_spec is None:
                    # A code the catalogue does not define: the base class, the texts of the
                    # status's fallback, and the code itself among the strings to check.
                    pending.append(raw_code)
                    fallback = SPECS[fallback_code(status)]
                    entry = _KNOWN_CODES.get(fallback.code) or _known_code(fallback.code, fallback)
                    known = (entry[0], Base, entry[2], entry[3], entry[4])
                else:
                    known = _known_code(raw_code, found_spec)
            spec, cls, clean_message, clean_cause, clean_remediation = known
            message = get("message")
            if type(message) is str and message:
                if not (clean_message and message == spec.message):
                    pending.append(message)
            else:
                message = spec.message
            cause = get("cause")
            if type(cause) is str and cause:
                if not (clean_cause and cause == spec.cause):
                    pending.append(cause)
            else:
                cause = spec.cause
            remediation = get("remediation")
            if type(remediation) is str and remediation:
                if not (clean_remediation and remediation == spec.remediation):
                    pending.append(remediation)
            else:
                remediation = spec.remediation
            context: dict[str, ContextValue] = {}
            value = get("context")
            if type(value) is dict and value:
                # The parsed object is the context when every member is kept as it is.
                mark = len(pending)
                context = (
                    value if len(value) <= _MAX_KEYS else {k: v for k, v in value.items() if k in _FIELDS}
                )
                for key, item in context.items():
                    if key not in _CLEAN_FIELDS:
                        if not key:
                            break
                        pending.append(key)
                    kind = type(item)
                    if kind is str:
                        if item:
                            pending.append(item)  # type: ignore[arg-type]
                    elif kind is int:
                        if not -_MAX_SAFE <= item <= _MAX_SAFE:  # type: ignore[operator]
                            break
                    elif item is not None and kind is not bool:
                        break
                else:
                    mark = -1
                if mark >= 0:
                    del pending[mark:]
                    context = _plain_context(context, pending)
            if header_id:
                request_id: str | None = header_id
                pending.append(header_id)
            else:
                value = get("request_id")
                if type(value) is str and value:
                    request_id = value
                    pending.append(value)
                else:
                    request_id = None
            if pending and _has_trigger(" ".join(pending).lower()):
                plain = False
            else:
                code = raw_code
                found = context.get("retry_after_ms")
                if type(found) is int and found >= 0:
                    retry_after: int | None = found
                elif picked is None or (picked[1] is None and picked[2] is None):
                    retry_after = None
                else:
                    retry_after = _retry_after(picked[1], picked[2])
                err = cls.__new__(cls, message)
                err.__dict__ = {
                    "code": code,
                    "message": message,
                    "cause": cause,
                    "remediation": remediation,
                    "status": status if type(status) is int else None,
                    "_context": context,
                    "request_id": request_id,
                    "retry_after_ms": retry_after,
                }
                return err
        if not plain:
            code = sanitize_with(raw_code, forms)
            if code:
                spec = SPECS.get(code) or SPECS[fallback_code(status)]
                value = get("message")
                message = (
                    (sanitize_with(value, forms) or spec.message) if type(value) is str else spec.message
                )
                value = get("cause")
                cause = (sanitize_with(value, forms) or spec.cause) if type(value) is str else spec.cause
                value = get("remediation")
                remediation = (
                    (sanitize_with(value, forms) or spec.remediation)
                    if type(value) is str
                    else spec.remediation
                )
                value = get("context")
                context = normalize_context(value, forms) if type(value) is dict and value else {}
                request_id = sanitize_with(header_id, forms) if header_id else None
                if not request_id:
                    value = get("request_id")
                    request_id = (sanitize_with(value, forms) or None) if type(value) is str else None
    if not code:
        code = fallback_code(status)
        spec = SPECS[code]
        message, cause, remediation, context = spec.message, spec.cause, spec.remediation, {}
        request_id = (sanitize_with(header_id, forms) or None) if header_id else None
    found = context.get("retry_after_ms")
    if type(found) is int and found >= 0:
        retry_after = found
    elif picked is None:
        retry_after = None
    else:
        retry_after = _retry_after(picked[1], picked[2])
    cls = _CLASSES.get(code, Base)
    err = cls.__new__(cls, message)
    err.__dict__ = {
        "code": code,
        "message": message,
        "cause": cause,
        "remediation": remediation,
        "status": status if type(status) is int else None,
        "_context": context,
        "request_id": request_id,
        "retry_after_ms": retry_after,
    }
    return err


def error_from_body(
    body: bytes | bytearray | memoryview | str,
    *,
    status: int,
    headers: Mapping[str, str] | object | None = None,
    token: str | bytes | None = None,
) -> _errors.Base:
    """Turn an error response into its typed error; never raises.

    Reads at most the catalogue's body cap. A JSON envelope
    ``{"error": {"code": ...}}`` gives the class of its code (the base class,
    keeping the code, for a code the catalogue does not know); any other body
    (HTML from a proxy, plain text, empty, invalid or too deeply nested JSON)
    gives the code of the status from the catalogue's fallback map, with the
    catalogue's message, cause and remediation. Every text is sanitized and
    ``token`` is redacted from it in every form.

    Args:
        body: the response body, as bytes or text.
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
        return _make_error(
            body,
            status,
            None if headers is None else _pick_headers(headers),
            token_forms(token) if token else (),
        )
    except Exception:
        return fallback_error(status)


def fallback_error(status: int) -> _errors.Base:
    """The status-derived error, for a failure in building one (unreachable by design).

    If a bug lands in the error path, the caller still gets the typed error of
    the status instead of an exception from the error path.
    """
    code = fallback_code(status)
    spec = SPECS[code]
    return _build(
        _CLASSES[code],
        spec.message,
        code,
        spec.cause,
        spec.remediation,
        status if type(status) is int else None,
        {},
        None,
        None,
    )


# ================================================================== the errors the SDK raises itself

EXEC_TIMEOUT_EXIT_CODE = 124
"""The conventional exit status of a command killed at its deadline (``timeout(1)``)."""

_TIMEOUT_TOO_LARGE = "timeout_too_large"
_INVALID_INPUT = "invalid_input"
_EXEC_TIMEOUT = "exec_timeout"


def _local_error(code: str, context: dict[str, ContextValue]) -> _errors.Base:
    """The error of an SDK-local ``code`` with the catalogue's texts.

    A catalogue without the code gives the base class with the texts of the
    default fallback, as :func:`error_for_code` does without a status.
    """
    spec = SPECS.get(code) or SPECS[_cat.FALLBACK_DEFAULT]
    return _build(
        _CLASSES.get(code, Base), spec.message, code, spec.cause, spec.remediation, None, context, None, None
    )


def _number(value: object) -> float | None:
    """``value`` as a float when it is a real number (not a bool, not a string), else ``None``."""
    if type(value) is float:
        return value
    if isinstance(value, (bool, str, bytes)):
        return None
    try:
        return float(value)  # type: ignore[arg-type]
    except OverflowError:
        return float("inf")  # an integer beyond any double: JavaScript reads it as Infinity
    except (TypeError, ValueError):
        return None


def validate_timeout(timeout_s: float, *, max_timeout_s: float = _cat.MAX_EXEC_TIMEOUT_S) -> float:
    """Check a requested timeout before any request; never clamps it.

    Args:
        timeout_s: the timeout the caller asked for, in seconds.
        max_timeout_s: the ceiling; the catalogue's exec timeout ceiling by default.

    Returns:
        ``timeout_s`` itself, unchanged, when it is valid.

    Raises:
        TimeoutTooLargeError: ``timeout_s`` is above the ceiling (context
            ``requested_s`` and ``max_timeout_s``; status ``None``).
        InvalidInputError: ``timeout_s`` is zero, negative, NaN, infinite or
            not a number (context ``requested_s`` when it is a finite number).
    """
    number = _number(timeout_s)
    if number is None or not isfinite(number):
        raise _local_error(_INVALID_INPUT, {})
    keep, requested = _context_value(number, ())
    context: dict[str, ContextValue] = {"requested_s": requested} if keep else {}
    if number <= 0:
        raise _local_error(_INVALID_INPUT, context)
    if number > max_timeout_s:
        ceiling = _number(max_timeout_s)
        if ceiling is not None:
            keep, value = _context_value(ceiling, ())
            if keep:
                context["max_timeout_s"] = value
        raise _local_error(_TIMEOUT_TOO_LARGE, context)
    return timeout_s


def error_for_exit(
    exit_code: int,
    *,
    timeout_s: float | None = None,
    stdout: str | bytes = "",
    stderr: str | bytes = "",
    token: str | None = None,
) -> _errors.Base | None:
    """The execution-deadline error of an exec that exited 124, keeping its partial output.

    Args:
        exit_code: the command's exit status.
        timeout_s: the deadline it ran under, if known.
        stdout: what it printed before it was stopped (sanitized and capped).
        stderr: what it printed to standard error (sanitized and capped).
        token: the caller's credential, to be kept out of the output.

    Returns:
        An ``ExecutionDeadlineError`` (context ``exit_code``, ``timeout_s``
        when given, ``stdout``, ``stderr``) for exit code 124; ``None`` for
        any other exit code.
    """
    if type(exit_code) is not int or exit_code != EXEC_TIMEOUT_EXIT_CODE:
        return None
    forms = token_forms(token) if token else ()
    del token
    context: dict[str, ContextValue] = {"exit_code": EXEC_TIMEOUT_EXIT_CODE}
    if timeout_s is not None:
        number = _number(timeout_s)
        if number is not None:
            keep, value = _context_value(number, ())
            if keep and value is not None:
                context["timeout_s"] = value
    for name, output in (("stdout", stdout), ("stderr", stderr)):
        text = output.decode("utf-8", "replace") if isinstance(output, (bytes, bytearray)) else str(output)
        context[name] = sanitize_with(text, forms)
    return _local_error(_EXEC_TIMEOUT, context)


# ================================================================== the base class's constructor


def init_error(
    err: ErrorBase,
    message: object,
    code: object,
    cause: object,
    remediation: object,
    status: object,
    context: Mapping[str, Any] | None,
    request_id: object,
    retry_after_ms: object,
) -> None:
    """``ErrorBase.__init__``: check the arguments, sanitize every text, fill the fields."""
    own = type(err).catalogue_code
    if code is None:
        if own is None:
            raise TypeError(f"{type(err).__name__} needs a code")
        code = own
    elif own is not None and code != own:
        raise ValueError(f"{type(err).__name__} has code {own!r}, not {code!r}")
    else:
        code = sanitize_text(str(code))
    assert isinstance(code, str)
    if status is not None and type(status) is not int:
        raise TypeError(f"status must be an int or None, not {type(status).__name__}")
    # Contract section 3: texts not given take the code's catalogue texts; a
    # code not in the catalogue takes those of the code its status falls back to.
    spec = SPECS.get(code) or SPECS[fallback_code(status)]  # type: ignore[arg-type]
    message = sanitize_text(str(message)) or spec.message
    cause = sanitize_text(str(cause)) or spec.cause
    remediation = sanitize_text(str(remediation)) or spec.remediation
    ctx = normalize_context(context, ()) if context else {}
    if retry_after_ms is None:
        found = ctx.get("retry_after_ms")
        retry_after_ms = found if type(found) is int and found >= 0 else None
    elif type(retry_after_ms) is not int or retry_after_ms < 0:
        raise ValueError(f"retry_after_ms must be an int of at least 0, not {retry_after_ms!r}")
    err.args = (message,)
    err.__dict__.update(
        code=code,
        message=message,
        cause=cause,
        remediation=remediation,
        status=status,
        _context=ctx,
        request_id=None if request_id is None else (sanitize_text(str(request_id)) or None),
        retry_after_ms=retry_after_ms,
    )


def json_dumps(data: object) -> str:
    """``json.dumps`` with non-ASCII characters kept, for :meth:`ErrorBase.to_json`."""
    return json.dumps(data, ensure_ascii=False)
