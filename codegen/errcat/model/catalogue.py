"""The frozen in-memory model of a validated catalogue.

Every decision a renderer needs (names, sort order, fallback resolution,
types) is made here, so templates only print what they are given. Build it
with :func:`build_model` from data that :func:`errcat.check.validate.validate`
accepted; it does not re-check what the validator already rejects. Each
code's model is in :mod:`errcat.model.codes`, the sanitizer's in
:mod:`errcat.model.sanitizer`; their classes are named here too.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from errcat.model import refines
from errcat.model.codes import ContextField as ContextField
from errcat.model.codes import ErrorCode as ErrorCode
from errcat.model.codes import UnknownCode, build_codes, build_context_fields, build_unknown
from errcat.model.conditions import ConditionReason, build_conditions
from errcat.model.defaults import effective_fallback, effective_sanitizer
from errcat.model.grpc import GrpcGateway, build_gateway
from errcat.model.package import OVERLAY_KEY, PackageInfo, build_package_info
from errcat.model.record import Limits as Limits
from errcat.model.sanitizer import CharRange as CharRange
from errcat.model.sanitizer import Sanitizer, build_sanitizer
from errcat.model.sanitizer import TextRule as TextRule
from errcat.model.sdk import SdkCodes, build_sdk_codes
from errcat.names.languages import LANGUAGES


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


NO_GATEWAY = GrpcGateway((), "", ())
"""A placeholder gateway map; :func:`build_model` always sets the real one."""

NO_PACKAGE = PackageInfo(description="")
"""A placeholder; :func:`build_model` always sets the catalogue's package metadata."""

NO_SDK = SdkCodes()
"""An ``sdk`` section that declares no group: the SDKs raise no code of their own."""


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
    packages: Mapping[str, Mapping[str, str]] = field(hash=False)
    """Each language's package names, by language key then field (``packages.<key>.<field>``)."""
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
    sdk: SdkCodes = NO_SDK
    """The codes the SDKs raise themselves, by role (the ``sdk`` section; none declared when absent)."""
    package: PackageInfo = NO_PACKAGE
    """The packages' metadata and hand-written overlay (``build_model`` always sets it)."""

    def code(self, name: str) -> ErrorCode:
        """Return the code called ``name``; raises ``KeyError`` if there is none."""
        return self._by_code[name]

    @functools.cached_property
    def _by_code(self) -> dict[str, ErrorCode]:
        """The codes by name, built once: renderers look a code up per refinement."""
        return {c.code: c for c in self.codes}

    @property
    def class_order(self) -> tuple[ErrorCode, ...]:
        """Every code, each refined code before the codes that refine it (:func:`errcat.model.refines.order`)."""
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


def _families(raw: dict[str, Any]) -> tuple[Family, ...]:
    """The catalogue's families, sorted by name."""
    return tuple(
        Family(name=name, title=f["title"], summary=f["summary"], codes=tuple(f["codes"]))
        for name, f in sorted(raw.items())
    )


def _families_of(families: tuple[Family, ...]) -> dict[str, tuple[str, ...]]:
    """Code -> the names of the families that list it, in family order, from one pass."""
    found: dict[str, list[str]] = {}
    for family in families:
        for code in dict.fromkeys(family.codes):  # a code listed twice counts once
            found.setdefault(code, []).append(family.name)
    return {code: tuple(names) for code, names in found.items()}


def _retired(raw: dict[str, Any]) -> tuple[Retired, ...]:
    """The retired codes, sorted by code."""
    return tuple(
        Retired(code=code, reason=r["reason"], replaced_by=r.get("replaced_by"))
        for code, r in sorted(raw.items())
    )


def _packages(given: Mapping[str, Mapping[str, str]]) -> Mapping[str, Mapping[str, str]]:
    """Each language's package names: the catalogue's, else the language's defaults from them."""
    names = {key: dict(fields) for key, fields in given.items()}
    for lang in LANGUAGES:
        if lang.key not in names and lang.default_packages is not None:
            names[lang.key] = lang.default_packages(given)
    return MappingProxyType({key: MappingProxyType(fields) for key, fields in names.items()})


def build_model(data: dict[str, Any], *, source: str, regenerate: str) -> Catalogue:
    """Turn validated catalogue data into the frozen model.

    Args:
        data: the catalogue as plain Python values, already validated.
        source: the catalogue path to print in generated headers.
        regenerate: the command to print in generated headers.

    Returns:
        The model, with codes sorted by code and every name decided.
    """
    fields = build_context_fields(data["context_fields"])
    fallback, statuses_of = _fallback(effective_fallback(data["fallback"], data["codes"]))
    families = _families(data.get("families", {}))
    families_of = _families_of(families)
    return Catalogue(
        source=source,
        regenerate=regenerate,
        contract_version=data["contract_version"],
        api_name=data["api"]["name"],
        api_summary=data["api"]["summary"],
        packages=_packages({k: v for k, v in data["packages"].items() if k != OVERLAY_KEY}),
        base_class=data["base_class"],
        limits=Limits(**data["limits"]),
        context_fields=tuple(fields.values()),
        codes=build_codes(data["codes"], fields, families_of, statuses_of),
        fallback=fallback,
        families=families,
        retired=_retired(data.get("retired", {})),
        sanitizer=build_sanitizer(effective_sanitizer(data.get("sanitizer"))),
        unknown=build_unknown(data.get("unknown_code")),
        version=data.get("version"),
        url=data["api"].get("url"),
        grpc_gateway=build_gateway(data.get("grpc_gateway"), fallback.server_error),
        conditions=build_conditions(data.get("conditions")),
        sdk=build_sdk_codes(data.get("sdk")),
        package=build_package_info(data["api"], data["packages"]),
    )
