"""Render ``docs/errors.md``, the human catalogue.

Every table row and example is prepared here (escaped, ordered, joined, a
frozen dataclass per kind of row) so the template only lays them out.
Catalogue text is escaped for where it lands by :mod:`errcat.render.markdown`.
The envelope example is the catalogue's own: its code with the most context
fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from errcat.model.catalogue import Catalogue, ContextField, ErrorCode
from errcat.names.languages import LANGUAGES
from errcat.render import anchors, render_template
from errcat.render.markdown import cell, code_list, fence, inline, wrap
from errcat.render.schema import CONSUMER_PATH, STRICT_PATH, dumps

PATH = "docs/errors.md"

SECTIONS = {"limits": "Limits", "retired": "Retired codes", "conditions": "Condition reasons"}
"""Headings of sections other pages link to (llms.txt), by role."""


def value_range(field: ContextField) -> str:
    """A field's bounds in words (``0 to 255``, ``at least 0``), or an em dash when it has none."""
    low, high = field.minimum, field.maximum
    if low is not None and high is not None:
        return f"{low} to {high}"
    if low is not None:
        return f"at least {low}"
    return f"at most {high}" if high is not None else "—"


@dataclass(frozen=True)
class CodeRow:
    """One code, with every cell of every table it appears in, ready to print."""

    code: str
    message: str
    cause: str
    remediation: str
    http: int
    grpc: str
    context: str
    retryable: str
    action: str
    same_arguments: str
    side_effects: str
    origin: str
    guidance: str
    class_cells: tuple[str, ...]
    """The code's class in each language of ``LANGUAGES``, in order."""
    classes: str
    fallback_statuses: str
    emitted_by: str
    example: str
    anchor: str


def example_envelope(entry: ErrorCode) -> dict[str, Any]:
    """A valid example envelope of ``entry``, built from the catalogue's examples."""
    error: dict[str, Any] = {
        "code": entry.code,
        "message": entry.message,
        "cause": entry.cause,
        "remediation": entry.remediation,
    }
    if entry.context:
        error["context"] = {f.name: f.example_value for f in entry.context}
    return {"error": error}


def class_names(entry: ErrorCode, mark: str = "`") -> str:
    """What a user of each SDK writes for the code (its class, or its ``Code`` constant or
    variant): one name when all languages agree."""
    names = [f"{mark}{lang.written_name(entry.class_names[lang.key])}{mark}" for lang in LANGUAGES]
    if len(set(names)) == 1:
        return names[0]
    return ", ".join(f"{name} in {lang.label}" for name, lang in zip(names, LANGUAGES, strict=True))


def code_naming() -> str:
    """How the SDKs name a code, for a sentence: by the class they raise, or by the name a
    user matches on (:attr:`~errcat.names.languages.Language.code_identifier`)."""

    def joined(labels: list[str]) -> str:
        return f"{', '.join(labels[:-1])} and {labels[-1]}" if len(labels) > 1 else labels[0]

    by_class = [lang.label for lang in LANGUAGES if lang.code_identifier is None]
    by_name = [lang.label for lang in LANGUAGES if lang.code_identifier is not None]
    parts = [f"{joined(by_class)} raise one class per code"] if by_class else []
    if by_name:
        parts.append(f"{joined(by_name)} give each code one name to match it on")
    return ", and ".join(parts)


def envelope_example_code(cat: Catalogue) -> ErrorCode:
    """The code the envelope section shows: a server code with the most context fields."""
    candidates = cat.server_codes or cat.codes
    # max keeps the first of equal keys: the earliest code among those with the most
    # fields, in one pass (no index lookups, which made this quadratic in the codes).
    return max(candidates, key=lambda c: len(c.context))


def _row(entry: ErrorCode) -> CodeRow:
    return CodeRow(
        code=entry.code,
        message=cell(entry.message),
        cause=cell(entry.cause),
        remediation=cell(entry.remediation),
        http=entry.http,
        grpc=entry.grpc,
        context=code_list([f.name for f in entry.context]),
        retryable="yes" if entry.retryable else "no",
        action=entry.recovery.action,
        same_arguments=entry.recovery.same_arguments,
        side_effects=entry.side_effects,
        origin=entry.origin,
        guidance=cell(entry.recovery.guidance),
        class_cells=tuple(lang.written_name(entry.class_names[lang.key]) for lang in LANGUAGES),
        classes=class_names(entry),
        fallback_statuses=", ".join(entry.fallback_statuses) or "—",
        emitted_by=entry.emitted_by,
        example=fence(dumps(example_envelope(entry)).rstrip("\n"), "json"),
        anchor=entry.code.replace("_", "-"),
    )


@dataclass(frozen=True)
class Anchors:
    """Where links into the page land: each code's heading and the linked sections."""

    codes: dict[str, str]
    """Code -> the anchor of its own heading (under Examples)."""
    sections: dict[str, str]
    """Role of :data:`SECTIONS` -> the anchor of its heading, for the sections the page has."""


def page_anchors(cat: Catalogue) -> Anchors:
    """The anchors of the rendered page, numbered as GitHub numbers repeated headings."""
    found = anchors.headings(render(cat)[PATH])
    codes = {h.text: h.anchor for h in found if h.level == 3}
    # The linked sections follow the family sections, whose titles are free text.
    by_text = {h.text: h.anchor for h in found if h.level == 2}
    return Anchors(
        codes={c.code: codes[c.code] for c in cat.codes},
        sections={role: by_text[text] for role, text in SECTIONS.items() if text in by_text},
    )


