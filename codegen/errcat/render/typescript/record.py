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
from errcat.render.typescript.syntax import doc_text, literal, string_literal, ts_identifier

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


def text_members(code: ErrorCode) -> tuple[tuple[str, str], ...]:
    """The members of a code's frozen texts object: each text field and its literal."""
    return tuple(
        (ts_identifier(f.name), ts_value(f.read(code, TYPESCRIPT.key))) for f in CODE_SPEC if f.text
    )


def spec_members(code: ErrorCode) -> tuple[tuple[str, str], ...]:
    """The members a code's spec adds to its texts: every other field and its value."""
    return tuple(
        (ts_identifier(f.name), ts_value(f.read(code, TYPESCRIPT.key)))
        for f in CODE_SPEC
        if not f.text
    )


def catch_all_members(cat: Catalogue) -> tuple[tuple[str, str], ...]:
    """The members of the base class's spec: the catch-all value of every field."""
    return tuple(
        (ts_identifier(f.name), ts_value(f.catch_all(cat.unknown, cat.base_class)))
        for f in CODE_SPEC
    )
