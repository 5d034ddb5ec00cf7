"""Render the generated part of the TypeScript SDK, ``ts-sdk/src/generated/``.

Four files, each a declaration the hand-written runtime (``ts-sdk/src/``)
reads; none of them holds behaviour:

* ``envelope.ts``: the TypeScript types of the wire envelope, converted from
  the generated JSON Schema (:func:`errcat.render.schema.envelope_schema`)
  by :func:`schema_to_ts`, so the types follow the schema;
* ``catalogue.ts``: the package identity, limits, every code's spec, the
  context fields, the unknown-code advice and the status fallback map;
* ``sanitizer-rules.ts``: the sanitizer's character classes and patterns;
* ``errors.ts``: one class per code, declarations only.

Every string, regular expression and JSDoc comment is escaped here, so the
templates only lay out what they are given.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from errcat.model import Catalogue, CharRange, ErrorCode, TextRule
from errcat.naming import (
    ENVELOPE_TYPE,
    TS_CLASS_MAP_TYPE,
    TS_RUNTIME_BASE,
    TS_RUNTIME_EXPORTS,
    known_type_name,
    ts_identifier,
)
from errcat.render import render_template
from errcat.render.schema import envelope_schema

OUT = "ts-sdk/src/generated"

ROOT_TYPE = ENVELOPE_TYPE
"""The name of the type of the schema's root (the whole envelope)."""

CLASS_MAP_TYPE = TS_CLASS_MAP_TYPE
"""The generated interface mapping each code to its class (``errors.ts``)."""


class NameCollisionError(ValueError):
    """A generated class would have the name of another export of the package."""


# Keywords that constrain values beyond what a TypeScript type can say. They
# are kept in the JSDoc of the property so the reader still sees them.
VALIDATION_ONLY = ("minLength", "maxLength", "minimum", "maximum", "pattern", "format")
# Keywords that carry no type information at all.
ANNOTATIONS = ("description", "title", "$comment", "$schema", "$id", "examples", "default")


class SchemaConversionError(ValueError):
    """The envelope schema uses a keyword or shape this converter does not support."""


# --- literals -----------------------------------------------------------------


