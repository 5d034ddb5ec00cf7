"""What every generated vector is made of: bodies, expectations and the vector record.

Expectations are built from the catalogue with the rules of the contract's
reference implementation (:mod:`conformance_kit.reference`), never by running
an SDK.
"""

from __future__ import annotations

import json
from typing import Any

from conformance_kit.reference import Reference
from errcat.model.catalogue import Catalogue, ErrorCode

Json = Any


def http_ok(status: int) -> bool:
    """True when a status can travel as a final HTTP response (200-599)."""
    return 200 <= status <= 599


def envelope(**error: Json) -> str:
    """An envelope body, serialized compactly with non-ASCII escaped."""
    return json.dumps({"error": error}, separators=(",", ":"))


def fallback(cat: Catalogue, status: int) -> ErrorCode:
    """The code a response without an envelope gets (section 1, step 5), by the reference."""
    return Reference(cat).fallback(status)


def classification(cat: Catalogue, entry: ErrorCode | None) -> dict[str, Json]:
    """Section 1, step 7, for a catalogue code or (``None``) the unknown-code catch-all.

    The reference implementation's classification, without the class name.
    """
    fields = Reference(cat).classify(entry)
    fields.pop("class")
    return fields


def expect_code(
    cat: Catalogue,
    entry: ErrorCode,
    status: int,
    *,
    message: Json = None,
    cause: Json = None,
    remediation: Json = None,
    context: dict[str, Json] | None = None,
    request_id: str | None = None,
    retry_after_ms: int | None = None,
) -> dict[str, Json]:
    """The full expectation for a response that selects the catalogue code ``entry``."""
    return {
        "class": entry.class_names["python"],
        "code": entry.code,
        "status": status,
        "message": entry.message if message is None else message,
        "cause": entry.cause if cause is None else cause,
        "remediation": entry.remediation if remediation is None else remediation,
        "context": context or {},
        "request_id": request_id,
        "retry_after_ms": retry_after_ms,
        **classification(cat, entry),
    }


def expect_unknown(
    cat: Catalogue, code: str, status: int, context: dict[str, Json]
) -> dict[str, Json]:
    """The expectation for an envelope with a code the catalogue does not know."""
    texts = fallback(cat, status)
    return {
        "class": cat.base_class,
        "code": code,
        "status": status,
        "message": texts.message,
        "cause": texts.cause,
        "remediation": texts.remediation,
        "context": context,
        "request_id": None,
        "retry_after_ms": None,
        **classification(cat, None),
    }


def vector(
    name: str,
    description: str,
    status: int,
    body: dict[str, Json],
    expect: dict[str, Json],
    *,
    covers: list[str],
    headers: dict[str, str] | None = None,
    invariants: list[str] | None = None,
) -> dict[str, Json]:
    """One vector in file order of members."""
    out: dict[str, Json] = {"name": name, "description": description, "covers": covers}
    out["status"] = status
    if headers:
        out["headers"] = headers
    out["body"] = body
    out["token"] = None
    if not http_ok(status):
        out["transport"] = "direct"
    out["expect"] = expect
    if invariants:
        out["invariants"] = invariants
    return out


def predictable(cat: Catalogue, text: str, where: str) -> str:
    """Refuse example text the generator would have to sanitize to predict."""
    lowered = text.lower()
    hits = [t for t in cat.sanitizer.triggers if t in lowered]
    odd = [ch for ch in text if not (" " <= ch <= "~")]
    if hits or odd or len(text) > cat.limits.text_max_chars:
        raise SystemExit(
            f"generate_vectors: {where} = {text!r} is not plain printable ASCII free of sanitizer"
            f" triggers {hits}; the generator cannot predict its sanitized form. Give it a plain"
            " example in the catalogue or add a hand-written vector."
        )
    return text


def kept_value(cat: Catalogue, value: Json) -> Json:
    """A context value as the error keeps it (section 1, step 6), by the reference.

    The reference reads every JSON number as a double, so an integer example is given as one.
    """
    keep, kept = Reference(cat).context_value(float(value) if type(value) is int else value, None)
    if not keep:
        raise SystemExit(f"generate_vectors: the context example {value!r} would be dropped")
    return kept


def parts_text(*parts: Json) -> dict[str, Json]:
    return {"parts": list(parts)}
