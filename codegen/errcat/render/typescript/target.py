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
from errcat.model.catalogue import Catalogue, ErrorCode
from errcat.names.languages import TYPESCRIPT
from errcat.names.naming import ENVELOPE_TYPE, class_names_elsewhere, known_type_name
from errcat.render import header_lines, render_template
from errcat.render.package import package_texts, runtime_files
from errcat.render.schema import language_schema
from errcat.render.target import SdkTarget
from errcat.render.typescript.manifest import manifest_text, readme
from errcat.render.typescript.record import (
    catch_all_members,
    nested_fields,
    record_view,
    spec_json,
    spec_types,
    text_fields,
    text_members,
)
from errcat.render.typescript.sanitizer import sanitizer_view
from errcat.render.typescript.schema_to_ts import TsDeclaration, schema_to_ts
from errcat.render.typescript.sdk import TsSdkGroup, helpers_view, sdk_groups
from errcat.render.typescript.syntax import (
    TS_CLASS_MAP_TYPE,
    doc_text,
    identifier,
    line_comment,
    property_key,
    string_array,
    string_literal,
    ts_identifier,
    ts_spec_constant,
    ts_texts_constant,
)


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
    spec_json: str
    """The rest of its spec but the class name, as one JSON text in a string literal."""
    spec_types: tuple[tuple[str, str], ...]
    """The same fields, each with its value as a literal type (what tsc checks)."""
    class_literal: str
    """The class name as a string literal."""
    code_doc: str
    """The code as doc-comment text."""
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
    http: int
    grpc: str
    texts: tuple[tuple[str, str], ...]
    """The code's texts, each field and its literal (:func:`errcat.render.typescript.record.text_members`)."""
    ts_base: str
    """The class it extends: the class of the code it refines, else the base class."""
    code_type: str
    """The type of ``code``: its own code, or a union with the codes that refine it."""
    http_type: str
    """The type of the static ``httpStatus``: its own status, or a union with those of the codes that refine it."""
    grpc_type: str
    """The type of the static ``grpcStatus``, likewise."""


@dataclass(frozen=True)
class TsLimit:
    """One limit: its catalogue key, camelCase name, constant name and value."""

    key: str
    name: str
    constant: str
    value: int


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
    text_fields: tuple[str, ...]
    """The names of the text fields, in order."""
    nested_fields: tuple[str, ...]
    """The names of the spec fields that hold an array or an object."""
    catch_all: tuple[tuple[str, str], ...]
    """The members of the base class's spec (:func:`errcat.render.typescript.record.catch_all_members`)."""
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
    sdk: tuple[TsSdkGroup, ...]
    """The constants of the catalogue's ``sdk`` section (:mod:`errcat.render.typescript.sdk`)."""
    surfaces: tuple[str, ...] = ()
    """Each surface override, resolved, as the array literal ``[code, surface, message, remediation]``."""
    chains: tuple[tuple[str, str], ...] = ()
    elsewhere: tuple[tuple[str, str], ...] = ()
    """Each code that refines another and the array literal of its chain, nearest first."""


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
        spec_json=spec_json(entry),
        spec_types=spec_types(entry),
        class_literal=string_literal(name),
        code_doc=doc_text(entry.code),
        code_key=property_key(entry.code),
        doc_message=doc_text(entry.message[:1].upper() + entry.message[1:]),
        doc_cause=doc_text(entry.cause),
        doc_remediation=doc_text(entry.remediation),
        doc_grpc=doc_text(entry.grpc),
        doc_origin=doc_text(entry.origin),
        doc_deprecated=doc_text(entry.deprecated or ""),
        sdk_local=entry.sdk_local,
        http=entry.http,
        grpc=string_literal(entry.grpc),
        texts=text_members(entry),
        **_hierarchy(entry, cat),
    )


def _hierarchy(entry: ErrorCode, cat: Catalogue) -> dict[str, str]:
    """What ``extends`` names, and the types of the members a refinement narrows."""
    family = [entry, *(cat.code(c) for c in entry.refined_by)]
    code_type = _union([string_literal(c.code) for c in family])
    http_type = _union([str(c.http) for c in family])
    grpc_type = _union([string_literal(c.grpc) for c in family])
    parent = cat.code(entry.refines).class_names[TYPESCRIPT.key] if entry.refines else None
    return {
        "ts_base": identifier(parent or cat.base_class),
        "code_type": code_type,
        "http_type": http_type,
        "grpc_type": grpc_type,
    }


