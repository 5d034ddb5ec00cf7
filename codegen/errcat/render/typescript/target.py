"""Render the generated part of the TypeScript SDK, ``ts-sdk/src/generated/``.

Four files, each a declaration the hand-written runtime (``ts-sdk/src/``)
reads; none of them holds behaviour:

* ``envelope.ts``: the types of the wire envelope, converted from the
  generated JSON Schema (:mod:`errcat.render.typescript.schema_to_ts`);
* ``catalogue.ts``: the package identity, limits, every code's spec, the
  context fields, the catch-all spec (the unknown-code advice) and the
  status fallback map;
* ``sanitizer-rules.ts``: the sanitizer's character classes and patterns;
* ``errors.ts``: one class per code, declarations only.

Each file gets one view model (a frozen dataclass) whose every value is
already TypeScript source, written by :mod:`errcat.render.typescript.syntax` for
the place it lands, so the templates only lay out what they are given.
"""

from __future__ import annotations

from dataclasses import dataclass

from errcat.model import refines
from errcat.model.catalogue import Catalogue, CharRange, ErrorCode, TextRule
from errcat.names.languages import TYPESCRIPT
from errcat.names.naming import (
    ENVELOPE_TYPE,
    TS_CLASS_MAP_TYPE,
    TS_RUNTIME_BASE,
    known_type_name,
    ts_identifier,
    ts_spec_constant,
    ts_texts_constant,
)
from errcat.render import header_lines, render_template
from errcat.render.schema import language_schema
from errcat.render.typescript.schema_to_ts import TsDeclaration, schema_to_ts
from errcat.render.typescript.syntax import (
    doc_text,
    identifier,
    line_comment,
    literal,
    property_key,
    string_literal,
)

OUT = "ts-sdk/src/generated"


@dataclass(frozen=True)
class TsCode:
    """One code: every value already TypeScript source."""

    code: str
    """The code as a string literal."""
    ts_class: str
    spec_const: str
    """The name of the code's spec constant in ``catalogue.ts``."""
    texts_const: str
    """The name of the constant of the code's texts (its spec and ``TEXTS`` share it)."""
    code_doc: str
    """The code as doc-comment text."""
    class_literal: str
    """The class name as a string literal."""
    code_key: str
    """The code as an object key."""
    doc_message: str
    """The message as doc-comment text, its first letter a capital (the class doc's summary)."""
    doc_cause: str
    doc_remediation: str
    doc_grpc: str
    doc_origin: str
    doc_deprecated: str
    """The deprecation note as doc-comment text; empty when the code is not deprecated."""
    sdk_local: bool
    message: str
    cause: str
    remediation: str
    http: int
    grpc: str
    context_fields: str
    """An array literal of the context field names."""
    retryable: str
    auth_failure: str
    cancelled: str
    action: str
    same_arguments: str
    guidance: str
    side_effects: str
    origin: str
    emitted_by: str
    ts_base: str
    """The class it extends: the class of the code it refines, else the base class."""
    code_type: str
    """The type of ``code``: its own code, or a union with the codes that refine it."""
    code_annotation: str
    http_annotation: str
    grpc_annotation: str
    """``: <union>`` for a static field whose subclasses (refinements) narrow it; else empty."""


@dataclass(frozen=True)
class TsUnknown:
    """The catch-all advice, every value a literal."""

    retryable: str
    action: str
    same_arguments: str
    guidance: str
    side_effects: str
    origin: str


@dataclass(frozen=True)
class TsLimit:
    """One limit: its catalogue key, camelCase name, constant name and value."""

    key: str
    name: str
    constant: str
    value: int


@dataclass(frozen=True)
class TsRule:
    """One sanitizer rule with its regular expression source as a string literal."""

    name: str
    """The rule's name as line-comment text (the runtime does not read it)."""
    prefix: str
    pattern: str
    triggers: str


@dataclass(frozen=True)
class TsEnvelopeView:
    """What ``envelope.ts`` shows."""

    api_name: str
    """The API's name, for the module's doc comment."""
    contract_version: int
    declarations: tuple[TsDeclaration, ...]


@dataclass(frozen=True)
class TsCatalogueView:
    """What ``catalogue.ts`` shows."""

    package: str
    contract_version: int
    base_class: str
    """The base class name as a string literal."""
    limits: tuple[TsLimit, ...]
    refines_max: int
    codes: tuple[TsCode, ...]
    context_fields: tuple[str, ...]
    unknown: TsUnknown
    fallback: tuple[tuple[int, str], ...]
    grpc_names: str
    grpc_proto_names: str
    grpc_map: tuple[tuple[str, str], ...]
    grpc_default: str
    grpc_channels: tuple[tuple[str, str], ...]
    """Each channel's name and the array literal of its overrides."""
    client_error: str
    server_error: str
    default: str


