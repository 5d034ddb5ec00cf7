"""The frozen in-memory model of a validated catalogue.

Every decision a renderer needs (names, sort order, fallback resolution,
types) is made here, so templates only print what they are given. Build it
with :func:`build_model` from data that :func:`errcat.validate.validate`
accepted; it does not re-check what the validator already rejects.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from errcat import naming, refines
from errcat.conditions import ConditionReason, build_conditions
from errcat.grpcmap import GrpcGateway, build_gateway
from errcat.sanitizer_model import CharRange as CharRange
from errcat.sanitizer_model import Sanitizer, build_sanitizer
from errcat.sanitizer_model import TextRule as TextRule

PYTHON_TYPES = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
TS_TYPES = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean"}


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

    @property
    def python_type(self) -> str:
        """The Python annotation of the value (``str``, ``int``, ``float``, ``bool``)."""
        return PYTHON_TYPES[self.type]

    @property
    def ts_type(self) -> str:
        """The TypeScript type of the value (``string``, ``number``, ``boolean``)."""
        return TS_TYPES[self.type]


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
    """The class name in each language, by language key (:data:`errcat.languages.LANGUAGES`)."""
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
    def python_class(self) -> str:
        """The Python class name (``class_names["python"]``)."""
        return self.class_names["python"]

    @property
    def ts_class(self) -> str:
        """The TypeScript class name (``class_names["typescript"]``)."""
        return self.class_names["typescript"]

    @property
    def sdk_local(self) -> bool:
        """True for a code only the SDKs synthesize, never a server."""
        return self.emitted_by == "sdk"


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


@dataclass(frozen=True)
class Family:
    """A named group of related codes, such as the timeout family."""

    name: str
    title: str
    summary: str
    codes: tuple[str, ...]


@dataclass(frozen=True)
class Retired:
    """A code that was removed and may never be reintroduced."""

    code: str
    reason: str
    replaced_by: str | None


@dataclass(frozen=True)
class Fallback:
    """How a response without an envelope gets a code from its HTTP status."""

    by_status: tuple[tuple[int, str], ...]
    client_error: str
    server_error: str
    default: str


@dataclass(frozen=True)
class Limits:
    """Numeric limits the SDKs enforce."""

    max_exec_timeout_s: int
    default_exec_timeout_s: int
    default_run_code_timeout_s: int
    error_body_max_bytes: int
    text_max_chars: int
    json_max_depth: int
    context_max_keys: int
    error_body_read_timeout_ms: int = 5000


NO_GATEWAY = GrpcGateway((), "", ())
"""A placeholder gateway map; :func:`build_model` always sets the real one."""


@dataclass(frozen=True)
class Catalogue:
    """A whole validated catalogue, ready to render."""

    source: str
    """The catalogue path as shown in generated headers (POSIX, relative to the output root)."""
    regenerate: str
    """The command that regenerates the outputs, printed in every header."""
    contract_version: int
    api_name: str
    api_summary: str
    python_distribution: str
    python_module: str
    ts_package: str
    base_class: str
    limits: Limits
    context_fields: tuple[ContextField, ...]
    codes: tuple[ErrorCode, ...]
    fallback: Fallback
    families: tuple[Family, ...]
    retired: tuple[Retired, ...]
    sanitizer: Sanitizer
    unknown: UnknownCode
    version: str | None = None
    """The catalogue's semantic version, which both packages take; ``None`` when unversioned."""
    url: str | None = None
    """The project's home URL (``api.url``), under which the envelope schemas' ``$id`` are."""
    grpc_gateway: GrpcGateway = NO_GATEWAY
    """The code a gateway answers for each gRPC status (``build_model`` always sets it)."""
    conditions: tuple[ConditionReason, ...] = ()
    """The controller's condition reasons that explain codes, in catalogue order."""

    def code(self, name: str) -> ErrorCode:
        """Return the code called ``name``; raises ``KeyError`` if there is none."""
        for entry in self.codes:
            if entry.code == name:
                return entry
        raise KeyError(name)

    @property
    def class_order(self) -> tuple[ErrorCode, ...]:
        """Every code, each refined code before the codes that refine it (:func:`errcat.refines.order`)."""
        by_code = {c.code: c for c in self.codes}
        return tuple(
            by_code[code] for code in refines.order({c.code: c.refines for c in self.codes})
        )

    @property
    def server_codes(self) -> tuple[ErrorCode, ...]:
        """Codes a server emits, sorted by code."""
        return tuple(c for c in self.codes if not c.sdk_local)

    @property
    def sdk_codes(self) -> tuple[ErrorCode, ...]:
        """SDK-local codes, sorted by code."""
        return tuple(c for c in self.codes if c.sdk_local)

    @property
    def used_context_fields(self) -> tuple[ContextField, ...]:
        """Context fields that at least one code carries, in definition order."""
        used = {f.name for c in self.codes for f in c.context}
        return tuple(f for f in self.context_fields if f.name in used)


