"""Render the JSON Schema (draft 2020-12) of the error envelope.

The schema lists every code, and for each code the context fields it carries
with their JSON types. Members it does not name are allowed everywhere, so a
reader built against this version accepts what a newer server adds.
"""

from __future__ import annotations

import json
from typing import Any

from errcat.model import Catalogue, ErrorCode
from errcat.naming import context_type_name
from errcat.render import header_lines
from errcat.validate import meta_enum

PATH = "schemas/error-envelope.schema.json"


def context_def_name(entry: ErrorCode) -> str:
    """The ``$defs`` name of a code's context object (``RateLimitedContext``)."""
    return context_type_name(entry.python_class)


def _context_def(entry: ErrorCode) -> dict[str, Any]:
    return {
        "type": "object",
        "description": f"Context of {entry.code}.",
        "properties": {
            f.name: {"$ref": f"#/$defs/Context/properties/{f.name}"} for f in entry.context
        },
        "additionalProperties": True,
    }


def envelope_schema(cat: Catalogue) -> dict[str, Any]:
    """Build the envelope schema of ``cat`` as a JSON-ready dict.

    The first member is a ``$comment`` naming the catalogue and the command
    that regenerates the file, since JSON has no comments.
    """
    comment = " ".join(header_lines(cat))
    codes = [c.code for c in cat.codes]
    per_code = [
        {
            "if": {"properties": {"code": {"const": c.code}}, "required": ["code"]},
            "then": {"properties": {"context": {"$ref": f"#/$defs/{context_def_name(c)}"}}},
        }
        for c in cat.codes
        if c.context
    ]
    defs: dict[str, Any] = {
        "Code": {
            "description": "Every code in the catalogue, server-emitted and SDK-local.",
            "enum": codes,
        },
        "ErrorObject": {
            "type": "object",
            "description": "The error itself.",
            "required": ["code", "message", "remediation"],
            "properties": {
                "code": {"$ref": "#/$defs/Code"},
                "message": {"type": "string", "minLength": 1, "description": "One-line summary."},
                "cause": {"type": "string", "description": "Call-site detail; never a secret."},
                "remediation": {
                    "type": "string",
                    "minLength": 1,
                    "description": "The next action that fixes or works around the error.",
                },
                "context": {"$ref": "#/$defs/Context"},
                "request_id": {"type": "string", "description": "The request id, when known."},
                "recovery": {"$ref": "#/$defs/Recovery"},
                "side_effects": {"enum": list(meta_enum("side_effects"))},
                "origin": {"$ref": "#/$defs/Origin"},
            },
            "additionalProperties": True,
            # JSON Schema wants allOf non-empty: a catalogue without context has none.
            **({"allOf": per_code} if per_code else {}),
        },
        "Origin": {
            "description": "Where the failure arose; a reader takes it from the code's catalogue entry.",
            "enum": list(meta_enum("origin")),
        },
        "Context": {
            "type": "object",
            "description": "Structured fields; ids, paths and operation names only, never secrets.",
            "properties": {
                f.name: {"type": f.type, "description": f.meaning} for f in cat.context_fields
            },
            "additionalProperties": True,
        },
        "Recovery": {
            "type": "object",
            "description": "What to do next, and whether to resend the same request.",
            "required": ["action", "same_arguments"],
            "properties": {
                "action": {"enum": list(meta_enum("recovery_action"))},
                "same_arguments": {"enum": list(meta_enum("same_arguments"))},
                "guidance": {"type": "string"},
                "retry_after_ms": {"type": "integer", "minimum": 0},
            },
            "additionalProperties": True,
        },
    }
    for c in cat.codes:
        if c.context:
            defs[context_def_name(c)] = _context_def(c)
    return {
        "$comment": comment,
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{cat.api_name} error envelope",
        "description": (
            f"The error envelope of {cat.api_name}, contract version {cat.contract_version}. "
            "Members not named here may be added and must be ignored by readers."
        ),
        "type": "object",
        "required": ["error"],
        "properties": {"error": {"$ref": "#/$defs/ErrorObject"}},
        "additionalProperties": True,
        "$defs": defs,
    }


def dumps(value: Any) -> str:
    """Serialize JSON the one way every generated JSON file uses."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def render(cat: Catalogue) -> dict[str, str]:
    """Render ``schemas/error-envelope.schema.json``."""
    return {PATH: dumps(envelope_schema(cat))}