@dataclass(frozen=True)
class TsSanitizerView:
    """What ``sanitizer-rules.ts`` shows."""

    redaction: str
    filtered: str
    truncation_marker: str
    remove: str
    remove_names: tuple[str, ...]
    to_space: str
    to_space_names: tuple[str, ...]
    secrets: tuple[TsRule, ...]
    injection: tuple[TsRule, ...]
    unicode_version: str


@dataclass(frozen=True)
class TsErrorsView:
    """What ``errors.ts`` shows."""

    base_class: str
    runtime_base: str
    base_import: str
    """``AgentRunError``, or ``AgentRunError as <base class>`` under another name."""
    base_alias: bool
    codes: tuple[TsCode, ...]
    class_map_type: str
    known_type: str
    known_union: str


def _array(items: tuple[str, ...]) -> str:
    return "[" + ", ".join(string_literal(item) for item in items) + "]"


def _union(values: list[str]) -> str:
    """The distinct values, in order, as a TypeScript union type."""
    return " | ".join(dict.fromkeys(values))


def _code(entry: ErrorCode, cat: Catalogue) -> TsCode:
    name = identifier(entry.class_names[TYPESCRIPT.key])
    return TsCode(
        code=string_literal(entry.code),
        ts_class=name,
        spec_const=ts_spec_constant(entry.code),
        texts_const=ts_texts_constant(entry.code),
        code_doc=doc_text(entry.code),
        class_literal=string_literal(name),
        code_key=property_key(entry.code),
        doc_message=doc_text(entry.message[:1].upper() + entry.message[1:]),
        doc_cause=doc_text(entry.cause),
        doc_remediation=doc_text(entry.remediation),
        doc_grpc=doc_text(entry.grpc),
        doc_origin=doc_text(entry.origin),
        doc_deprecated=doc_text(entry.deprecated or ""),
        sdk_local=entry.sdk_local,
        message=string_literal(entry.message),
        cause=string_literal(entry.cause),
        remediation=string_literal(entry.remediation),
        http=entry.http,
        grpc=string_literal(entry.grpc),
        context_fields=_array(tuple(f.name for f in entry.context)),
        retryable=literal(entry.retryable),
        auth_failure=literal(entry.auth_failure),
        cancelled=literal(entry.cancelled),
        action=string_literal(entry.recovery.action),
        same_arguments=string_literal(entry.recovery.same_arguments),
        guidance=string_literal(entry.recovery.guidance),
        side_effects=string_literal(entry.side_effects),
        origin=string_literal(entry.origin),
        emitted_by=string_literal(entry.emitted_by),
        **_hierarchy(entry, cat),
    )


def _hierarchy(entry: ErrorCode, cat: Catalogue) -> dict[str, str]:
    """What ``extends`` names, and the types of the fields a refinement narrows."""
    family = [entry, *(cat.code(c) for c in entry.refined_by)]
    code_type = _union([string_literal(c.code) for c in family])
    http_type = _union([str(c.http) for c in family])
    grpc_type = _union([string_literal(c.grpc) for c in family])
    parent = cat.code(entry.refines).class_names[TYPESCRIPT.key] if entry.refines else None
    refined = len(family) > 1
    return {
        "ts_base": identifier(parent or cat.base_class),
        "code_type": code_type,
        "code_annotation": f": {code_type}" if refined else "",
        "http_annotation": f": {http_type}" if refined else "",
        "grpc_annotation": f": {grpc_type}" if refined else "",
    }


def char_class(ranges: tuple[CharRange, ...]) -> str:
    """A regular-expression class matching ``ranges`` (read with flag ``u``), as a string literal."""
    parts = []
    for r in ranges:
        first = f"\\u{{{r.first:X}}}"
        parts.append(first if r.first == r.last else f"{first}-\\u{{{r.last:X}}}")
    return string_literal("[" + "".join(parts) + "]")


def _rule(rule: TextRule) -> TsRule:
    return TsRule(
        name=line_comment(rule.name),
        prefix=string_literal(rule.prefix),
        pattern=string_literal(rule.pattern),
        triggers=_array(rule.triggers),
    )


_LIMITS = (
    "max_exec_timeout_s",
    "default_exec_timeout_s",
    "default_run_code_timeout_s",
    "error_body_max_bytes",
    "text_max_chars",
    "json_max_depth",
    "context_max_keys",
    "error_body_read_timeout_ms",
)


