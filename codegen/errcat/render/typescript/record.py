"""The TypeScript SDK's records, rendered from errcat's one definition of them.

``generated/record.ts`` declares ``CodeTexts``, ``CodeSpec``, ``Limits`` and
``SideEffects`` (types only, erased at build) with the fields of
:data:`errcat.model.record.CODE_SPEC` and :class:`errcat.model.record.Limits`;
each code's spec and texts in ``catalogue.ts``, the catch-all spec and
``LIMITS`` follow the same lists.
"""

from __future__ import annotations

from dataclasses import dataclass

from errcat.metaschema import meta_enum
from errcat.model.catalogue import Catalogue, ErrorCode
from errcat.model.record import (
    ADVICE,
    BOOL,
    CODE_SPEC,
    EMITTED_BY,
    INT,
    NAMES,
    ORIGIN,
    SIDE_EFFECTS,
    TEXT,
    Field,
    Value,
)
from errcat.names.languages import TYPESCRIPT
from errcat.render.typescript.syntax import (
    doc_text,
    json_literal,
    literal,
    property_key,
    string_literal,
    ts_identifier,
)

PURE = "/* @__PURE__ */ "

TYPES: dict[str, str] = {
    TEXT: "string",
    INT: "number",
    BOOL: "boolean",
    NAMES: "readonly string[]",
    ADVICE: "Readonly<Recovery>",
    SIDE_EFFECTS: "SideEffects",
    ORIGIN: "Origin",
    EMITTED_BY: '"server" | "sdk"',
}
"""How ``record.ts`` declares a field of each kind of :data:`errcat.model.record.KINDS`."""


@dataclass(frozen=True)
class TsField:
    """One field of a record interface: its name, TypeScript type and documentation."""

    name: str
    type: str
    doc: str


@dataclass(frozen=True)
class TsRecordView:
    """What ``record.ts`` shows."""

    texts: tuple[TsField, ...]
    spec: tuple[TsField, ...]
    limits: tuple[TsField, ...]
    side_effects: str


def _doc(text: str) -> str:
    """Definition prose (reStructuredText ``literals``) as doc-comment text (Markdown `code`)."""
    return doc_text(text.replace("``", "`"))


def ts_value(value: Value | None) -> str:
    """A field's value as TypeScript source, frozen when it is an array or a nested record."""
    if value is None:
        return "undefined"
    if isinstance(value, tuple):
        return f"{PURE}Object.freeze([{', '.join(string_literal(v) for v in value)}])"
    if isinstance(value, dict):
        members = "".join(f"    {k}: {string_literal(v)},\n" for k, v in value.items())
        return f"{PURE}Object.freeze({{\n{members}  }})"
    return literal(value)


def _field(f: Field, cat: Catalogue) -> TsField:
    """The interface member of ``f``; optional (``| undefined``) when the catch-all has no value."""
    absent = f.catch_all(cat.unknown, cat.base_class) is None
    note = " None on the base class's spec (the catch-all)." if absent else ""
    return TsField(
        ts_identifier(f.name),
        TYPES[f.kind] + (" | undefined" if absent else ""),
        _doc(f.doc + note),
    )


def record_view(cat: Catalogue) -> TsRecordView:
    """The view of ``record.ts``: the record interfaces of the definition."""
    return TsRecordView(
        texts=tuple(_field(f, cat) for f in CODE_SPEC if f.text),
        spec=tuple(_field(f, cat) for f in CODE_SPEC if not f.text),
        limits=tuple(
            TsField(ts_identifier(key), "number", _doc(doc)) for key, _, doc in cat.limits.items()
        ),
        side_effects=" | ".join(string_literal(v) for v in meta_enum("side_effects")),
    )


def text_fields() -> tuple[str, ...]:
    """The names of the text fields, in order: the parameters of ``catalogueTexts``."""
    return tuple(ts_identifier(f.name) for f in CODE_SPEC if f.text)


def nested_fields() -> tuple[str, ...]:
    """The names of the spec fields whose values are arrays or objects (frozen one by one)."""
    return tuple(
        ts_identifier(f.name) for f in CODE_SPEC if not f.text and f.kind in (NAMES, ADVICE)
    )


def text_members(code: ErrorCode) -> tuple[tuple[str, str], ...]:
    """A code's texts: each text field and its literal (``catalogueTexts``'s arguments)."""
    return tuple(
        (ts_identifier(f.name), ts_value(f.read(code, TYPESCRIPT.key))) for f in CODE_SPEC if f.text
    )


def _json_value(value: Value | None) -> object:
    """A field's value as JSON data (a list for a tuple); a code has every field."""
    if value is None:
        raise ValueError("a code's spec field has no value")
    return list(value) if isinstance(value, tuple) else value


def ts_literal_type(value: Value) -> str:
    """A field's value as a TypeScript literal type (a tuple type for a tuple)."""
    if isinstance(value, tuple):
        return f"[{', '.join(string_literal(v) for v in value)}]"
    if isinstance(value, dict):
        return (
            "{ "
            + "; ".join(f"{property_key(k)}: {string_literal(v)}" for k, v in value.items())
            + " }"
        )
    return literal(value)


def spec_types(code: ErrorCode) -> tuple[tuple[str, str], ...]:
    """The fields :func:`spec_json` writes, each with its value as a literal type."""
    return tuple(
        (ts_identifier(f.name), ts_literal_type(f.read(code, TYPESCRIPT.key)))
        for f in CODE_SPEC
        if not f.text and f.name != "class_name"
    )


def spec_json(code: ErrorCode) -> str:
    """The fields a code's spec adds to its texts and class name, as one JSON text in a string literal."""
    return json_literal(
        {
            ts_identifier(f.name): _json_value(f.read(code, TYPESCRIPT.key))
            for f in CODE_SPEC
            if not f.text and f.name != "class_name"
        }
    )


def catch_all_members(cat: Catalogue) -> tuple[tuple[str, str], ...]:
    """The members of the base class's spec: the catch-all value of every field."""
    return tuple(
        (ts_identifier(f.name), ts_value(f.catch_all(cat.unknown, cat.base_class)))
        for f in CODE_SPEC
    )
