"""The records every SDK declares from the catalogue: one definition of their fields.

A code's spec (``CodeSpec``), its recovery advice (``Recovery``) and the
limits (``Limits``) are declared in the Python and the TypeScript SDK from
the lists here: their fields, in this order, each with the kind of value it
holds, its documentation and where its value comes from in the model; each
language's renderer says how it spells each kind.
The renderers write the Python classes, rows and constants and the
TypeScript interfaces and values from them, so a new field on every code is
a catalogue and meta-schema change and one :class:`Field` in
:data:`CODE_SPEC` (a new limit: one field of :class:`Limits`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from errcat.model.codes import ErrorCode, UnknownCode

TEXT = "text"
INT = "int"
BOOL = "bool"
NAMES = "names"
"""A tuple of names (context fields)."""
ADVICE = "advice"
"""The nested recovery advice (:data:`RECOVERY`)."""
SIDE_EFFECTS = "side_effects"
ORIGIN = "origin"
EMITTED_BY = "emitted_by"

KINDS = (TEXT, INT, BOOL, NAMES, ADVICE, SIDE_EFFECTS, ORIGIN, EMITTED_BY)
"""The kinds of value a field holds; each SDK's renderer spells each kind as a type of its own
(``errcat/render/<language>/record.py``), so this module names no language."""

Value = str | int | bool | tuple[str, ...] | dict[str, str]
"""A field's value as the model gives it: a scalar, a tuple of names, or a nested record as a dict."""


@dataclass(frozen=True)
class Field:
    """One field of a record: its name (snake_case; camelCase in TypeScript), type and meaning."""

    name: str
    kind: str
    """One of :data:`KINDS`."""
    doc: str
    """What it holds, one sentence (both SDKs' documentation of the field)."""
    read: Callable[[ErrorCode, str], Value]
    """Its value for a code of the model, in the language of the given key (a class name differs)."""
    catch_all: Callable[[UnknownCode, str], Value | None]
    """Its value on the base class's spec (TypeScript's ``CATCH_ALL``), from the catalogue's
    ``unknown_code`` and base class name; ``None``: it has none."""
    text: bool = False
    """One of the code's texts, the defaults of its errors' fields (TypeScript's ``CodeTexts``)."""


def _advice(code: ErrorCode | UnknownCode) -> dict[str, str]:
    """The recovery advice as a plain dict, its keys those of :data:`RECOVERY`."""
    return {f.name: getattr(code.recovery, f.name) for f in RECOVERY}


@dataclass(frozen=True)
class AdviceField:
    """One field of the recovery advice (all text; named as the envelope's ``recovery`` names them)."""

    name: str
    doc: str


RECOVERY: tuple[AdviceField, ...] = (
    AdviceField(
        "action",
        "What to do next: ``revise_and_retry``, ``retry_later``, ``reauthenticate``, "
        "``rediscover``, ``reduce_work``, ``inspect_and_escalate``, ...",
    ),
    AdviceField(
        "same_arguments",
        "Whether resending the very same request can succeed: ``safe``, ``conditional``, "
        "``discouraged`` or ``never``.",
    ),
    AdviceField("guidance", "One sentence saying what to do."),
)
"""The fields of ``Recovery``: what a caller (a program or a language model) should do next."""


def _none(_: UnknownCode, __: str) -> None:
    return None


def _empty(_: UnknownCode, __: str) -> str:
    return ""


def _false(_: UnknownCode, __: str) -> bool:
    return False


