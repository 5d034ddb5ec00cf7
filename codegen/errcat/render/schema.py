"""Render the JSON Schemas (draft 2020-12) of the error envelope: one for consumers, one strict.

Both describe one envelope: ``error`` with ``code``, ``message`` and
``remediation`` (required), ``cause``, ``context``, ``request_id``,
``recovery``, ``side_effects`` and ``refines`` (the codes the sent code
refines, nearest first), and per code the context fields it carries, with
their JSON types and the catalogue's bounds. Members neither names are
allowed everywhere, so a reader accepts what a newer server adds.

- The consumer schema (:data:`CONSUMER_PATH`) is what a client checks a
  response with: any code passes, since a newer server may send one this
  catalogue lacks (the SDKs raise the base class for it, keeping the code). A
  known code's context is typed; an unknown code's may be any object.
- The strict schema (:data:`STRICT_PATH`) is what a server of this version,
  and the tests, check against: ``code`` and ``refines`` name codes of the
  catalogue only, and every context field is typed whatever the code.

``$defs`` are keyed on language-neutral names: the fixed parts (``Code``,
``ErrorObject``, ``Context``, ``Recovery``) and each code's context by the
code itself (``rate_limited``). Each schema has an ``$id`` under the
catalogue's ``api.url``, versioned by the contract version. The SDK renderers take the
strict schema from :func:`language_schema`, which names each code's context
after that language's class.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from errcat.metaschema import meta_enum, meta_schema
from errcat.model import refines
from errcat.model.catalogue import Catalogue, ContextField, ErrorCode
from errcat.names.naming import context_type_name
from errcat.render import header_lines

CONSUMER_PATH = "schemas/error-envelope.schema.json"
STRICT_PATH = "schemas/error-envelope.strict.schema.json"


def schema_id(cat: Catalogue, path: str) -> str:
    """The ``$id`` of the schema at ``path``: under ``api.url``, versioned by the contract.

    Without ``api.url`` it is the file's name, which resolves against wherever
    the schema is read from.
    """
    name = PurePosixPath(path).name
    if cat.url is None:
        return name
    return f"{cat.url}/schemas/v{cat.contract_version}/{name}"


def code_shape() -> dict[str, Any]:
    """A string shaped as a catalogue code (the meta-schema's rule for code names)."""
    names = meta_schema()["properties"]["codes"]["propertyNames"]
    return {"type": "string", "pattern": names["pattern"], "maxLength": names["maxLength"]}


def field_schema(field: ContextField) -> dict[str, Any]:
    """A context field's value: its JSON type, meaning and bounds."""
    schema: dict[str, Any] = {"type": field.type, "description": field.meaning}
    for key in ("minimum", "maximum"):
        if getattr(field, key) is not None:
            schema[key] = getattr(field, key)
    return schema


def _context_def(entry: ErrorCode) -> dict[str, Any]:
    return {
        "type": "object",
        "description": f"Context of {entry.code}.",
        "properties": {
            f.name: {"$ref": f"#/$defs/Context/properties/{f.name}"} for f in entry.context
        },
        "additionalProperties": True,
    }


def _error_object(cat: Catalogue, strict: bool, def_name: Callable[[ErrorCode], str]) -> Any:
    """The ``error`` member: closed code and typed context when ``strict``, open otherwise."""
    per_code = [
        {
            "if": {"properties": {"code": {"const": c.code}}, "required": ["code"]},
            "then": {"properties": {"context": {"$ref": f"#/$defs/{def_name(c)}"}}},
        }
        for c in cat.codes
        if c.context
    ]
    if strict:
        code: dict[str, Any] = {"$ref": "#/$defs/Code"}
        context: dict[str, Any] = {"$ref": "#/$defs/Context"}
    else:
        code = {
            "type": "string",
            "minLength": 1,
            "description": "A code of Code, or one a newer version added: readers treat a code "
            "they do not know as unknown, never as an invalid envelope.",
        }
        context = {
            "type": "object",
            "description": "Structured fields: a known code's are typed, an unknown code's may "
            "be any object.",
        }
    return {
        "type": "object",
        "description": "The error itself.",
        "required": ["code", "message", "remediation"],
        "properties": {
            "code": code,
            "message": {"type": "string", "minLength": 1, "description": "One-line summary."},
            "cause": {"type": "string", "description": "Call-site detail; never a secret."},
            "remediation": {
                "type": "string",
                "minLength": 1,
                "description": "The next action that fixes or works around the error.",
            },
            "context": context,
            "request_id": {"type": "string", "description": "The request id, when known."},
            "recovery": {"$ref": "#/$defs/Recovery"},
            "side_effects": {"enum": list(meta_enum("side_effects"))},
            "origin": {"$ref": "#/$defs/Origin"},
            "refines": {
                "type": "array",
                "description": "The codes the code refines, nearest first: a reader that does "
                "not know the code may act on the first of them it knows.",
                "items": {"$ref": "#/$defs/Code"} if strict else code_shape(),
                "maxItems": refines.MAX_CHAIN,
                "uniqueItems": True,
            },
        },
        "additionalProperties": True,
        # JSON Schema wants allOf non-empty: a catalogue without context has none.
        **({"allOf": per_code} if per_code else {}),
    }


def _defs(cat: Catalogue, strict: bool, def_name: Callable[[ErrorCode], str]) -> dict[str, Any]:
    defs: dict[str, Any] = {
        "Code": {
            "description": "Every code in the catalogue, server-emitted and SDK-local.",
            "enum": [c.code for c in cat.codes],
        },
        "ErrorObject": _error_object(cat, strict, def_name),
        "Origin": {
            "description": "Where the failure arose; a reader takes it from the code's catalogue entry.",
            "enum": list(meta_enum("origin")),
        },
        "Context": {
            "type": "object",
            "description": "Structured fields; ids, paths and operation names only, never secrets.",
            "properties": {f.name: field_schema(f) for f in cat.context_fields},
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
            defs[def_name(c)] = _context_def(c)
    return defs


def _envelope(
    cat: Catalogue, path: str, *, strict: bool, def_name: Callable[[ErrorCode], str], which: str
) -> dict[str, Any]:
    """The schema at ``path``; ``which`` says in its description whom it is for."""
    return {
        "$comment": " ".join(header_lines(cat)),
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": schema_id(cat, path),
        "title": f"{cat.api_name} error envelope",
        "description": (
            f"The error envelope of {cat.api_name}, contract version {cat.contract_version}"
            f"{which}. Members not named here may be added and must be ignored by readers."
        ),
        "type": "object",
        "required": ["error"],
        "properties": {"error": {"$ref": "#/$defs/ErrorObject"}},
        "additionalProperties": True,
        "$defs": _defs(cat, strict, def_name),
    }


def _by_code(entry: ErrorCode) -> str:
    return entry.code


def envelope_schema(cat: Catalogue, *, strict: bool) -> dict[str, Any]:
    """The consumer or the strict envelope schema of ``cat``, as a JSON-ready dict.

    The first member is a ``$comment`` naming the catalogue and the command
    that regenerates the file, since JSON has no comments.
    """
    if strict:
        which = " (strict: for servers and tests, only the catalogue's codes pass)"
        return _envelope(cat, STRICT_PATH, strict=True, def_name=_by_code, which=which)
    which = " (for consumers: any code passes, since a newer server may send new ones)"
    return _envelope(cat, CONSUMER_PATH, strict=False, def_name=_by_code, which=which)


def language_schema(cat: Catalogue, language: str) -> dict[str, Any]:
    """The strict schema with each code's context named after its class in ``language``.

    What the SDK renderers turn into types: ``rate_limited``'s context is
    ``RateLimitedContext`` when the class is ``RateLimitedError``.
    """

    def name(entry: ErrorCode) -> str:
        return context_type_name(entry.class_names[language])

    return _envelope(cat, STRICT_PATH, strict=True, def_name=name, which="")


def dumps(value: Any) -> str:
    """Serialize JSON the one way every generated JSON file uses."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def render(cat: Catalogue) -> dict[str, str]:
    """Render the consumer and the strict envelope schema."""
    return {
        CONSUMER_PATH: dumps(envelope_schema(cat, strict=False)),
        STRICT_PATH: dumps(envelope_schema(cat, strict=True)),
    }
