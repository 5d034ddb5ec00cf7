"""Filling an error's fields (docs/sdk-contract.md section 1, steps 5 to 7, and section 3).

:func:`fill` is the one place an error gets its fields: the parser, the
public constructor and the SDK's own errors all go through it.
"""

from __future__ import annotations

from math import isfinite

from ._generated import catalogue as _cat
from ._headers import bounded_delay, header_delay
from ._sanitize import sanitize_text, sanitize_with
from ._spec import SPECS, classify, defaults_of, refined_code

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any, ClassVar, Protocol, TypeVar

    from ._headers import Picked

    ContextValue = str | int | float | bool | None
    """A value a context keeps (:func:`context_value`)."""

    class Fillable(Protocol):
        """An error as this module fills it: the base class's instances (it imports no class)."""

        catalogue_code: ClassVar[str | None]
        args: tuple[Any, ...]

    E = TypeVar("E", bound=Fillable)

# What the base class (_base.py) reads; it imports this module on first use. This module
# imports no error class, so that the base class and its runtime form no import cycle: an
# error of a new class comes from the caller's ``make`` (``_classes.new_error``).
__all__ = ["SPECS", "classify", "init_error", "json_dumps"]

MAX_SAFE = 2**53 - 1
_MAX_KEYS = _cat.CONTEXT_MAX_KEYS
_FIELDS = frozenset(_cat.CONTEXT_FIELDS)


def context_value(value: object, forms: tuple[str, ...]) -> tuple[bool, ContextValue]:
    """Whether a context value is kept, and as what (contract section 1, step 6).

    A string is sanitized; ``True``, ``False`` and ``None`` are kept; a finite
    number is kept (an integral one as an ``int``, if within +-(2**53 - 1));
    anything else is dropped.
    """
    kind = type(value)
    if kind is str:
        return True, sanitize_with(value, forms)  # type: ignore[arg-type]
    if kind is int:
        return -MAX_SAFE <= value <= MAX_SAFE, value  # type: ignore[operator, return-value]
    if kind is float:
        number: float = value  # type: ignore[assignment]
        if not isfinite(number):
            return False, None
        if number.is_integer():
            return -MAX_SAFE <= number <= MAX_SAFE, int(number)
        return True, number
    if value is None or kind is bool:
        return True, value  # type: ignore[return-value]
    return False, None


def normalize_context(raw: dict[str, object], forms: tuple[str, ...]) -> dict[str, ContextValue]:
    """The context an error keeps from the members ``raw`` (contract section 1, step 6).

    All members, unless there are more than the catalogue's
    ``context_max_keys``: then only those named in its ``context_fields``. A
    member whose key is not a string, is empty, or is changed by sanitizing
    is dropped; values go through :func:`context_value`.
    """
    items: Iterable[tuple[object, object]] = raw.items()
    if len(raw) > _MAX_KEYS:
        items = [(key, value) for key, value in items if key in _FIELDS]
    out: dict[str, ContextValue] = {}
    for key, value in items:
        if type(key) is not str or not key or sanitize_with(key, forms) != key:
            continue
        keep, kept = context_value(value, forms)
        if keep:
            out[key] = kept
    return out


def context_delay(context: Mapping[str, ContextValue]) -> int | None:
    """The context's ``retry_after_ms`` when it is a delay (an integer of at least 0), at most the ceiling."""
    found = context.get("retry_after_ms")
    return bounded_delay(found) if type(found) is int and found >= 0 else None


def store(
    err: E,
    code: str,
    message: str,
    cause: str,
    remediation: str,
    status: int | None,
    context: dict[str, ContextValue],
    request_id: str | None,
    retry_after_ms: int | None,
) -> E:
    """Set the fields of ``err`` to values already checked and sanitized; returns ``err``."""
    err.args = (message,)
    err.__dict__.update(
        code=code,
        message=message,
        cause=cause,
        remediation=remediation,
        status=status,
        _context=context,
        request_id=request_id,
        retry_after_ms=retry_after_ms,
    )
    return err


def _member_text(value: object, forms: tuple[str, ...]) -> str:
    """A text member sanitized; empty when it is not text."""
    return sanitize_with(value, forms) if type(value) is str else ""


