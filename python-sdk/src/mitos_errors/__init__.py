"""Typed errors of the Mitos sandbox API, generated from its error catalogue.

Every error the API can return is an exception class, one per catalogue
code, under one base: ``except AgentRunError`` catches them all, and a caller
branches on the class (``except RateLimitedError``), never on message text::

    import httpx
    import mitos_errors

    with httpx.Client(event_hooks={"response": [mitos_errors.ErrorHook(token=key)]}) as client:
        try:
            client.post(url, json=payload, headers={"Authorization": f"Bearer {key}"})
        except mitos_errors.RateLimitedError as err:
            wait(err.retry_after_ms)

Building an error never raises and never leaks: bodies are read up to a cap,
every text is sanitized, and the caller's token is redacted in every form.

``import mitos_errors`` loads this module and ``_generated`` only; the rest of
the runtime is imported on first use (``python-sdk/tests/test_sdk_imports.py``).
"""

# No ``from __future__ import annotations`` here or in ``_generated`` (it costs as
# much as a dozen classes at import): annotations of typing-only types are quoted.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from types import ModuleType
    from typing import Any, ClassVar

    from ._generated.version import __version__ as __version__

    ContextValue = str | int | float | bool | None

_FIELDS: "list[ModuleType]" = []


def _runtime() -> "ModuleType":
    """The runtime module ``_fields`` (all the base class reads), imported when an error first needs it."""
    if _FIELDS:
        return _FIELDS[0]
    from . import _fields

    _FIELDS.append(_fields)
    return _fields


def _read_only(self: object, *args: object, **kwargs: object) -> "Any":
    raise TypeError("an error's context is read-only")


