"""The rules on single values: every text, the context examples, the gRPC status.

Texts are free of control, bidi and invisible characters (and of every
character stage 1 of the catalogue's own sanitizer removes or turns into a
space: an error writes catalogue text as it is, and one restored from its
fields sanitizes it, so such a text would not come back), not blank, and no
longer than ``limits.text_max_chars`` (the cap the SDKs put on every text of
an error, so a catalogue text never reaches a caller longer than the cap);
the truncation marker leaves room for text under that cap. A context field's
``example`` has the field's type and lies within its ``minimum`` and
``maximum``, which only integer and number fields have (whole numbers for an
integer field, the least first), so the generated examples validate against
the generated schemas. No error carries the gRPC status ``OK``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from errcat.check.context import Context
from errcat.model.defaults import effective_sanitizer
from errcat.model.sanitizer import SIDE_CONDITIONS, StageOne, stage_one
from errcat.source.document import KeyPath, as_mapping
from errcat.wording import char_rule, describe_char, is_blank, kind_of, listing, quoted, shown

_CHAR_RULES = {
    "control-character": "delete the control character; catalogue text is one line of plain text",
    "bidi-control": "delete the character: bidi controls make text display unlike what it says",
    "invisible-character": "delete the invisible character",
}
_BLANK_FIXES = {
    "remediation": "write the remediation: the concrete next step for the caller",
    "message": "write the one-line summary",
    "cause": "write the one-sentence cause",
    "guidance": "write the recovery guidance: what to do next",
}
_CAPPED_ROOTS = ("codes", "unknown_code", "sanitizer", "context_fields")
"""Sections whose texts reach an SDK error, and so must fit ``text_max_chars``."""

_EXAMPLE_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
}
_GRPC_FOR_STATUS = {
    400: "InvalidArgument",
    401: "Unauthenticated",
    403: "PermissionDenied",
    404: "NotFound",
    408: "DeadlineExceeded",
    409: "Aborted",
    429: "ResourceExhausted",
    499: "Canceled",
    501: "Unimplemented",
    503: "Unavailable",
    504: "DeadlineExceeded",
}


def strings(value: Any) -> Iterator[tuple[KeyPath, str]]:
    """Every string under ``value`` with its key path, in document order (no recursion)."""
    stack: list[tuple[KeyPath, Any]] = [((), value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            yield path, item
        elif isinstance(item, dict):
            stack.extend(((*path, k), v) for k, v in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend(((*path, i), v) for i, v in reversed(list(enumerate(item))))


def _is_pattern(path: KeyPath) -> bool:
    return (
        len(path) == 4
        and path[0] == "sanitizer"
        and path[1] in ("secrets", "injection")
        and path[3] in ("pattern", "prefix", *SIDE_CONDITIONS)
    )


def _cap(ctx: Context) -> int | None:
    """``limits.text_max_chars`` when it is a usable number, else ``None`` (no length rules)."""
    cap = ctx.section("limits").get("text_max_chars")
    usable = isinstance(cap, int) and not isinstance(cap, bool)
    return cap if usable and ctx.ok(("limits", "text_max_chars")) else None


def _stage_one(ctx: Context) -> StageOne | None:
    """Stage 1 of the catalogue's sanitizer, or ``None`` while its section has problems of its own."""
    if any(path[:1] == ("sanitizer",) for path in ctx.rejected):
        return None
    try:
        return stage_one(effective_sanitizer(ctx.data.get("sanitizer")))
    except (KeyError, TypeError, ValueError):  # ranges the pattern rules report
        return None


def texts(ctx: Context) -> None:
    """Texts are not blank, fit ``limits.text_max_chars`` and hold no control, bidi or invisible
    character; a text an error can hold, none that the catalogue's sanitizer's stage 1 changes."""
    cap = _cap(ctx)
    sanitized = _stage_one(ctx)
    for path, text in strings(ctx.data):
        if _is_pattern(path) or not ctx.ok(path):
            continue
        if text and is_blank(text):
            key = next((k for k in reversed(path) if isinstance(k, str)), "")
            ctx.add(
                path,
                "blank-text",
                f"the text is blank ({quoted(text)})",
                _BLANK_FIXES.get(key, "write the text, or remove the key"),
            )
        if cap is not None and path[0] in _CAPPED_ROOTS and len(text) > cap:
            ctx.add(
                path,
                "text-too-long",
                f"the text is {len(text)} characters long; limits.text_max_chars is "
                f"{cap}, the most any text of an error may have",
                f"shorten it to {cap} characters or fewer",
            )
        if not (text.isascii() and text.isprintable()):
            _characters(ctx, path, text, sanitized if path[0] in _CAPPED_ROOTS else None)


