"""The model of the catalogue's codes: context fields, recovery advice, and each code.

Each code gets its class name in every language, its context fields, the
statuses whose bare responses fall back to it, and its place among the codes
it refines and that refine it. :mod:`errcat.model.catalogue` holds the codes in
``Catalogue.codes`` and names these classes too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from errcat.model import refines
from errcat.names import naming


@dataclass(frozen=True)
class ContextField:
    """A structured context key an error may carry, with its JSON type."""

    name: str
    type: str
    meaning: str
    example: str | int | float | bool | None = None
    minimum: int | float | None = None
    """The least value of an integer or number field (``None``: unbounded)."""
    maximum: int | float | None = None
    """The greatest value of an integer or number field (``None``: unbounded)."""

    @property
    def example_value(self) -> str | int | float | bool:
        """The catalogue's example value, or a plain one of the right type."""
        if self.example is not None:
            return self.example
        defaults: dict[str, str | int | float | bool] = {
            "string": "example",
            "integer": 1,
            "number": 1.5,
            "boolean": True,
        }
        value = defaults[self.type]
        if self.minimum is not None and not isinstance(value, (str, bool)):
            value = max(value, self.minimum)
        if self.maximum is not None and not isinstance(value, (str, bool)):
            value = min(value, self.maximum)
        return value


@dataclass(frozen=True)
class Recovery:
    """What a caller (or agent) should do next, and whether to resend the same arguments."""

    action: str
    same_arguments: str
    guidance: str


@dataclass(frozen=True)
class SurfaceOverride:
    """The message and remediation one surface uses instead of the code's own."""

    surface: str
    message: str | None
    remediation: str | None


@dataclass(frozen=True)
class ErrorCode:
    """One catalogue code, with every derived name already decided."""

    code: str
    message: str
    cause: str
    remediation: str
    http: int
    grpc: str
    context: tuple[ContextField, ...]
    retryable: bool
    auth_failure: bool
    cancelled: bool
    recovery: Recovery
    side_effects: str
    origin: str
    """Where the failure arises (``$defs/origin`` of the meta-schema: ``validation``, ``transport``...)."""
    emitted_by: str
    class_names: Mapping[str, str] = field(hash=False)
    """The class name in each language, by language key (:data:`errcat.names.languages.LANGUAGES`)."""
    surfaces: tuple[SurfaceOverride, ...]
    since: int
    deprecated: str | None
    families: tuple[str, ...]
    fallback_statuses: tuple[str, ...]
    """Statuses (``"503"``, ``"5xx"``, ``"default"``) whose bare responses map to this code."""
    refines: str | None = None
    """The code this code refines (its class derives from that code's class); ``None`` at a root."""
    chain: tuple[str, ...] = ()
    """Every code this code refines, nearest first: what servers send as ``error.refines``."""
    refined_by: tuple[str, ...] = ()
    """Every code that refines this one, directly or not, in class order (parents first)."""

    @property
    def sdk_local(self) -> bool:
        """True for a code only the SDKs synthesize, never a server."""
        return self.emitted_by == "sdk"

    @property
    def surface_texts(self) -> tuple[tuple[str, str, str], ...]:
        """Each surface's ``(surface, message, remediation)``, the code's own text where it overrides none."""
        return tuple(
            (s.surface, s.message or self.message, s.remediation or self.remediation)
            for s in self.surfaces
        )


@dataclass(frozen=True)
class UnknownCode:
    """The advice for a code the catalogue does not define (the catch-all)."""

    retryable: bool
    recovery: Recovery
    side_effects: str
    origin: str


DEFAULT_UNKNOWN = {
    "retryable": False,
    "recovery": {
        "action": "inspect_and_escalate",
        "same_arguments": "discouraged",
        "guidance": "Treat the code as opaque: follow the message and remediation.",
    },
    "side_effects": "unknown",
    "origin": "runtime",
}
"""The catch-all advice, used when a catalogue has no ``unknown_code`` section."""


def build_context_fields(raw: dict[str, Any]) -> dict[str, ContextField]:
    """The catalogue's context fields by name, in definition order."""
    return {
        name: ContextField(
            name=name,
            type=spec["type"],
            meaning=spec["meaning"],
            example=spec.get("example"),
            minimum=spec.get("minimum"),
            maximum=spec.get("maximum"),
        )
        for name, spec in raw.items()
    }


def build_unknown(raw: dict[str, Any] | None) -> UnknownCode:
    """The catch-all advice: the catalogue's ``unknown_code``, else :data:`DEFAULT_UNKNOWN`."""
    unknown: dict[str, Any] = raw if raw is not None else DEFAULT_UNKNOWN
    return UnknownCode(
        retryable=unknown["retryable"],
        recovery=Recovery(**unknown["recovery"]),
        side_effects=unknown["side_effects"],
        origin=unknown.get("origin", DEFAULT_UNKNOWN["origin"]),
    )


def build_codes(
    raw: dict[str, Any],
    fields: dict[str, ContextField],
    families_of: Mapping[str, tuple[str, ...]],
    statuses_of: Mapping[str, list[str]],
) -> tuple[ErrorCode, ...]:
    """Every code, sorted by code, with its names, fields, families and refinements set.

    Args:
        raw: the catalogue's ``codes`` section, already validated.
        fields: the context fields by name (:func:`build_context_fields`).
        families_of: code -> the names of the families that list it.
        statuses_of: code -> the fallback statuses that map to it.
    """
    codes = tuple(
        _code(code, spec, fields, families_of.get(code, ()), statuses_of)
        for code, spec in sorted(raw.items())
    )
    return _with_refinements(codes, raw)


def _code(
    code: str,
    spec: dict[str, Any],
    fields: dict[str, ContextField],
    families: tuple[str, ...],
    statuses_of: Mapping[str, list[str]],
) -> ErrorCode:
    names = naming.class_names(code, spec.get("class_name"))
    return ErrorCode(
        code=code,
        message=spec["message"],
        cause=spec["cause"],
        remediation=spec["remediation"],
        http=spec["http"],
        grpc=spec["grpc"],
        context=tuple(fields[name] for name in spec["context"]),
        retryable=spec["retryable"],
        auth_failure=spec.get("auth_failure", False),
        cancelled=spec.get("cancelled", False),
        recovery=Recovery(**spec["recovery"]),
        side_effects=spec["side_effects"],
        origin=spec["origin"],
        emitted_by=spec.get("emitted_by", "server"),
        class_names=MappingProxyType({lang: choice.name for lang, choice in names.items()}),
        surfaces=tuple(
            SurfaceOverride(
                surface=name, message=s.get("message"), remediation=s.get("remediation")
            )
            for name, s in sorted(spec.get("surfaces", {}).items())
        ),
        since=spec.get("since", 1),
        deprecated=spec.get("deprecated"),
        families=families,
        fallback_statuses=tuple(statuses_of.get(code, ())),
    )


def _with_refinements(codes: tuple[ErrorCode, ...], raw: dict[str, Any]) -> tuple[ErrorCode, ...]:
    """``codes`` with each one's ``refines``, ``chain`` and ``refined_by`` set."""
    chains = {c.code: refines.chain_of(raw, c.code) for c in codes}
    below = refines.descendants(
        chains, refines.order({c: refines.parent_of(raw, c) for c in chains})
    )
    return tuple(
        replace(
            c,
            refines=refines.parent_of(raw, c.code),
            chain=chains[c.code],
            refined_by=below[c.code],
        )
        for c in codes
    )