# Long for its docstring (ten arguments); the body is one path, in the contract's step order,
# which every error takes: kept whole because the parser calls it once per error.
def fill(
    code: str,
    members: Mapping[str, object] | None,
    status: int | None,
    *,
    forms: tuple[str, ...] = (),
    picked: Picked | None = None,
    retry_after_ms: int | None = None,
    checked_context: dict[str, ContextValue] | None = None,
    err: E | None = None,
    make: Callable[[str | None], E] | None = None,
    own_class: bool = False,
) -> E:
    """Fill the fields of the error of ``code`` (steps 6 and 7 of contract section 1).

    Args:
        code: the error's code, sanitized (or the caller's own class's code).
        members: the envelope's members (``message``, ``cause``,
            ``remediation``, ``context``, ``request_id``, ``refines``); ``None``
            for a response without an envelope, which keeps the catalogue's texts.
        status: the HTTP status, if any.
        forms: the token forms to redact from every text.
        picked: the headers read (:func:`_headers.pick_headers`), if any.
        retry_after_ms: the retry delay when the caller gave one; else the
            context's, else the headers'.
        checked_context: a context already checked, for an error without
            ``members`` (the SDK's own errors).
        err: the instance to fill (the constructor's ``self``); else ``make``
            gives a new instance of the class of the code that picks it (``None``:
            the base class), as ``_classes.new_error`` does.
        own_class: the defaults are those of the class of ``err`` (a public
            constructor, contract section 3: the base class has the
            catch-all's, empty), never those of ``code``, its chain or ``status``.

    Returns:
        The filled error.
    """
    status = status if type(status) is int else None
    # The catalogue code that picks the class and the default texts: the code, else the first
    # code of the chain it refines (contract section 1, step 5), else none (the status's fallback).
    if own_class and err is not None:
        kind = type(err).catalogue_code
        defaults = SPECS.get(kind) if kind is not None else None
    else:
        kind = code if code in SPECS else None
        if kind is None and members is not None:
            kind = refined_code(members.get("refines"))
        defaults = defaults_of(kind, status)
    message = cause = remediation = ""  # the catch-all has no texts
    if defaults is not None:
        message, cause, remediation = defaults.message, defaults.cause, defaults.remediation
    context = {} if checked_context is None else checked_context
    if members is not None:
        message = _member_text(members.get("message"), forms) or message
        cause = _member_text(members.get("cause"), forms) or cause
        remediation = _member_text(members.get("remediation"), forms) or remediation
        raw = members.get("context")
        if type(raw) is dict and raw:
            context = normalize_context(raw, forms)
    header_id = None if picked is None else picked[0]
    request_id = (sanitize_with(header_id, forms) or None) if header_id else None
    if request_id is None and members is not None:
        request_id = _member_text(members.get("request_id"), forms) or None
    if retry_after_ms is None:
        retry_after_ms = context_delay(context)
        if retry_after_ms is None:
            retry_after_ms = header_delay(picked)
    if err is None:
        assert make is not None, "fill needs an instance or a way to make one"
        err = make(kind)
    return store(err, code, message, cause, remediation, status, context, request_id, retry_after_ms)


def _as_members(context: object) -> dict[str, object]:
    """A caller's context as a dict of members; anything that is not a mapping of pairs gives none."""
    if type(context) is dict:
        return context
    try:
        return dict(context)  # type: ignore[call-overload, no-any-return]
    except Exception:
        return {}


def checked_members(
    message: object,
    cause: object,
    remediation: object,
    status: object,
    context: Mapping[str, Any] | None,
    request_id: object,
    retry_after_ms: object,
) -> dict[str, object]:
    """The members a caller gave, as an envelope's, once ``status`` and ``retry_after_ms`` are checked."""
    if status is not None and type(status) is not int:
        raise TypeError(f"status must be an int or None, not {type(status).__name__}")
    if retry_after_ms is not None and (type(retry_after_ms) is not int or retry_after_ms < 0):
        raise ValueError(f"retry_after_ms must be an int of at least 0, not {retry_after_ms!r}")
    return {
        "message": str(message),
        "cause": str(cause),
        "remediation": str(remediation),
        "context": _as_members(context) if context else None,
        "request_id": None if request_id is None else str(request_id),
    }


def init_error(
    err: Fillable,
    message: object,
    code: object,
    cause: object,
    remediation: object,
    status: object,
    context: Mapping[str, Any] | None,
    request_id: object,
    retry_after_ms: object,
) -> None:
    """``AgentRunError.__init__``: check the arguments, then :func:`fill` the fields, every text sanitized.

    A constructor describes its own class (contract section 3): the defaults are its class's texts
    (the base class: the catch-all's, none), whatever ``code`` and ``status`` are.
    """
    own = type(err).catalogue_code
    if code is None:
        if own is None:
            raise TypeError(f"{type(err).__name__} needs a code")
        code = own
    elif own is None:
        code = sanitize_text(str(code))
    elif code != own:
        # A generated class also takes a code the catalogue does not know: a finer code that
        # refines its own, as the refines walk raises (and a pickle of one restores).
        finer = sanitize_text(code) if type(code) is str else ""
        if not finer or finer in SPECS:
            raise ValueError(f"{type(err).__name__} has code {own!r}, not {code!r}")
        code = finer
    assert isinstance(code, str)
    members = checked_members(message, cause, remediation, status, context, request_id, retry_after_ms)
    fill(code, members, status, retry_after_ms=retry_after_ms, err=err, own_class=True)  # type: ignore[arg-type]


def json_dumps(data: object) -> str:
    """``json.dumps`` with non-ASCII characters kept, for :meth:`AgentRunError.to_json`."""
    import json

    return json.dumps(data, ensure_ascii=False)


def plain_number(value: int | float) -> str:
    """``value`` as contract section 2c writes a number in a text: plain decimal, the shortest digits.

    No exponent, no ``+``, no ``-0``, no trailing zeros: ``0.00001``, not ``1e-05``.
    """
    if isinstance(value, int):
        return str(value)
    if value == 0:
        return "0"
    from decimal import Decimal

    text = format(Decimal(repr(value)), "f")  # repr: the shortest digits that read back as the double
    return text.rstrip("0").rstrip(".") if "." in text else text
