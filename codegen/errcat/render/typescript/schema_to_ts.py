"""Convert the envelope's JSON Schema to TypeScript declarations.

A converter for the subset of JSON Schema that
:func:`errcat.render.schema.envelope_schema` writes, so the TypeScript
types of the envelope follow its schema. Anything outside the subset raises
:class:`SchemaConversionError`: the types never quietly say less than the
schema.

Why not a library: the well-kept one, npm's ``json-schema-to-typescript``,
would make every ``errcat generate`` run Node and an npm package the Python
generator cannot ship, and it drops the ``allOf``/``if``/``then`` branches
that type each code's ``context`` (bcherny/json-schema-to-typescript#426),
which are the point of these types; no maintained Python converter reads
them either. The subset here is small, closed and tested by compiling its
output with ``tsc``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from errcat.render.typescript.syntax import doc_text, identifier, literal, property_key

# Keywords that constrain values beyond what a TypeScript type can say. They
# are kept in the JSDoc of the property so the reader still sees them.
VALIDATION_ONLY = ("minLength", "maxLength", "minimum", "maximum", "pattern", "format")
# Keywords that carry no type information at all.
ANNOTATIONS = ("description", "title", "$comment", "$schema", "$id", "examples", "default")
TS_TYPES = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean"}
"""The TypeScript type of each JSON scalar type (the contract tests read it too)."""


class SchemaConversionError(ValueError):
    """The schema uses a keyword or shape this converter does not support."""


@dataclass(frozen=True)
class TsDeclaration:
    """One exported type alias, with its JSDoc lines."""

    doc: tuple[str, ...]
    text: str
    """``export type Name = ...;``, already indented."""


def _literal(value: Any) -> str:
    try:
        return literal(value)
    except ValueError as exc:
        raise SchemaConversionError(str(exc)) from None


class _Converter:
    """The supported subset.

    ``type`` (one of string, integer, number, boolean, null, object, array),
    ``enum``, ``const``, ``properties``/``required``,
    ``additionalProperties`` (true, false or a schema), ``items``, ``$ref``
    (a ``$defs`` entry becomes a named type, any other local JSON pointer is
    inlined), ``anyOf`` (a union), and in ``allOf`` the discriminator
    pattern ``{"if": {"properties": {K: {"const": V}}, "required": [K]},
    "then": S}`` (a discriminated union on ``K``; no branch, no union).
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
            return self.reference(schema, indent)
        if "const" in schema:
            self.check_keywords(schema, {"const"})
            return _literal(schema["const"])
        if "enum" in schema:
            self.check_keywords(schema, {"enum", "type"})
            return " | ".join(_literal(v) for v in schema["enum"])
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
        if kind in TS_TYPES or kind == "null":
            self.check_keywords(schema, {"type"})
            return TS_TYPES.get(kind, "null")
        raise SchemaConversionError(f"unsupported schema {schema!r}")

    def reference(self, schema: dict[str, Any], indent: str) -> str:
        """A ``$defs`` entry by its name; any other local pointer inlined."""
        self.check_keywords(schema, {"$ref"})
        ref: str = schema["$ref"]
        prefix = "#/$defs/"
        if ref.startswith(prefix) and "/" not in ref[len(prefix) :]:
            name = ref[len(prefix) :]
            if name not in self.defs:
                raise SchemaConversionError(f"$ref {ref!r} points at nothing")
            return identifier(name)
        return self.type_of(self.resolve(ref), indent)

    def object_type(self, schema: dict[str, Any], indent: str) -> str:
        """An object literal type, intersected with its ``allOf`` discriminated union."""
        self.check_keywords(
            schema, {"type", "properties", "required", "additionalProperties", "allOf"}
        )
        body = self.members(schema, indent, index_signature=True)
        if not schema.get("allOf"):
            return body  # an empty allOf constrains nothing
        return f"{body} & ({self.discriminated(schema, indent)})"

    def members(self, schema: dict[str, Any], indent: str, *, index_signature: bool) -> str:
        """The ``{ ... }`` of ``properties``; an index signature unless members are closed."""
        inner = indent + "  "
        required = set(schema.get("required", ()))
        lines = ["{"]
        for name, prop in schema.get("properties", {}).items():
            lines += [inner + line for line in self.property_doc(prop)]
            optional = "" if name in required else "?"
            lines.append(f"{inner}{property_key(name)}{optional}: {self.type_of(prop, inner)};")
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
        parts += [
            f"@{key} {doc_text(json.dumps(prop[key]))}" for key in VALIDATION_ONLY if key in prop
        ]
        return [f"/** {' '.join(parts)} */"] if parts else []

    def branch(self, branch: Any, key: str | None) -> tuple[str, Any, dict[str, Any]]:
        """The discriminator name, value and ``then`` of one ``allOf`` branch."""
        if not isinstance(branch, dict) or set(branch) != {"if", "then"}:
            raise SchemaConversionError(f"allOf supports only if/then branches, not {branch!r}")
        cond = branch["if"]
        props = cond.get("properties", {}) if isinstance(cond, dict) else {}
        if (
            set(cond) != {"properties", "required"}
            or len(props) != 1
            or list(props) != cond["required"]
        ):
            raise SchemaConversionError(f"unsupported if {cond!r}: want one required const member")
        ((name, test),) = props.items()
        if not isinstance(test, dict) or set(test) != {"const"} or key not in (None, name):
            raise SchemaConversionError(f"unsupported if {cond!r}: want one const discriminator")
        then = branch["then"]
        if not isinstance(then, dict):
            raise SchemaConversionError(f"unsupported then {then!r}")
        self.check_keywords(then, {"properties", "required"})
        return name, test["const"], then

    def discriminated(self, schema: dict[str, Any], indent: str) -> str:
        """The union that a non-empty ``allOf: [{if: {K: const V}, then: S}, ...]`` means.

        One variant per branch (``K`` is ``V`` and ``S`` holds), and one for
        every other value of ``K``, where no branch applies.
        """
        key: str | None = None
        variants: list[str] = []
        values: list[str] = []
        for item in schema["allOf"]:
            key, value, then = self.branch(item, key)
            values.append(_literal(value))
            members = self.members(then, indent + "  ", index_signature=False)
            variants.append(f"({{ {property_key(key)}: {values[-1]} }} & {members})")
        assert key is not None  # allOf is not empty
        base = schema.get("properties", {}).get(key, True)
        optional = "" if key in schema.get("required", ()) else "?"
        others = f"Exclude<{self.type_of(base, indent)}, {' | '.join(values)}>"
        variants.append(f"{{ {property_key(key)}{optional}: {others} }}")
        sep = "\n" + indent + "  | "
        return sep + sep.join(variants) + "\n" + indent


def schema_to_ts(schema: dict[str, Any], root: str) -> list[TsDeclaration]:
    """Convert ``schema`` to exported TypeScript type aliases.

    Every ``$defs`` entry becomes an exported type of the same name, and the
    schema's root the type ``root``, in the schema's order.

    Raises:
        SchemaConversionError: the schema uses something outside the subset.
    """
    conv = _Converter(schema)
    out = []
    items = [(root, {k: v for k, v in schema.items() if k != "$defs"})]
    items += list(conv.defs.items())
    for name, node in items:
        doc = [doc_text(node["description"])] if "description" in node else []
        if name == root and "title" in node:
            doc.insert(0, doc_text(node["title"]) + ".")
        text = f"export type {identifier(name)} = {conv.type_of(node, '')};"
        out.append(TsDeclaration(doc=tuple(doc), text=text))
    return out
