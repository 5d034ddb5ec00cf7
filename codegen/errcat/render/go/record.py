"""The Go package's ``Spec`` and ``Recovery``, rendered from errcat's one definition of them.

``record.go`` declares ``Recovery`` with the fields of
:data:`errcat.model.record.RECOVERY` and ``Spec`` with those of
:data:`errcat.model.record.CODE_SPEC`, and every code's spec in
``catalogue.go`` is written from the same list, so a field the record gains
reaches Go with no edit here. What is Go's own lives in this module: how Go
spells each kind of value (:data:`TYPES`, :data:`LITERALS`), the one
naming table of the fields whose Go name is not the derived one
(:data:`GO_NAMES`), the fields only the Go package has (:data:`GO_ONLY`)
and the order the package has always declared its fields in (:data:`ORDER`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources

from errcat.model.catalogue import ErrorCode
from errcat.model.record import (
    ADVICE,
    BOOL,
    CODE_SPEC,
    EMITTED_BY,
    INT,
    NAMES,
    ORIGIN,
    RECOVERY,
    SIDE_EFFECTS,
    TEXT,
    Field,
    Value,
)
from errcat.names.go_names import go_name
from errcat.names.languages import GO
from errcat.render.go.syntax import comment, string, strings

TYPES: dict[str, str] = {
    TEXT: "string",
    INT: "int",
    BOOL: "bool",
    NAMES: "[]string",
    ADVICE: "Recovery",
    SIDE_EFFECTS: "string",
    ORIGIN: "string",
    EMITTED_BY: "bool",
}
"""How ``record.go`` declares a field of each kind of :data:`errcat.model.record.KINDS`; the
``emitted_by`` kind is Go's ``SDKLocal``: whether only an SDK makes the code."""


def recovery(advice: dict[str, str]) -> str:
    """A ``Recovery`` literal of the advice (the model's dict, keyed by :data:`RECOVERY`'s names)."""
    members = ", ".join(f"{go_name(a.name)}: {string(advice[a.name])}" for a in RECOVERY)
    return f"Recovery{{{members}}}"


def _advice(value: Value) -> str:
    assert isinstance(value, dict)
    return recovery(value)


def _text(value: Value) -> str:
    assert isinstance(value, str)
    return string(value)


def _names(value: Value) -> str:
    assert isinstance(value, tuple)
    return strings(value)


LITERALS: dict[str, Callable[[Value], str]] = {
    TEXT: _text,
    INT: str,
    BOOL: lambda v: "true" if v else "false",
    NAMES: _names,
    ADVICE: _advice,
    SIDE_EFFECTS: _text,
    ORIGIN: _text,
    EMITTED_BY: lambda v: "true" if v == "sdk" else "false",
}
"""How a value of each kind is written in Go source (of the type :data:`TYPES` gives the kind)."""


@dataclass(frozen=True)
class GoName:
    """Go's name of one field of the record, where the derived one does not fit."""

    name: str
    doc: str | None = None
    """Go's documentation of the field, where the record's does not fit the Go name or type."""


GO_NAMES: dict[str, GoName] = {
    "class_name": GoName(
        "Name", "The Go name: Code<Name> is the constant, <Name> the constructor of a server code."
    ),
    "context_fields": GoName("Context"),
    "is_auth_failure": GoName("AuthFailure"),
    "is_cancelled": GoName("Cancelled"),
    "emitted_by": GoName("SDKLocal", "Only an SDK makes this code; no server sends it."),
}
"""The naming table: the record's fields whose Go name is not :func:`go_name` of the record's
(``http_status`` gives ``HTTPStatus``), each the name the ``internal/apierr`` API has."""


@dataclass(frozen=True)
class GoOnly:
    """A field only the Go package's ``Spec`` has: what the other SDKs keep elsewhere."""

    name: str
    type: str
    doc: str
    value: Callable[[ErrorCode], str | None]
    """Its value for a code, as Go source; ``None`` leaves it out of the literal (the zero value)."""


def _surfaces(entry: ErrorCode) -> str | None:
    if not entry.surfaces:
        return None
    members = ", ".join(
        f"{string(s.surface)}: {{Message: {string(s.message or '')},"
        f" Remediation: {string(s.remediation or '')}}}"
        for s in entry.surfaces
    )
    return f"map[string]Texts{{{members}}}"


