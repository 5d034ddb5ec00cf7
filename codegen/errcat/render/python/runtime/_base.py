"""The base class of every error of the catalogue, with all their behaviour.

``_generated`` gives it the catalogue's base class name (``base_class``, by
default this class's own, ``AgentRunError``) and docstring, and derives one
declaration-only class per code from it. The rest of the runtime is imported
the first time an error needs it.
"""

# No ``from __future__ import annotations`` here or in ``_generated`` (it costs as
# much as a dozen classes at import): annotations of typing-only types are quoted.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from types import ModuleType
    from typing import Any, ClassVar

    from ._fields import ContextValue
    from ._generated.envelope import Origin
    from ._generated.record import CodeSpec, Recovery, SideEffects

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


def _quoted(text: str) -> str:
    """``text`` between quotes as it is held, only ``\\`` and ``'`` escaped (docs/sdk-contract.md, section 4).

    Python's ``repr`` of a ``str`` spells a character it cannot print (an unassigned
    code point, a private-use one, a no-break space) as ``\\xHH``, ``\\uHHHH`` or
    ``\\UHHHHHHHH``: letters and digits that join the text after them, so they could
    complete a token form the sanitizer never saw in the text itself.
    """
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


class _ReadOnlyContext(dict):  # type: ignore[type-arg]
    """An error's context: a ``dict`` (so ``json.dumps`` and ``dict(...)`` take it) that cannot be changed."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> "tuple[Any, ...]":
        return (type(self), (dict(self),))


CLASSES: "dict[str, type[AgentRunError]]" = {}
"""Every class of the catalogue by its code: each generated class registers itself here."""


class AgentRunError(Exception):
    """The base class of the catalogue's errors, with all their behaviour.

    ``_generated`` gives it the catalogue's base class name and docstring (another
    catalogue's package knows it by that name only), and derives one
    declaration-only class per code from it, which registers itself in
    :data:`CLASSES` (so the runtime finds a code's class without importing
    ``_generated``, and the two form no import cycle). The fields of an error
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

    def __init_subclass__(cls, **kwargs: "Any") -> None:
        """Register a class of the catalogue (declared in this package's ``_generated``) by its code."""
        super().__init_subclass__(**kwargs)
        code = cls.__dict__.get("catalogue_code")
        if type(code) is str and cls.__module__ == AgentRunError.__module__:
            CLASSES[code] = cls

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
    def side_effects(self) -> "SideEffects":
        """Whether the failed request may have changed anything.

        One of ``none_expected``, ``possible`` and ``unknown``.
        """
        side_effects: SideEffects = _runtime().classify(self.catalogue_code).side_effects
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
        request_id = "None" if self.request_id is None else _quoted(self.request_id)
        return (
            f"{type(self).__name__}(code={_quoted(self.code)}, message={_quoted(self.message)}, "
            f"status={self.status!r}, request_id={request_id})"
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