def _characters(ctx: Context, path: KeyPath, text: str, sanitized: StageOne | None) -> None:
    found: dict[str, dict[str, int]] = {}
    by_sanitizer = False
    for index, char in enumerate(text):
        rule = char_rule(char)
        if rule is None and sanitized is not None and sanitized.range_of(char) is not None:
            rule, by_sanitizer = "invisible-character", True
        if rule is not None:
            found.setdefault(rule, {}).setdefault(char, index + 1)
    for rule, chars in found.items():
        fix = _CHAR_RULES[rule]
        if rule == "control-character" and "\n" in chars:
            fix = "write the text on one line, or fold it with >- (not |)"
        elif rule == "invisible-character" and by_sanitizer:
            fix = (
                "delete the character: the catalogue's sanitizer removes it (sanitizer.remove), "
                "so an error rebuilt from its fields would not keep it"
            )
        named = (f"{describe_char(c)} at character {at}" for c, at in chars.items())
        ctx.add(path, rule, f"the text contains {listing(named)}", fix)


def marker(ctx: Context) -> None:
    """The truncation marker leaves room for text under ``limits.text_max_chars``."""
    cap = _cap(ctx)
    path = ("sanitizer", "truncation_marker")
    marker = ctx.section("sanitizer").get("truncation_marker")
    if cap is None or not isinstance(marker, str) or not ctx.ok(path):
        return
    if len(marker) >= cap:
        ctx.add(
            path,
            "marker-too-long",
            f"the truncation marker is {len(marker)} characters long, which leaves no room "
            f"for text under limits.text_max_chars ({cap})",
            f"shorten the marker to fewer than {cap} characters, or raise text_max_chars",
        )


def examples(ctx: Context) -> None:
    """A context field's example has the field's type."""
    for name, spec in ctx.section("context_fields").items():
        entry = as_mapping(spec)
        kind, example = entry.get("type"), entry.get("example")
        path = ("context_fields", name, "example")
        if kind not in _EXAMPLE_TYPES or "example" not in entry or not ctx.ok(path):
            continue
        if isinstance(example, bool) != (kind == "boolean") or not isinstance(
            example, _EXAMPLE_TYPES[kind]
        ):
            ctx.add(
                path,
                "example-type",
                f"the example {shown(example)} is {kind_of(example)}, but the field's "
                f"type is {kind}",
                f"write an example of type {kind}, or change the field's type",
            )


def bounds(ctx: Context) -> None:
    """Only numbers have bounds, an integer's are whole, the least first, and the example within."""
    for name, spec in ctx.section("context_fields").items():
        entry = as_mapping(spec)
        kind = entry.get("type")
        given = {k: entry[k] for k in ("minimum", "maximum") if k in entry}
        at: KeyPath = ("context_fields", name)
        if not given or not ctx.ok(at) or kind not in _EXAMPLE_TYPES:
            continue
        if kind not in ("integer", "number"):
            for key in given:
                ctx.add(
                    (*at, key),
                    "bound-not-numeric",
                    f"{key} bounds a number, but the field's type is {kind}",
                    f"delete {key}, or make the field an integer or a number",
                    at_key=True,
                )
            continue
        for key, bound in given.items():
            if kind == "integer" and isinstance(bound, float) and not bound.is_integer():
                ctx.add(
                    (*at, key),
                    "bound-not-integer",
                    f"the {key} {shown(bound)} of an integer field is not a whole number",
                    f"write a whole number for {key}",
                )
        low, high = given.get("minimum"), given.get("maximum")
        if low is not None and high is not None and low > high:
            ctx.add(
                (*at, "maximum"),
                "bounds-order",
                f"the maximum {shown(high)} is less than the minimum {shown(low)}",
                "swap them, or correct the one that is wrong",
            )
            continue
        _example_in(ctx, at, entry.get("example"), low, high)


def _example_in(
    ctx: Context, at: KeyPath, example: Any, low: float | None, high: float | None
) -> None:
    """Report an example outside ``[low, high]`` (a wrong type is the type rule's)."""
    path = (*at, "example")
    if isinstance(example, bool) or not isinstance(example, (int, float)) or not ctx.ok(path):
        return
    if (low is not None and example < low) or (high is not None and example > high):
        if low is not None and high is not None:
            span = f"{shown(low)} to {shown(high)}"
        else:
            span = f"at least {shown(low)}" if low is not None else f"at most {shown(high)}"
        ctx.add(
            path,
            "example-out-of-bounds",
            f"the example {shown(example)} is outside the field's bounds ({span})",
            "write an example within the bounds, or widen the bounds",
        )


def grpc_ok(ctx: Context) -> None:
    """No code has the gRPC status OK."""
    for code, spec in ctx.codes.items():
        entry = as_mapping(spec)
        path = ("codes", code, "grpc")
        if entry.get("grpc") != "OK" or not ctx.ok(path):
            continue
        http = entry.get("http")
        status = http if isinstance(http, int) else 500
        guess = _GRPC_FOR_STATUS.get(status, "Internal" if status >= 500 else "Unknown")
        ctx.add(
            path,
            "grpc-ok",
            "OK is the gRPC status of success; an error never has it",
            f"write the gRPC status of the failure, e.g. {guess}",
        )