CODE_SPEC: tuple[Field, ...] = (
    Field(
        "code",
        TEXT,
        "The stable machine code, such as ``rate_limited``.",
        lambda c, _: c.code,
        _empty,
        text=True,
    ),
    Field(
        "message",
        TEXT,
        "The one-line summary (the envelope ``message``).",
        lambda c, _: c.message,
        _empty,
        text=True,
    ),
    Field("cause", TEXT, "The one-sentence cause.", lambda c, _: c.cause, _empty, text=True),
    Field(
        "remediation",
        TEXT,
        "The next action that fixes or works around the error.",
        lambda c, _: c.remediation,
        _empty,
        text=True,
    ),
    Field(
        "class_name",
        TEXT,
        "The name of the code's class, such as ``RateLimitedError``.",
        lambda c, language: c.class_names[language],
        lambda _, base_class: base_class,
    ),
    Field(
        "http_status",
        INT,
        "The HTTP status a server sends it with.",
        lambda c, _: c.http,
        _none,
    ),
    Field(
        "grpc_status",
        TEXT,
        "The gRPC status it maps to.",
        lambda c, _: c.grpc,
        _none,
    ),
    Field(
        "context_fields",
        NAMES,
        "The context fields the code carries.",
        lambda c, _: tuple(f.name for f in c.context),
        lambda _, __: (),
    ),
    Field(
        "retryable",
        BOOL,
        "Whether sending the same request again later may succeed.",
        lambda c, _: c.retryable,
        lambda unknown, _: unknown.retryable,
    ),
    Field(
        "is_auth_failure",
        BOOL,
        "Whether the credential is missing, invalid or not permitted.",
        lambda c, _: c.auth_failure,
        _false,
    ),
    Field(
        "is_cancelled",
        BOOL,
        "Whether the caller cancelled the request.",
        lambda c, _: c.cancelled,
        _false,
    ),
    Field(
        "recovery",
        ADVICE,
        "What to do next.",
        lambda c, _: _advice(c),
        lambda unknown, _: _advice(unknown),
    ),
    Field(
        "side_effects",
        SIDE_EFFECTS,
        "Whether the failed call may have changed something.",
        lambda c, _: c.side_effects,
        lambda unknown, _: unknown.side_effects,
    ),
    Field(
        "origin",
        ORIGIN,
        "Where the failure arose; ``runtime`` for the catch-all.",
        lambda c, _: c.origin,
        lambda unknown, _: unknown.origin,
    ),
    Field(
        "emitted_by",
        EMITTED_BY,
        "``server`` for a code servers send, ``sdk`` for one the SDK synthesizes.",
        lambda c, _: c.emitted_by,
        _none,
    ),
)
"""The fields of ``CodeSpec``, everything the catalogue says about one code, in the order both SDKs
declare them; the texts first."""


def _limit(doc: str, default: int | None = None) -> int:
    """A field of :class:`Limits` documented by ``doc`` (the field's metadata)."""
    made: int = (
        field(metadata={"doc": doc})
        if default is None
        else field(default=default, metadata={"doc": doc})
    )
    return made


def _optional_limit(doc: str) -> int | None:
    """A field of :class:`Limits` only some APIs have: ``None`` when the catalogue leaves it out."""
    made: int | None = field(default=None, metadata={"doc": doc, "optional": True})
    return made


@dataclass(frozen=True, kw_only=True)
class Limits:
    """The numeric limits the SDKs enforce: the catalogue's ``limits``, each field one limit.

    Both SDKs declare these fields in this order (Python constants, the TypeScript
    ``Limits`` and ``LIMITS``), each documented by its ``doc`` metadata. The
    execution timeouts are only some APIs' (:func:`_optional_limit`): a catalogue
    without them gets neither the limits nor the helper that reads them
    (``validate_timeout``), and its docs do not mention them.
    """

    max_exec_timeout_s: int | None = _optional_limit(
        "The ceiling, in seconds, of an exec or run_code timeout; above it a request is rejected."
    )
    default_exec_timeout_s: int | None = _optional_limit(
        "The timeout, in seconds, an exec without one gets."
    )
    default_run_code_timeout_s: int | None = _optional_limit(
        "The timeout, in seconds, a run_code without one gets."
    )
    error_body_max_bytes: int = _limit("At most this many bytes of an error response are read.")
    text_max_chars: int = _limit("Every text field is at most this many code points.")
    json_max_depth: int = _limit(
        "A body nested deeper than this many arrays or objects is not JSON."
    )
    context_max_keys: int = _limit(
        "A context with more members than this keeps only the members the catalogue defines."
    )
    error_body_read_timeout_ms: int = _limit(
        "Reading an error body stops after this many milliseconds in all; the error is built from "
        "what arrived.",
        default=5000,
    )
    retry_after_max_ms: int = _limit(
        "The longest retry delay, in milliseconds, an error gives; a longer one (from the context "
        "or a retry header) is cut to this.",
        default=3_600_000,
    )

    def items(self) -> tuple[tuple[str, int, str], ...]:
        """Each limit the catalogue has: its key, value and documentation, in declaration order."""
        return tuple(
            (f.name, getattr(self, f.name), f.metadata["doc"])
            for f in dataclasses.fields(self)
            if getattr(self, f.name) is not None
        )

    def optional(self) -> tuple[str, ...]:
        """The keys of the limits only some APIs have that this catalogue has, in declaration order."""
        return tuple(
            f.name
            for f in dataclasses.fields(self)
            if f.metadata.get("optional") and getattr(self, f.name) is not None
        )