def _catalogue(cat: Catalogue, codes: tuple[TsCode, ...]) -> TsCatalogueView:
    return TsCatalogueView(
        package=string_literal(cat.packages[TYPESCRIPT.key][TYPESCRIPT.import_field]),
        contract_version=cat.contract_version,
        base_class=string_literal(cat.base_class),
        limits=tuple(
            TsLimit(key, ts_identifier(key), key.upper(), value)
            for key, value, _ in cat.limits.items()
        ),
        refines_max=refines.MAX_CHAIN,
        codes=codes,
        context_fields=tuple(string_literal(f.name) for f in cat.context_fields),
        text_fields=text_fields(),
        nested_fields=nested_fields(),
        catch_all=catch_all_members(cat),
        fallback=tuple((status, string_literal(code)) for status, code in cat.fallback.by_status),
        grpc_names=string_array(tuple(s.name for s in cat.grpc_gateway.statuses)),
        grpc_proto_names=string_array(tuple(s.proto_name for s in cat.grpc_gateway.statuses)),
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
        sdk=sdk_groups(cat.sdk),
        surfaces=tuple(
            string_array((c.code, *texts)) for c in cat.codes for texts in c.surface_texts
        ),
        chains=tuple((string_literal(c.code), string_array(c.chain)) for c in cat.codes if c.chain),
        elsewhere=tuple(
            (string_literal(name), string_literal(code))
            for name, code in class_names_elsewhere(cat.codes, TYPESCRIPT.key)
        ),
    )


def _errors(cat: Catalogue, codes: tuple[TsCode, ...]) -> TsErrorsView:
    base = identifier(cat.base_class)
    runtime = TYPESCRIPT.runtime_base
    return TsErrorsView(
        base_class=base,
        runtime_base=runtime,
        base_import=runtime if base == runtime else f"{runtime} as {base}",
        base_alias=base != runtime,
        codes=codes,
        class_map_type=TS_CLASS_MAP_TYPE,
        known_type=identifier(known_type_name(base)),
        known_union="".join(f"\n  | {c.ts_class}" for c in codes),
    )


def _codes(cat: Catalogue) -> tuple[TsCode, ...]:
    return tuple(_code(c, cat) for c in cat.codes)


class TypeScriptTarget(SdkTarget):
    """The TypeScript SDK: the modules of ``ts-sdk/src/generated/``.

    Class names were checked by the validator (:mod:`errcat.check.classnames`),
    against every name of the package.
    """

    language = TYPESCRIPT

    def _file(self, cat: Catalogue, name: str, view: object) -> dict[str, str]:
        header = tuple(line_comment(line) for line in header_lines(cat))
        text = render_template(f"typescript/{name}.jinja", cat, header=header, view=view)
        return {f"{self.output_dir(cat)}/{name}": text}

    def errors(self, cat: Catalogue) -> dict[str, str]:
        by_code = {c.code: tsc for c, tsc in zip(cat.codes, _codes(cat), strict=True)}
        classes = tuple(by_code[c.code] for c in cat.class_order)
        return self._file(cat, "errors.ts", _errors(cat, classes))

    def catalogue_data(self, cat: Catalogue) -> dict[str, str]:
        """``catalogue.ts`` (texts, specs, limits, maps, SDK-made codes) and ``record.ts`` (their types)."""
        catalogue = self._file(cat, "catalogue.ts", _catalogue(cat, _codes(cat)))
        return catalogue | self._file(cat, "record.ts", record_view(cat))

    def sanitizer_rules(self, cat: Catalogue) -> dict[str, str]:
        return self._file(cat, "sanitizer-rules.ts", sanitizer_view(cat))

    def envelope_types(self, cat: Catalogue) -> dict[str, str]:
        """``envelope.ts``.

        Raises:
            errcat.render.typescript.schema_to_ts.SchemaConversionError: the envelope schema
                uses a construct the converter does not support (a generator bug).
        """
        envelope = TsEnvelopeView(
            api_name=doc_text(cat.api_name),
            contract_version=cat.contract_version,
            declarations=tuple(schema_to_ts(language_schema(cat, TYPESCRIPT.key), ENVELOPE_TYPE)),
        )
        return self._file(cat, "envelope.ts", envelope)

    def package_files(self, cat: Catalogue) -> dict[str, str]:
        """``helpers.ts`` (the helpers the ``sdk`` section enables) and the package around the
        modules: ``package.json``, README, licence, the runtime and the build files (copied,
        :mod:`errcat.render.package`)."""
        files = self._file(cat, "helpers.ts", helpers_view(cat)) | runtime_files(cat, TYPESCRIPT)
        return files | package_texts(
            cat, TYPESCRIPT, readme(cat), {"package.json": manifest_text(cat)}
        )


TARGET = TypeScriptTarget()
"""The TypeScript target (:func:`errcat.render.target.sdk_target` finds it)."""
