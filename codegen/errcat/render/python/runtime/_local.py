"""The errors the SDK raises itself (docs/sdk-contract.md section 3)."""

from __future__ import annotations

from math import inf, isfinite

from ._base import AgentRunError
from ._classes import lookup, new_error
from ._fields import checked_members, context_value, fill
from ._generated import catalogue as _cat
from ._sanitize import sanitize_text, sanitize_with, token_forms

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from ._fields import ContextValue

__all__ = ["error_for_code", "error_for_exit", "validate_timeout"]

# The codes of these errors and the deadline's exit status are the catalogue's
# (its ``sdk`` section); a catalogue that declares no validation, or no exec
# deadline, has no ``validate_timeout``, or no ``error_for_exit``, in its package.


def _error_by_code(
    code: object,
    message: object,
    cause: object,
    remediation: object,
    status: object,
    context: Mapping[str, Any] | None,
) -> AgentRunError:
    """``error_for_code`` of a code without a class: as if a server sent it (contract section 1).

    The code is sanitized; a catalogue code (once sanitized) gives its class, any other the base
    class with the texts of the code ``status`` falls back to.
    """
    members = checked_members(message, cause, remediation, status, context, None, None)
    return fill(sanitize_text(str(code)), members, status, make=new_error)  # type: ignore[arg-type]


def error_for_code(
    code: str,
    message: str,
    *,
    cause: str = "",
    remediation: str = "",
    status: int | None = None,
    context: Mapping[str, Any] | None = None,
) -> AgentRunError:
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
    if cls is AgentRunError:  # the base class's constructor would describe the base class, not the code
        return _error_by_code(code, message, cause, remediation, status, context)
    return cls(message, code, cause=cause, remediation=remediation, status=status, context=context)


def _local_error(code: str, context: dict[str, ContextValue]) -> AgentRunError:
    """The error of an SDK-local ``code`` (one the catalogue's ``sdk`` section names) with the
    catalogue's texts and ``context`` as it is."""
    return fill(code, None, None, checked_context=context, make=new_error)


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


def validate_timeout(timeout_s: float, *, max_timeout_s: float | None = None) -> float:
    """Check a requested timeout before any request; never clamps it.

    Args:
        timeout_s: the timeout the caller asked for, in seconds.
        max_timeout_s: the ceiling; the catalogue's exec timeout ceiling
            (``limits.max_exec_timeout_s``) when ``None``.

    Returns:
        ``timeout_s`` itself, unchanged, when it is valid.

    Raises:
        TimeoutTooLargeError: ``timeout_s`` is above the ceiling (context
            ``requested_s`` and ``max_timeout_s``; status ``None``).
        InvalidInputError: ``timeout_s`` is zero, negative, NaN, infinite or
            not a number (context ``requested_s`` when it is a finite number).
    """
    codes = _cat.SDK_VALIDATION
    if not codes:  # the package does not export it then; reached only through this module
        raise NotImplementedError("validate_timeout needs the catalogue's sdk.validation codes")
    invalid = codes["invalid"]
    if max_timeout_s is None:  # a catalogue with sdk.validation has the ceiling (errcat checks it)
        max_timeout_s = float(getattr(_cat, "MAX_EXEC_TIMEOUT_S", inf))
    number = _number(timeout_s)
    if number is None or not isfinite(number):
        raise _local_error(invalid, {})
    keep, requested = context_value(number, ())
    context: dict[str, ContextValue] = {"requested_s": requested} if keep else {}
    if number <= 0:
        raise _local_error(invalid, context)
    if number > max_timeout_s:
        ceiling = _number(max_timeout_s)
        if ceiling is not None:
            keep, value = context_value(ceiling, ())
            if keep:
                context["max_timeout_s"] = value
        raise _local_error(codes["too_large"], context)
    return timeout_s


def error_for_exit(
    exit_code: int,
    *,
    timeout_s: float | None = None,
    stdout: str | bytes = "",
    stderr: str | bytes = "",
    token: str | None = None,
) -> AgentRunError | None:
    """The execution-deadline error of an exec that exited with the deadline's status, keeping its
    partial output.

    The status and the code are the catalogue's ``sdk.exec_deadline`` (for ``timeout(1)``, 124,
    the status of a command killed at its deadline).

    Args:
        exit_code: the command's exit status.
        timeout_s: the deadline it ran under, if known.
        stdout: what it printed before it was stopped (sanitized and capped).
        stderr: what it printed to standard error (sanitized and capped).
        token: the caller's credential, to be kept out of the output.

    Returns:
        The error of the deadline's code, an instance of the code's class (context
        ``exit_code``, ``timeout_s`` when given, ``stdout``, ``stderr``), for the
        deadline's exit status; ``None`` for any other exit code.
    """
    deadline = _cat.SDK_EXEC_DEADLINE
    if deadline is None:  # the package does not export it then; reached only through this module
        raise NotImplementedError("error_for_exit needs the catalogue's sdk.exec_deadline")
    code, status = deadline
    if type(exit_code) is not int or exit_code != status:
        return None
    forms = token_forms(token) if token else ()
    del token
    context: dict[str, ContextValue] = {"exit_code": status}
    if timeout_s is not None:
        number = _number(timeout_s)
        if number is not None:
            keep, value = context_value(number, ())
            if keep and value is not None:
                context["timeout_s"] = value
    for name, output in (("stdout", stdout), ("stderr", stderr)):
        text = output.decode("utf-8", "replace") if isinstance(output, (bytes, bytearray)) else str(output)
        context[name] = sanitize_with(text, forms)
    return _local_error(code, context)