@dataclass(frozen=True)
class GrpcRow:
    """One row of the gRPC map: a status, the code it gets, and what each channel answers."""

    status: str
    code: str
    channels: str


@dataclass(frozen=True)
class FieldRow:
    """One context field: its type, range, meaning and the codes that carry it."""

    name: str
    type: str
    range: str
    meaning: str
    codes: str


@dataclass(frozen=True)
class SurfaceRow:
    """One surface override of a code's message and remediation."""

    code: str
    surface: str
    message: str
    remediation: str


@dataclass(frozen=True)
class StatusRow:
    """One row of the fallback map: a status (or class of them) and its code."""

    status: str
    code: str


@dataclass(frozen=True)
class RetiredRow:
    """One retired code, why, and what replaces it."""

    code: str
    reason: str
    replaced_by: str


@dataclass(frozen=True)
class ConditionRow:
    """One condition reason: the codes it explains, where it shows, what to read."""

    name: str
    codes: str
    where: str
    read: str


@dataclass(frozen=True)
class FamilySection:
    """One family's section: its title, summary and its codes' rows."""

    title: str
    summary: str
    rows: list[CodeRow]


def grpc_rows(cat: Catalogue) -> list[GrpcRow]:
    """The gRPC gateway map: each status it or a channel lists, then every other status."""
    gateway = cat.grpc_gateway
    listed = {s for s, _ in gateway.by_status} | {
        o.status for c in gateway.channels for o in c.overrides
    }
    rows = []
    for status in (s.name for s in gateway.statuses if s.name in listed):
        own = [
            f"`{o.code}` on {c.name}: {cell(o.meaning)}"
            for c in gateway.channels
            for o in c.overrides
            if o.status == status
        ]
        rows.append(GrpcRow(status, gateway.code_for(status), "; ".join(own) or "—"))
    return [*rows, GrpcRow("any other", gateway.default, "—")]


def _field_rows(cat: Catalogue) -> list[FieldRow]:
    """The context-field table: each field's type, range, meaning and the codes that carry it."""
    return [
        FieldRow(
            name=f.name,
            type=f.type,
            range=value_range(f),
            meaning=cell(f.meaning),
            codes=code_list([c.code for c in cat.codes if f in c.context]),
        )
        for f in cat.context_fields
    ]


def _surface_rows(cat: Catalogue) -> list[SurfaceRow]:
    """Each surface override, with the code's own text where the surface keeps it."""
    return [
        SurfaceRow(
            code=c.code,
            surface=s.surface.replace("_", " "),
            message=cell(s.message or c.message),
            remediation=cell(s.remediation or c.remediation),
        )
        for c in cat.codes
        for s in c.surfaces
    ]


def _status_rows(cat: Catalogue) -> list[StatusRow]:
    """The fallback map: each listed status, then the classes and the default."""
    return [
        *(StatusRow(status=str(status), code=code) for status, code in cat.fallback.by_status),
        StatusRow(status="other 4xx", code=cat.fallback.client_error),
        StatusRow(status="other 5xx", code=cat.fallback.server_error),
        StatusRow(status="anything else", code=cat.fallback.default),
    ]


def _retired_rows(cat: Catalogue) -> list[RetiredRow]:
    """The retired codes, with what replaces each."""
    return [
        RetiredRow(
            code=r.code,
            reason=cell(r.reason),
            replaced_by=code_list([r.replaced_by] if r.replaced_by else []),
        )
        for r in cat.retired
    ]


def _condition_rows(cat: Catalogue) -> list[ConditionRow]:
    """The condition reasons, with the codes each explains."""
    return [
        ConditionRow(
            name=r.name,
            codes=code_list(list(r.codes)),
            where=cell(r.where),
            read=cell(r.read),
        )
        for r in cat.conditions
    ]


def render(cat: Catalogue) -> dict[str, str]:
    """Render ``docs/errors.md``."""
    rows = {c.code: _row(c) for c in cat.codes}
    families = [
        FamilySection(inline(f.title), inline(f.summary), [rows[c] for c in f.codes])
        for f in cat.families
    ]
    text = render_template(
        "docs/errors.md.jinja",
        cat,
        server_rows=[rows[c.code] for c in cat.server_codes],
        sdk_rows=[rows[c.code] for c in cat.sdk_codes],
        all_rows=list(rows.values()),
        code_naming=code_naming(),
        sdk_columns=[
            f"{lang.label} (`{cat.packages[lang.key][lang.import_field]}`)" for lang in LANGUAGES
        ],
        fields=_field_rows(cat),
        families=families,
        surfaces=_surface_rows(cat),
        status_map=_status_rows(cat),
        retired=_retired_rows(cat),
        consumer_schema=f"../{CONSUMER_PATH}",
        strict_schema=f"../{STRICT_PATH}",
        conditions=_condition_rows(cat),
        grpc=grpc_rows(cat),
        api_name=inline(cat.api_name),
        summary=inline(cat.api_summary),
        unknown_guidance=inline(cat.unknown.recovery.guidance),
        sections=SECTIONS,
        wrap=wrap,
        envelope=fence(dumps(example_envelope(envelope_example_code(cat))).rstrip("\n"), "json"),
    )
    return {PATH: text}
