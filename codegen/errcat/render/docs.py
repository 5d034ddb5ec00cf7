"""Render ``docs/errors.md``, the human catalogue.

Every table row and example is prepared here (escaped, ordered, joined) so
the template only lays them out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from errcat.model import Catalogue, ErrorCode
from errcat.render import render_template
from errcat.render.schema import PATH as SCHEMA_PATH
from errcat.render.schema import dumps

PATH = "docs/errors.md"


def cell(text: str) -> str:
    """Make ``text`` safe inside a Markdown table cell."""
    return " ".join(text.split()).replace("\\", "\\\\").replace("|", "\\|")


def code_list(names: tuple[str, ...] | list[str]) -> str:
    """Format names as comma-separated inline code, or an em dash when empty."""
    return ", ".join(f"`{n}`" for n in names) if names else "—"


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
    guidance: str
    python_class: str
    ts_class: str
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
        guidance=cell(entry.recovery.guidance),
        python_class=entry.python_class,
        ts_class=entry.ts_class,
        fallback_statuses=", ".join(entry.fallback_statuses) or "—",
        emitted_by=entry.emitted_by,
        example=dumps(example_envelope(entry)).rstrip("\n"),
        anchor=entry.code.replace("_", "-"),
    )


def render(cat: Catalogue) -> dict[str, str]:
    """Render ``docs/errors.md``."""
    rows = {c.code: _row(c) for c in cat.codes}
    fields = [
        {
            "name": f.name,
            "type": f.type,
            "meaning": cell(f.meaning),
            "codes": code_list([c.code for c in cat.codes if f in c.context]),
        }
        for f in cat.context_fields
    ]
    families = [
        {
            "title": f.title,
            "summary": " ".join(f.summary.split()),
            "rows": [rows[c] for c in f.codes],
        }
        for f in cat.families
    ]
    surfaces = [
        {
            "code": c.code,
            "surface": s.surface.replace("_", " "),
            "message": cell(s.message or c.message),
            "remediation": cell(s.remediation or c.remediation),
        }
        for c in cat.codes
        for s in c.surfaces
    ]
    status_map = [{"status": str(status), "code": code} for status, code in cat.fallback.by_status]
    status_map += [
        {"status": "other 4xx", "code": cat.fallback.client_error},
        {"status": "other 5xx", "code": cat.fallback.server_error},
        {"status": "anything else", "code": cat.fallback.default},
    ]
    retired = [
        {
            "code": r.code,
            "reason": cell(r.reason),
            "replaced_by": code_list([r.replaced_by] if r.replaced_by else []),
        }
        for r in cat.retired
    ]
    text = render_template(
        "docs/errors.md.jinja",
        cat,
        server_rows=[rows[c.code] for c in cat.server_codes],
        sdk_rows=[rows[c.code] for c in cat.sdk_codes],
        all_rows=list(rows.values()),
        fields=fields,
        families=families,
        surfaces=surfaces,
        status_map=status_map,
        retired=retired,
        schema_path=f"../{SCHEMA_PATH}",
        summary=" ".join(cat.api_summary.split()),
        unknown_guidance=" ".join(cat.unknown.recovery.guidance.split()),
    )
    return {PATH: text}