def _fallback(raw: dict[str, Any]) -> tuple[Fallback, dict[str, list[str]]]:
    """The fallback map, and the statuses whose bare responses map to each code."""
    by_status = tuple(sorted((int(status), code) for status, code in raw["by_status"].items()))
    fallback = Fallback(
        by_status=by_status,
        client_error=raw["by_class"]["4xx"],
        server_error=raw["by_class"]["5xx"],
        default=raw["default"],
    )
    statuses_of: dict[str, list[str]] = {}
    for status, target in by_status:
        statuses_of.setdefault(target, []).append(str(status))
    statuses_of.setdefault(fallback.client_error, []).append("4xx")
    statuses_of.setdefault(fallback.server_error, []).append("5xx")
    statuses_of.setdefault(fallback.default, []).append("default")
    return fallback, statuses_of


def _code(
    code: str,
    spec: dict[str, Any],
    fields: dict[str, ContextField],
    families: tuple[Family, ...],
    statuses_of: dict[str, list[str]],
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
        families=tuple(f.name for f in families if code in f.codes),
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


def build_model(data: dict[str, Any], *, source: str, regenerate: str) -> Catalogue:
    """Turn validated catalogue data into the frozen model.

    Args:
        data: the catalogue as plain Python values, already validated.
        source: the catalogue path to print in generated headers.
        regenerate: the command to print in generated headers.

    Returns:
        The model, with codes sorted by code and every name decided.
    """
    fields = {
        name: ContextField(
            name=name,
            type=spec["type"],
            meaning=spec["meaning"],
            example=spec.get("example"),
            minimum=spec.get("minimum"),
            maximum=spec.get("maximum"),
        )
        for name, spec in data["context_fields"].items()
    }
    fallback, statuses_of = _fallback(data["fallback"])
    families = tuple(
        Family(name=name, title=f["title"], summary=f["summary"], codes=tuple(f["codes"]))
        for name, f in sorted(data.get("families", {}).items())
    )
    codes = _with_refinements(
        tuple(
            _code(code, spec, fields, families, statuses_of)
            for code, spec in sorted(data["codes"].items())
        ),
        data["codes"],
    )
    unknown: dict[str, Any] = data.get("unknown_code", DEFAULT_UNKNOWN)
    return Catalogue(
        source=source,
        regenerate=regenerate,
        contract_version=data["contract_version"],
        api_name=data["api"]["name"],
        api_summary=data["api"]["summary"],
        python_distribution=data["packages"]["python"]["distribution"],
        python_module=data["packages"]["python"]["module"],
        ts_package=data["packages"]["typescript"]["package"],
        base_class=data["base_class"],
        limits=Limits(**data["limits"]),
        context_fields=tuple(fields.values()),
        codes=codes,
        fallback=fallback,
        families=families,
        retired=tuple(
            Retired(code=code, reason=r["reason"], replaced_by=r.get("replaced_by"))
            for code, r in sorted(data.get("retired", {}).items())
        ),
        sanitizer=build_sanitizer(data["sanitizer"]),
        unknown=UnknownCode(
            retryable=unknown["retryable"],
            recovery=Recovery(**unknown["recovery"]),
            side_effects=unknown["side_effects"],
            origin=unknown.get("origin", DEFAULT_UNKNOWN["origin"]),
        ),
        version=data.get("version"),
        url=data["api"].get("url"),
        grpc_gateway=build_gateway(data.get("grpc_gateway"), fallback.server_error),
        conditions=build_conditions(data.get("conditions")),
    )