def js_string(text: str) -> str:
    """``text`` as a double-quoted JavaScript string literal (JSON, plus U+2028/9 escaped)."""
    return (
        json.dumps(text, ensure_ascii=False)
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def js_literal(value: Any) -> str:
    """A JSON scalar (string, number, boolean, null) as a TypeScript literal."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return js_string(value)
    if isinstance(value, int):
        return str(value)
    raise SchemaConversionError(f"unsupported literal {value!r}")


def doc_text(text: str) -> str:
    """One line of prose that is safe inside a ``/** ... */`` comment."""
    return " ".join(text.split()).replace("*/", "*\\/")


def _property_key(name: str) -> str:
    if name.isidentifier() and name.isascii():
        return name
    return js_string(name)


# --- JSON Schema -> TypeScript --------------------------------------------------


@dataclass(frozen=True)
class TsDeclaration:
    """One exported type alias or interface, with its JSDoc lines."""

    doc: tuple[str, ...]
    text: str
    """``interface Name { ... }`` or ``type Name = ...;``, already indented."""


class _Converter:
    """A converter for the JSON Schema subset the envelope schema uses.

    Supported: ``type`` (one of string, integer, number, boolean, null,
    object, array), ``enum``, ``const``, ``properties``/``required``,
    ``additionalProperties`` (true, false or a schema), ``items``, ``$ref``
    (a ``$defs`` entry becomes a named type, any other local JSON pointer is
    inlined), ``anyOf`` (a union), and in ``allOf`` the
    discriminator pattern ``{"if": {"properties": {K: {"const": V}},
    "required": [K]}, "then": S}`` (a discriminated union on ``K``).
    Anything else raises :class:`SchemaConversionError`, so the types never
    quietly say less than the schema.
    """

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.defs: dict[str, Any] = root.get("$defs", {})

    def resolve(self, ref: str) -> Any:
        if not ref.startswith("#/"):
            raise SchemaConversionError(f"only local $ref are supported, not {ref!r}")
        node: Any = self.root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                raise SchemaConversionError(f"$ref {ref!r} points at nothing")
            node = node[part]
        return node

    def check_keywords(self, schema: dict[str, Any], allowed: set[str]) -> None:
        unknown = set(schema) - allowed - set(VALIDATION_ONLY) - set(ANNOTATIONS)
        if unknown:
            raise SchemaConversionError(f"unsupported schema keywords {sorted(unknown)}")

    def type_of(self, schema: Any, indent: str) -> str:
        """The TypeScript type expression of ``schema``."""
        if schema is True:
            return "unknown"
        if not isinstance(schema, dict):
            raise SchemaConversionError(f"unsupported schema {schema!r}")
        if "$ref" in schema:
            self.check_keywords(schema, {"$ref"})
            ref: str = schema["$ref"]
            prefix = "#/$defs/"
            if ref.startswith(prefix) and "/" not in ref[len(prefix) :]:
                name = ref[len(prefix) :]
                if name not in self.defs:
                    raise SchemaConversionError(f"$ref {ref!r} points at nothing")
                return name
            return self.type_of(self.resolve(ref), indent)
        if "const" in schema:
            self.check_keywords(schema, {"const"})
            return js_literal(schema["const"])
        if "enum" in schema:
            self.check_keywords(schema, {"enum", "type"})
            return " | ".join(js_literal(v) for v in schema["enum"])
        if "anyOf" in schema:
            self.check_keywords(schema, {"anyOf"})
            return " | ".join(f"({self.type_of(s, indent)})" for s in schema["anyOf"])
        kind = schema.get("type")
        if kind is not None and not isinstance(kind, str):
            raise SchemaConversionError(f"unsupported type {kind!r}: give one type")
        if kind == "object" or "properties" in schema:
            return self.object_type(schema, indent)
        if kind == "array":
            self.check_keywords(schema, {"type", "items", "minItems", "maxItems", "uniqueItems"})
            return f"Array<{self.type_of(schema.get('items', True), indent)}>"
        scalars = {
            "string": "string",
            "integer": "number",
            "number": "number",
            "boolean": "boolean",
        }
        if kind in scalars:
            self.check_keywords(schema, {"type"})
            return scalars[kind]
        if kind == "null":
            self.check_keywords(schema, {"type"})
            return "null"
        raise SchemaConversionError(f"unsupported schema {schema!r}")

    def object_type(self, schema: dict[str, Any], indent: str) -> str:
        """An object literal type, intersected with its ``allOf`` discriminated union."""
        self.check_keywords(
            schema, {"type", "properties", "required", "additionalProperties", "allOf"}
        )
        body = self.members(schema, indent, index_signature=True)
        if "allOf" not in schema:
            return body
        return f"{body} & ({self.discriminated(schema, indent)})"

    def members(self, schema: dict[str, Any], indent: str, *, index_signature: bool) -> str:
        """The ``{ ... }`` of ``properties``; an index signature unless members are closed."""
        inner = indent + "  "
        required = set(schema.get("required", ()))
        lines = ["{"]
        for name, prop in schema.get("properties", {}).items():
            lines += [inner + line for line in self.property_doc(prop)]
            optional = "" if name in required else "?"
            lines.append(f"{inner}{_property_key(name)}{optional}: {self.type_of(prop, inner)};")
        extra = schema.get("additionalProperties", True)
        if extra is not False and index_signature:
            value = "unknown" if extra is True else self.type_of(extra, inner)
            lines.append(f"{inner}/** Members a newer version may add; readers ignore them. */")
            lines.append(f"{inner}[member: string]: {value};")
        lines.append(indent + "}")
        return "\n".join(lines)

    def property_doc(self, prop: Any) -> list[str]:
        """The JSDoc of a property: its description and the constraints TypeScript cannot say."""
        if isinstance(prop, dict) and "$ref" in prop and prop["$ref"].count("/") > 2:
            prop = self.resolve(prop["$ref"])
        if not isinstance(prop, dict):
            return []
        parts = [doc_text(prop["description"])] if "description" in prop else []
        parts += [f"@{key} {json.dumps(prop[key])}" for key in VALIDATION_ONLY if key in prop]
        return [f"/** {' '.join(parts)} */"] if parts else []

    def discriminated(self, schema: dict[str, Any], indent: str) -> str:
        """The union that ``allOf: [{if: {K: const V}, then: S}, ...]`` means.

        One variant per branch (``K`` is ``V`` and ``S`` holds), and one for
        every other value of ``K``, where no branch applies.
        """
        key: str | None = None
        variants: list[str] = []
        values: list[str] = []
        for branch in schema["allOf"]:
            if not isinstance(branch, dict) or set(branch) != {"if", "then"}:
                raise SchemaConversionError(f"allOf supports only if/then branches, not {branch!r}")
            cond = branch["if"]
            props = cond.get("properties", {}) if isinstance(cond, dict) else {}
            if (
                set(cond) != {"properties", "required"}
                or len(props) != 1
                or list(props) != cond["required"]
            ):
                raise SchemaConversionError(
                    f"unsupported if {cond!r}: want one required const member"
                )
            ((name, test),) = props.items()
            if set(test) != {"const"} or (key is not None and name != key):
                raise SchemaConversionError(
                    f"unsupported if {cond!r}: want one const discriminator"
                )
            then = branch["then"]
            if not isinstance(then, dict):
                raise SchemaConversionError(f"unsupported then {then!r}")
            self.check_keywords(then, {"properties", "required"})
            key = name
            literal = js_literal(test["const"])
            values.append(literal)
            members = self.members(then, indent + "  ", index_signature=False)
            variants.append(f"({{ {_property_key(name)}: {literal} }} & {members})")
        if key is None:
            raise SchemaConversionError("allOf without branches")
        base = schema.get("properties", {}).get(key, True)
        optional = "" if key in schema.get("required", ()) else "?"
        others = f"Exclude<{self.type_of(base, indent)}, {' | '.join(values)}>"
        variants.append(f"{{ {_property_key(key)}{optional}: {others} }}")
        sep = "\n" + indent + "  | "
        return sep + sep.join(variants) + "\n" + indent


def envelope_type_names(schema: dict[str, Any]) -> list[str]:
    """The type names :func:`schema_to_ts` declares: the root's and every ``$defs`` entry's."""
    return [ROOT_TYPE, *schema.get("$defs", {})]


def schema_to_ts(schema: dict[str, Any]) -> list[TsDeclaration]:
    """Convert the envelope schema to exported TypeScript declarations.

    Every ``$defs`` entry becomes an exported type of the same name, and the
    root becomes :data:`ROOT_TYPE`, in the schema's order.

    Raises:
        SchemaConversionError: the schema uses something outside the subset.
    """
    conv = _Converter(schema)
    out = []
    items = [(ROOT_TYPE, {k: v for k, v in schema.items() if k != "$defs"})]
    items += list(conv.defs.items())
    for name, node in items:
        doc = [doc_text(node["description"])] if "description" in node else []
        if name == ROOT_TYPE and "title" in node:
            doc.insert(0, doc_text(node["title"]) + ".")
        out.append(
            TsDeclaration(doc=tuple(doc), text=f"export type {name} = {conv.type_of(node, '')};")
        )
    return out


# --- view models -----------------------------------------------------------------


@dataclass(frozen=True)
class TsCode:
    """One code as the TypeScript templates print it: every value already a literal."""

    code: str
    """The code as a string literal."""
    ts_class: str
    class_literal: str
    """The class name as a string literal."""
    code_key: str
    """The code as an object key."""
    doc_lines: tuple[str, ...]
    """The JSDoc lines of the class, each empty or starting with a space."""
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
    emitted_by: str


@dataclass(frozen=True)
class TsUnknown:
    """The catch-all advice, every value a literal."""

    retryable: str
    action: str
    same_arguments: str
    guidance: str
    side_effects: str


@dataclass(frozen=True)
class TsLimit:
    """One limit: its camelCase name and value."""

    name: str
    value: int


@dataclass(frozen=True)
class TsRule:
    """One sanitizer rule with its regular expression source as a string literal."""

    name: str
    source: str
    triggers: str


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _ts_code(entry: ErrorCode) -> TsCode:
    summary = f"{entry.message[:1].upper()}{entry.message[1:]}: {entry.cause}"
    lines = [
        summary,
        "",
        f"Remediation: {entry.remediation}",
        "",
        f"Code `{entry.code}`; HTTP {entry.http}, gRPC {entry.grpc}.",
    ]
    if entry.sdk_local:
        lines[-1] += (
            " Synthesized by the SDK for a response without an envelope; no server sends it."
        )
    if entry.deprecated:
        lines += ["", f"@deprecated {entry.deprecated}"]
    return TsCode(
        code=js_string(entry.code),
        ts_class=entry.ts_class,
        class_literal=js_string(entry.ts_class),
        code_key=_property_key(entry.code),
        doc_lines=tuple(f" {doc_text(line)}" if line else "" for line in lines),
        message=js_string(entry.message),
        cause=js_string(entry.cause),
        remediation=js_string(entry.remediation),
        http=entry.http,
        grpc=js_string(entry.grpc),
        context_fields="[" + ", ".join(js_string(f.name) for f in entry.context) + "]",
        retryable=_bool(entry.retryable),
        auth_failure=_bool(entry.auth_failure),
        cancelled=_bool(entry.cancelled),
        action=js_string(entry.recovery.action),
        same_arguments=js_string(entry.recovery.same_arguments),
        guidance=js_string(entry.recovery.guidance),
        side_effects=js_string(entry.side_effects),
        emitted_by=js_string(entry.emitted_by),
    )


def _escape_code_point(cp: int) -> str:
    return f"\\u{{{cp:X}}}"


def char_class(ranges: tuple[CharRange, ...]) -> str:
    """A regular-expression class matching ``ranges`` (read with flag ``u``), as a string literal."""
    parts = []
    for r in ranges:
        first = _escape_code_point(r.first)
        parts.append(first if r.first == r.last else f"{first}-{_escape_code_point(r.last)}")
    return js_string("[" + "".join(parts) + "]")


def _rule(rule: TextRule) -> TsRule:
    return TsRule(
        name=js_string(rule.name),
        source=js_string(rule.regex),
        triggers="[" + ", ".join(js_string(t) for t in rule.triggers) + "]",
    )


def _limits(cat: Catalogue) -> list[TsLimit]:
    lim = cat.limits
    names = (
        "max_exec_timeout_s",
        "default_exec_timeout_s",
        "default_run_code_timeout_s",
        "error_body_max_bytes",
        "text_max_chars",
        "json_max_depth",
        "context_max_keys",
    )
    return [TsLimit(ts_identifier(n), getattr(lim, n)) for n in names]


def known_type(cat: Catalogue) -> str:
    """The name of the union of every generated class (``KnownAgentRunError``)."""
    return known_type_name(cat.base_class)


def reserved_names(cat: Catalogue, schema: dict[str, Any]) -> dict[str, str]:
    """Every name the package exports beside the generated classes, with what it is.

    A generated class of one of these names would shadow it, or clash with it
    in ``index.ts`` (which re-exports ``errors.ts`` and ``envelope.ts`` whole)
    and fail to build: the base class, the runtime's own exports
    (:data:`errcat.naming.TS_RUNTIME_EXPORTS`), :data:`CLASS_MAP_TYPE`, :func:`known_type`, and
    the envelope's types, including one context type per code that has
    context fields (``RateLimitedContext``).
    """
    names = dict.fromkeys(TS_RUNTIME_EXPORTS, "an export of the hand-written runtime")
    for name in envelope_type_names(schema):
        names[name] = "a type of the envelope (generated/envelope.ts)"
    names[CLASS_MAP_TYPE] = "the code-to-class interface (generated/errors.ts)"
    names[known_type(cat)] = "the union of every class (generated/errors.ts)"
    names[TS_RUNTIME_BASE] = "the runtime's base class"
    names[cat.base_class] = "the base class"
    return names


def check_class_names(cat: Catalogue, schema: dict[str, Any]) -> None:
    """Raise :class:`NameCollisionError` when a generated class has a reserved name.

    The catalogue validator checks class names against :mod:`errcat.naming`;
    this is the renderer's own guard, for the names that only it knows (those
    derived from this catalogue, such as ``Known<base class>`` and the
    per-code context types).
    """
    reserved = reserved_names(cat, schema)
    clashes = [
        f"code {c.code!r}: class {c.ts_class!r} is {reserved[c.ts_class]}"
        for c in cat.codes
        if c.ts_class in reserved
    ]
    if clashes:
        raise NameCollisionError(
            "TypeScript class names collide with other exports of the package: "
            + "; ".join(clashes)
            + " (rename the class with class_name in the catalogue)"
        )


def render(cat: Catalogue) -> dict[str, str]:
    """Render the four files of ``ts-sdk/src/generated/``.

    Raises:
        NameCollisionError: a generated class would have a reserved name.
        SchemaConversionError: the envelope schema uses an unsupported construct.
    """
    schema = envelope_schema(cat)
    check_class_names(cat, schema)
    codes = [_ts_code(c) for c in cat.codes]
    san = cat.sanitizer
    fallback = [(status, js_string(code)) for status, code in cat.fallback.by_status]
    return {
        f"{OUT}/envelope.ts": render_template(
            "typescript/envelope.ts.jinja", cat, declarations=schema_to_ts(schema)
        ),
        f"{OUT}/catalogue.ts": render_template(
            "typescript/catalogue.ts.jinja",
            cat,
            package=js_string(cat.ts_package),
            base_class=js_string(cat.base_class),
            limits=_limits(cat),
            codes=codes,
            fallback=fallback,
            client_error=js_string(cat.fallback.client_error),
            server_error=js_string(cat.fallback.server_error),
            default=js_string(cat.fallback.default),
            context_fields=[js_string(f.name) for f in cat.context_fields],
            unknown=TsUnknown(
                retryable=_bool(cat.unknown.retryable),
                action=js_string(cat.unknown.recovery.action),
                same_arguments=js_string(cat.unknown.recovery.same_arguments),
                guidance=js_string(cat.unknown.recovery.guidance),
                side_effects=js_string(cat.unknown.side_effects),
            ),
        ),
        f"{OUT}/sanitizer-rules.ts": render_template(
            "typescript/sanitizer-rules.ts.jinja",
            cat,
            redaction=js_string(san.redaction),
            filtered=js_string(san.filtered),
            truncation_marker=js_string(san.truncation_marker),
            remove=char_class(san.remove),
            remove_names=[doc_text(r.name) for r in san.remove],
            to_space=char_class(san.to_space),
            to_space_names=[doc_text(r.name) for r in san.to_space],
            secrets=[_rule(r) for r in san.secrets],
            injection=[_rule(r) for r in san.injection],
        ),
        f"{OUT}/errors.ts": render_template(
            "typescript/errors.ts.jinja",
            cat,
            runtime_base=TS_RUNTIME_BASE,
            base_import=(
                TS_RUNTIME_BASE
                if cat.base_class == TS_RUNTIME_BASE
                else f"{TS_RUNTIME_BASE} as {cat.base_class}"
            ),
            base_alias=cat.base_class != TS_RUNTIME_BASE,
            codes=codes,
            class_map_type=CLASS_MAP_TYPE,
            known_type=known_type(cat),
            known_union="".join(f"\n  | {c.ts_class}" for c in cat.codes),
        ),
    }