def _catalogue(cat: Catalogue, codes: tuple[TsCode, ...]) -> TsCatalogueView:
    unknown = cat.unknown
    return TsCatalogueView(
        package=string_literal(cat.ts_package),
        contract_version=cat.contract_version,
        base_class=string_literal(cat.base_class),
        limits=tuple(
            TsLimit(n, ts_identifier(n), n.upper(), getattr(cat.limits, n)) for n in _LIMITS
        ),
        refines_max=refines.MAX_CHAIN,
        codes=codes,
        context_fields=tuple(string_literal(f.name) for f in cat.context_fields),
        unknown=TsUnknown(
            retryable=literal(unknown.retryable),
            action=string_literal(unknown.recovery.action),
            same_arguments=string_literal(unknown.recovery.same_arguments),
            guidance=string_literal(unknown.recovery.guidance),
            side_effects=string_literal(unknown.side_effects),
            origin=string_literal(unknown.origin),
        ),
        fallback=tuple((status, string_literal(code)) for status, code in cat.fallback.by_status),
        grpc_names=_array(tuple(s.name for s in cat.grpc_gateway.statuses)),
        grpc_proto_names=_array(tuple(s.proto_name for s in cat.grpc_gateway.statuses)),
        grpc_map=tuple(
            (string_literal(s), string_literal(c)) for s, c in cat.grpc_gateway.by_status
        ),
        grpc_default=string_literal(cat.grpc_gateway.default),
        grpc_channels=tuple(
            (
                string_literal(ch.name),
                "["
                + ", ".join(
                    f"[{string_literal(o.status)}, {string_literal(o.code)}]" for o in ch.overrides
                )
                + "]",
            )
            for ch in cat.grpc_gateway.channels
        ),
        client_error=string_literal(cat.fallback.client_error),
        server_error=string_literal(cat.fallback.server_error),
        default=string_literal(cat.fallback.default),
    )


def _sanitizer(cat: Catalogue) -> TsSanitizerView:
    san = cat.sanitizer
    return TsSanitizerView(
        redaction=string_literal(san.redaction),
        filtered=string_literal(san.filtered),
        truncation_marker=string_literal(san.truncation_marker),
        remove=char_class(san.remove),
        remove_names=tuple(doc_text(r.name) for r in san.remove),
        to_space=char_class(san.to_space),
        to_space_names=tuple(doc_text(r.name) for r in san.to_space),
        secrets=tuple(_rule(r) for r in san.secrets),
        injection=tuple(_rule(r) for r in san.injection),
        unicode_version=string_literal(san.unicode_version),
    )


def _errors(cat: Catalogue, codes: tuple[TsCode, ...]) -> TsErrorsView:
    base = identifier(cat.base_class)
    return TsErrorsView(
        base_class=base,
        runtime_base=TS_RUNTIME_BASE,
        base_import=TS_RUNTIME_BASE if base == TS_RUNTIME_BASE else f"{TS_RUNTIME_BASE} as {base}",
        base_alias=base != TS_RUNTIME_BASE,
        codes=codes,
        class_map_type=TS_CLASS_MAP_TYPE,
        known_type=identifier(known_type_name(base)),
        known_union="".join(f"\n  | {c.ts_class}" for c in codes),
    )


def render(cat: Catalogue) -> dict[str, str]:
    """Render the four files of ``ts-sdk/src/generated/``.

    Class names were checked by the validator (:mod:`errcat.check.classnames`),
    against every name of the package.

    Raises:
        errcat.render.typescript.schema_to_ts.SchemaConversionError: the envelope schema
            uses a construct the converter does not support (a generator bug).
    """
    header = tuple(line_comment(line) for line in header_lines(cat))
    codes = tuple(_code(c, cat) for c in cat.codes)
    by_code = {c.code: tsc for c, tsc in zip(cat.codes, codes, strict=True)}
    classes = tuple(by_code[c.code] for c in cat.class_order)
    envelope = TsEnvelopeView(
        api_name=doc_text(cat.api_name),
        contract_version=cat.contract_version,
        declarations=tuple(schema_to_ts(language_schema(cat, "typescript"), ENVELOPE_TYPE)),
    )
    views = {
        "envelope.ts": envelope,
        "catalogue.ts": _catalogue(cat, codes),
        "sanitizer-rules.ts": _sanitizer(cat),
        "errors.ts": _errors(cat, classes),
    }
    return {
        f"{OUT}/{name}": render_template(f"typescript/{name}.jinja", cat, header=header, view=view)
        for name, view in views.items()
    }