class _ReadOnlyContext(dict):  # type: ignore[type-arg]
    """An error's context: a ``dict`` (so ``json.dumps`` and ``dict(...)`` take it) that cannot be changed."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> "tuple[Any, ...]":
        return (type(self), (dict(self),))


class _ErrorBase(Exception):  # noqa: N818  (renamed after the catalogue's base class, below)
    """The base class of the catalogue's errors, with all their behaviour.

    ``_generated`` gives it the catalogue's base class name and docstring, and
    derives one declaration-only class per code from it. The fields of an error
    are instance attributes, declared in ``__init__``; every text in them went
    through the sanitizer, and they are all there is to ``str``, ``repr``,
    pickle and :meth:`to_dict` (docs/sdk-contract.md section 4).
    """

    http_status: "ClassVar[int | None]" = None
    """The HTTP status the catalogue gives this class's code (``None`` on the base)."""
    grpc_status: "ClassVar[str | None]" = None
    """The gRPC status the catalogue gives this class's code (``None`` on the base)."""
    catalogue_code: "ClassVar[str | None]" = None
    """The code this class stands for (``None`` on the base)."""

    def __init__(
        self,
        message: str,
        code: "str | None" = None,
        cause: str = "",
        remediation: str = "",
        status: "int | None" = None,
        context: "Mapping[str, Any] | None" = None,
        *,
        request_id: "str | None" = None,
        retry_after_ms: "int | None" = None,
    ) -> None:
        """Build an error; every text is sanitized on the way in.

        An error describes its own class: an empty text gives the class's
        catalogue text, and the base class, whatever ``code`` and ``status``
        it is given, has the catch-all's (no texts, the unknown-code
        classification). For a code's class and texts, use ``error_for_code``.

        Args:
            message: the one-line summary; empty gives the class's.
            code: the machine code. Required on the base class, which keeps
                it (sanitized); a generated class defaults to its own code,
                and also takes a code the catalogue does not define (a finer
                code refining its own).
            cause: the call-site detail; empty gives the class's.
            remediation: what to do next; empty gives the class's.
            status: the HTTP status, if the error came from a response.
            context: structured fields; non-scalar values are dropped.
            request_id: the request id, if known.
            retry_after_ms: the retry delay; defaults to the context's
                ``retry_after_ms`` when it is an integer of at least 0.

        Raises:
            TypeError: the base class was given no code.
            ValueError: a generated class was given another catalogue code, or a
                code that is not a string or is empty or a catalogue code once sanitized.
        """
        if TYPE_CHECKING:  # instance attributes (store() sets them): not on the class
            self.code: str
            """The machine code; branch on the class or on this, never on the message."""
            self.message: str
            """The one-line summary."""
            self.cause: str
            """The call-site detail (ids, paths, operation names)."""
            self.remediation: str
            """The next action that fixes or works around the error."""
            self.status: int | None
            """The HTTP status of the response, or ``None`` for an error the SDK raised itself."""
            self.request_id: str | None
            """The ``x-request-id`` of the response (else the envelope's ``request_id``), when known."""
            self.retry_after_ms: int | None
            """How long to wait before retrying, in milliseconds, when the server said."""
        _runtime().init_error(
            self, message, code, cause, remediation, status, context, request_id, retry_after_ms
        )

    @property
    def context(self) -> "Mapping[str, ContextValue]":
        """The structured context: read-only, JSON-ready (ids, numbers, flags; never a secret)."""
        ctx = self.__dict__["_context"]
        if type(ctx) is not _ReadOnlyContext:
            ctx = self.__dict__["_context"] = _ReadOnlyContext(ctx)
        return ctx

    @property
    def spec(self) -> "CodeSpec | None":
        """The catalogue's spec of this error's code, or ``None`` for an unknown code."""
        spec: CodeSpec | None = _runtime().SPECS.get(self.code)
        return spec

    @property
    def retryable(self) -> bool:
        """Whether the same request may succeed later; the SDK never retries by itself."""
        retryable: bool = _runtime().classify(self.catalogue_code).retryable
        return retryable

    @property
    def is_transient(self) -> bool:
        """Alias of :attr:`retryable`."""
        return self.retryable

    @property
    def is_auth_failure(self) -> bool:
        """Whether the credential is missing, invalid or not permitted."""
        failed: bool = _runtime().classify(self.catalogue_code).is_auth_failure
        return failed

    @property
    def is_cancelled(self) -> bool:
        """Whether the caller cancelled the request: not a fault to report."""
        cancelled: bool = _runtime().classify(self.catalogue_code).is_cancelled
        return cancelled

    @property
    def recovery(self) -> "Recovery":
        """What to do next: action, whether to resend the same arguments, guidance."""
        recovery: Recovery = _runtime().classify(self.catalogue_code).recovery
        return recovery

    @property
    def side_effects(self) -> str:
        """Whether the failed request may have changed anything.

        One of ``none_expected``, ``possible`` and ``unknown``.
        """
        side_effects: str = _runtime().classify(self.catalogue_code).side_effects
        return side_effects

    @property
    def origin(self) -> "Origin":
        """Where the failure arose (``validation``, ``transport``...); ``runtime`` for an unknown code."""
        origin: Origin = _runtime().classify(self.catalogue_code).origin
        return origin

    def __str__(self) -> str:
        text = f"[{self.code}] {self.message}"
        if self.cause:
            text += f" | cause: {self.cause}"
        if self.remediation:
            text += f" | remediation: {self.remediation}"
        return text

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(code={self.code!r}, message={self.message!r}, "
            f"status={self.status!r}, request_id={self.request_id!r})"
        )

    def __reduce__(self) -> "tuple[Any, ...]":
        state: dict[str, Any] = {"request_id": self.request_id, "retry_after_ms": self.retry_after_ms}
        notes = self.__dict__.get("__notes__")
        if notes is not None:
            state["__notes__"] = list(notes)
        args = (self.message, self.code, self.cause, self.remediation, self.status, dict(self.context))
        return (type(self), args, state)

    def to_dict(self) -> "dict[str, Any]":
        """The error as a JSON-ready dict: the envelope fields plus the classification."""
        kind = _runtime().classify(self.catalogue_code)
        return {
            "type": type(self).__name__,
            "code": self.code,
            "message": self.message,
            "cause": self.cause,
            "remediation": self.remediation,
            "context": dict(self.context),
            "status": self.status,
            "request_id": self.request_id,
            "retry_after_ms": self.retry_after_ms,
            "retryable": kind.retryable,
            "is_auth_failure": kind.is_auth_failure,
            "is_cancelled": kind.is_cancelled,
            "recovery": kind.recovery.to_dict(),
            "side_effects": kind.side_effects,
            "origin": kind.origin,
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string (UTF-8 text, keys in a fixed order)."""
        text: str = _runtime().json_dumps(self.to_dict())
        return text


if TYPE_CHECKING:
    from ._generated import ErrorBase as ErrorBase
else:
    ErrorBase = _ErrorBase

from . import _generated  # noqa: E402
from ._generated import *  # noqa: E402, F403  (the classes derive from ErrorBase above; names in __all__)

# The names of the runtime beside the classes, each with the module that
# defines it (``module:attribute`` where the name differs): the one list of
# them. ``__all__`` is read from it, ``__getattr__`` imports each name on first
# use (PEP 562; httpx loads only for a name of ``_http`` or ``_transport``), and
# the block under it, which tells type checkers the same, is written from it by
# ``python -m testkit.exports_block`` (test_sdk_imports fails when stale).
_EXPORTS = {
    "CONTRACT_VERSION": "._generated.catalogue",
    "DEFAULT_EXEC_TIMEOUT_S": "._generated.catalogue",
    "DEFAULT_RUN_CODE_TIMEOUT_S": "._generated.catalogue",
    "EXEC_TIMEOUT_EXIT_CODE": "._local",
    "MAX_EXEC_TIMEOUT_S": "._generated.catalogue",
    "AsyncErrorHook": "._http",
    "AsyncErrorTransport": "._transport",
    "Code": "._generated.envelope",
    "CodeSpec": "._spec",
    "ErrorBody": "._generated.envelope:ErrorObject",
    "ErrorEnvelope": "._generated.envelope",
    "ErrorHook": "._http",
    "ErrorTransport": "._transport",
    "Origin": "._generated.envelope",
    "Recovery": "._spec",
    "aerror_from_response": "._http",
    "araise_for_status": "._http",
    "code_for_grpc": "._spec",
    "code_spec": "._spec",
    "error_for_code": "._local",
    "error_for_exit": "._local",
    "error_from_body": "._parse",
    "error_from_exception": "._transport",
    "error_from_response": "._http",
    "install_error_hook": "._http",
    "lookup": "._spec",
    "raise_for_status": "._http",
    "sanitize_text": "._sanitize",
    "validate_timeout": "._local",
}

if TYPE_CHECKING:
    from ._generated.catalogue import (
        CONTRACT_VERSION,
        DEFAULT_EXEC_TIMEOUT_S,
        DEFAULT_RUN_CODE_TIMEOUT_S,
        MAX_EXEC_TIMEOUT_S,
    )
    from ._generated.envelope import Code, ErrorEnvelope, Origin
    from ._generated.envelope import ErrorObject as ErrorBody
    from ._generated.overloads import error_for_code, lookup
    from ._http import (
        AsyncErrorHook,
        ErrorHook,
        aerror_from_response,
        araise_for_status,
        error_from_response,
        install_error_hook,
        raise_for_status,
    )
    from ._local import EXEC_TIMEOUT_EXIT_CODE, error_for_exit, validate_timeout
    from ._parse import error_from_body
    from ._sanitize import sanitize_text
    from ._spec import CodeSpec, Recovery, code_for_grpc, code_spec
    from ._transport import AsyncErrorTransport, ErrorTransport, error_from_exception

    __all__ = [
        "CONTRACT_VERSION",
        "DEFAULT_EXEC_TIMEOUT_S",
        "DEFAULT_RUN_CODE_TIMEOUT_S",
        "EXEC_TIMEOUT_EXIT_CODE",
        "MAX_EXEC_TIMEOUT_S",
        "AsyncErrorHook",
        "AsyncErrorTransport",
        "Code",
        "CodeSpec",
        "ErrorBody",
        "ErrorEnvelope",
        "ErrorHook",
        "ErrorTransport",
        "Origin",
        "Recovery",
        "aerror_from_response",
        "araise_for_status",
        "code_for_grpc",
        "code_spec",
        "error_for_code",
        "error_for_exit",
        "error_from_body",
        "error_from_exception",
        "error_from_response",
        "install_error_hook",
        "lookup",
        "raise_for_status",
        "sanitize_text",
        "validate_timeout",
    ]
else:
    __all__ = list(_EXPORTS)
__all__ += _generated.__all__


def __getattr__(name: str) -> object:
    from importlib import import_module

    if name == "__version__":  # the generated version.py, which the build reads too
        version: str = import_module("._generated.version", __name__).__version__
        globals()[name] = version
        return version
    where = _EXPORTS.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, _, attribute = where.partition(":")
    value = getattr(import_module(module, __name__), attribute or name)
    globals()[name] = value
    return value


def __dir__() -> "list[str]":
    return sorted(set(globals()) | set(__all__) | {"__version__"})