GO_ONLY: tuple[GoOnly, ...] = (
    GoOnly(
        "Refines",
        "[]string",
        "The codes it refines, nearest first (the envelope's refines).",
        lambda c: strings(c.chain),
    ),
    GoOnly(
        "Surfaces",
        "map[string]Texts",
        "The texts a surface uses instead of the code's own, by surface.",
        _surfaces,
    ),
)
"""The fields of ``Spec`` that are not the record's: the refines chain (the other SDKs read it off
their classes) and the per-surface texts (theirs are in the texts tables)."""

ORDER: tuple[str, ...] = (
    "Code",
    "Name",
    "Message",
    "Cause",
    "Remediation",
    "HTTPStatus",
    "GRPCStatus",
    "Retryable",
    "AuthFailure",
    "Cancelled",
    "Recovery",
    "SideEffects",
    "Origin",
    "SDKLocal",
    "Refines",
    "Context",
    "Surfaces",
)
"""The order the package has declared ``Spec``'s fields in since it replaced ``internal/apierr``
(reflection, ``%v`` and ``encoding/json`` show it). A field the record gains later is declared
after these, in the record's order, so no field a user already sees moves."""


@dataclass(frozen=True)
class GoField:
    """One field of a generated Go struct: its name, type and ``//`` documentation."""

    name: str
    type: str
    doc: str


@dataclass(frozen=True)
class SpecField(GoField):
    """One field of ``Spec``, and how a code's value of it is written."""

    value: Callable[[ErrorCode], str | None]
    """Its value for a code, as Go source (``None``: left out of the code's literal)."""


def _doc(text: str) -> str:
    """The field's documentation as ``//`` lines in a struct (reStructuredText literals as text)."""
    return comment(text.replace("``", ""), "\t")


def _record_field(f: Field) -> SpecField:
    named = GO_NAMES.get(f.name, GoName(go_name(f.name)))
    write = LITERALS[f.kind]
    return SpecField(
        named.name,
        TYPES[f.kind],
        _doc(named.doc or f.doc),
        lambda c: write(f.read(c, GO.key)),
    )


@cache
def spec_methods() -> frozenset[str]:
    """The methods the hand-written runtime declares on ``Spec``, which no field may be named."""
    runtime = resources.files("errcat.render.go") / "runtime"
    return frozenset(
        name
        for item in runtime.iterdir()
        if item.name.endswith(".go")
        for name in re.findall(r"^func \(\w+ \*?Spec\) (\w+)\(", item.read_text("utf-8"), re.M)
    )


def spec_fields() -> tuple[SpecField, ...]:
    """The fields of ``Spec``: the record's and :data:`GO_ONLY`, those :data:`ORDER` lists in its
    order, then the rest in the record's (the sort is stable).

    Raises:
        ValueError: two fields, or a field and a method of ``Spec``, share a Go name (the record's
            field then needs its own name in :data:`GO_NAMES`).
    """
    fields = [_record_field(f) for f in CODE_SPEC]
    fields += [SpecField(g.name, g.type, _doc(g.doc), g.value) for g in GO_ONLY]
    seen = set(spec_methods())
    for f in fields:
        if f.name in seen:
            raise ValueError(
                f"Go's Spec would have two members named {f.name}: name the record's field in "
                "GO_NAMES of errcat/render/go/record.py"
            )
        seen.add(f.name)
    late = len(ORDER)
    return tuple(sorted(fields, key=lambda f: ORDER.index(f.name) if f.name in ORDER else late))


def recovery_fields() -> tuple[GoField, ...]:
    """The fields of ``Recovery``, in :data:`RECOVERY`'s order."""
    return tuple(GoField(go_name(a.name), "string", _doc(a.doc)) for a in RECOVERY)


def spec_literal(entry: ErrorCode) -> str:
    """The code's ``Spec`` literal (without the type: an element of ``[]*Spec``)."""
    members = []
    for f in spec_fields():
        value = f.value(entry)
        if value is not None:
            members.append(f"{f.name}: {value}")
    return "{" + ", ".join(members) + "}"
