"""Generated vectors of the limits: the body cap, the nesting depth and the context member limit."""

from __future__ import annotations

from conformance_kit.cases import (
    Json,
    envelope,
    expect_code,
    fallback,
    kept_value,
    parts_text,
    predictable,
    vector,
)
from errcat.model.catalogue import Catalogue


def bound_vectors(cat: Catalogue) -> list[dict[str, Json]]:
    """The body cap: exactly at the cap, one byte over, and strings counted in UTF-8 bytes."""
    out = []
    cap = cat.limits.error_body_max_bytes
    head, tail = '{"error":{"code":"not_found"}', "}"
    pad = cap - len(head) - len(tail)
    not_found = cat.code("not_found")
    status = 400
    client = fallback(cat, status)
    for extra, valid in ((0, True), (1, False)):
        out.append(
            vector(
                f"bound/bytes/cap{'+1' if extra else ''}",
                f"An envelope padded with spaces to {cap + extra} bytes (cap {cap}): "
                + (
                    "read whole, so the envelope selects not_found."
                    if valid
                    else "its last byte is past the cap, so what is read is not JSON and"
                    f" status {status} falls back to {client.code}."
                ),
                status,
                {"parts": [head, {"repeat": " ", "times": pad + extra}, tail]},
                expect_code(cat, not_found if valid else client, status),
                covers=["bound"],
                invariants=["catalogue_text"],
            )
        )
    return out + _bound_text_vectors(cat)


def _bound_text_vectors(cat: Catalogue) -> list[dict[str, Json]]:
    """Text bodies of two-byte and astral characters just within and just past the body cap."""
    out = []
    cap = cat.limits.error_body_max_bytes
    not_found = cat.code("not_found")
    status = 400
    client = fallback(cat, status)
    prefix, suffix = '{"error":{"code":"not_found","cause":"', '"}}'
    fixed = len(prefix) + len(suffix)
    for unit, width in (("é", 2), ("😀", 4)):
        fits = (cap - fixed) // width
        over = fits + 1
        cut = cat.limits.text_max_chars - len(cat.sanitizer.truncation_marker)
        label = "two-byte" if width == 2 else "astral"
        out.append(
            vector(
                f"bound/text/{label}/fits",
                f"A string body of {fits} {label} characters inside an envelope:"
                f" {fixed + fits * width}"
                f" UTF-8 bytes, within the cap, so the envelope is read (its cause truncated).",
                status,
                {"as": "text", "parts": [prefix, {"repeat": unit, "times": fits}, suffix]},
                expect_code(
                    cat,
                    not_found,
                    status,
                    cause=parts_text(
                        {"repeat": unit, "times": cut}, cat.sanitizer.truncation_marker
                    ),
                ),
                covers=["bound", "bound:text"],
            )
        )
        out.append(
            vector(
                f"bound/text/{label}/over",
                f"A string body of {over} {label} characters: fewer characters (and UTF-16 units)"
                f" than the cap but {fixed + over * width} UTF-8 bytes, so it is cut at {cap}"
                " bytes,"
                f" is not JSON, and status {status} falls back to {client.code}.",
                status,
                {"as": "text", "parts": [prefix, {"repeat": unit, "times": over}, suffix]},
                expect_code(cat, client, status),
                covers=["bound", "bound:text"],
                invariants=["catalogue_text"],
            )
        )
    return out


def depth_vectors(cat: Catalogue) -> list[dict[str, Json]]:
    """Nesting at exactly ``json_max_depth`` and one deeper, in arrays and in objects."""
    out = []
    depth = cat.limits.json_max_depth
    status = 400
    not_found = cat.code("not_found")
    client = fallback(cat, status)
    for kind in ("arrays", "objects"):
        for total in (depth, depth + 1):
            inner = total - 3  # the envelope, its error and its context are three levels
            if kind == "arrays":
                nested: list[Json] = [
                    {"repeat": "[", "times": inner},
                    {"repeat": "]", "times": inner},
                ]
            else:
                nested = [
                    {"repeat": '{"a":', "times": inner - 1},
                    "{}",
                    {"repeat": "}", "times": inner - 1},
                ]
            ok = total <= depth
            out.append(
                vector(
                    f"depth/{kind}/{total}",
                    f"An envelope whose context nests {kind} to a total depth of {total}"
                    f" (limit {depth}): "
                    + (
                        "read; the nested value is dropped from the context."
                        if ok
                        else f"too deep, so not JSON, and status {status} falls back to"
                        f" {client.code}."
                    ),
                    status,
                    {
                        "parts": [
                            '{"error":{"code":"not_found","context":{"deep":',
                            *nested,
                            ',"sandbox":"sb-1"}}}',
                        ]
                    },
                    expect_code(cat, not_found, status, context={"sandbox": "sb-1"})
                    if ok
                    else expect_code(cat, client, status),
                    covers=["depth"],
                )
            )
    return [*out, _brackets_in_strings(cat)]


def _brackets_in_strings(cat: Catalogue) -> dict[str, Json]:
    """Opening brackets inside a string, twice the depth limit of them: text, not nesting."""
    depth = cat.limits.json_max_depth
    status = 400
    not_found = cat.code("not_found")
    return vector(
        "depth/brackets-in-strings",
        f"{depth * 2} opening brackets inside a string are text, not nesting.",
        status,
        {
            "parts": [
                '{"error":{"code":"not_found","cause":"',
                {"repeat": "[{", "times": depth},
                '"}}',
            ]
        },
        expect_code(cat, not_found, status, cause="[{" * depth),
        covers=["depth"],
    )


def _field_members(cat: Catalogue, count: int) -> dict[str, Json]:
    """Up to ``count`` catalogue context fields with their (plain) example values."""
    return {
        f.name: predictable(cat, v, f"context_fields.{f.name}.example") if isinstance(v, str) else v
        for f in cat.context_fields[:count]
        for v in [f.example_value]
    }


def _fillers(cat: Catalogue, count: int) -> list[tuple[str, Json]]:
    """``count`` members ``k000: 0``, ``k001: 1``... none of them a catalogue field."""
    names = {f.name for f in cat.context_fields}
    keys = (f"k{i:03d}" for i in range(count + len(names)))
    return [(k, i) for i, k in enumerate(k for k in keys if k not in names)][:count]


def _spread(fields: dict[str, Json], fillers: list[tuple[str, Json]]) -> dict[str, Json]:
    """The fields spread over the fillers: first, in the middle and last."""
    members = list(fillers)
    items = list(fields.items())
    slots = [0, len(members) // 2, len(members)]
    for offset, (slot, item) in enumerate(zip(slots, items, strict=False)):
        members.insert(slot + offset, item)
    for item in items[len(slots) :]:
        members.append(item)
    return dict(members)


def context_limit_vectors(cat: Catalogue) -> list[dict[str, Json]]:
    """The member limit: past ``context_max_keys`` members only catalogue fields are kept."""
    out = []
    limit = cat.limits.context_max_keys
    internal = cat.code("internal")
    fields = _field_members(cat, 3)
    kept_fields = {k: kept_value(cat, v) for k, v in fields.items()}
    names = ", ".join(fields)
    for count in (limit, limit + 1):
        members = _spread(fields, _fillers(cat, count - len(fields)))
        over = count > limit
        out.append(
            vector(
                f"context/limit/{count}",
                f"A context of {count} members (limit {limit}) with the catalogue fields {names}"
                " first, in the middle and last: "
                + (
                    "over the limit, so only the catalogue fields are kept, wherever they stand."
                    if over
                    else "within the limit, so every member is kept."
                ),
                500,
                {"text": envelope(code="internal", context=members)},
                expect_code(
                    cat,
                    internal,
                    500,
                    context=kept_fields
                    if over
                    else {k: kept_value(cat, v) for k, v in members.items()},
                ),
                covers=["context:limit", "context:fields"],
            )
        )
    return out + _context_order_vectors(cat)


def _context_order_vectors(cat: Catalogue) -> list[dict[str, Json]]:
    """Where a catalogue field or an integer-like key stands does not change what the limit keeps."""
    out = []
    limit = cat.limits.context_max_keys
    internal = cat.code("internal")
    fields = _field_members(cat, 3)
    field, field_value = next(iter(fields.items()))
    members = dict(_fillers(cat, limit))
    members[field] = field_value
    out.append(
        vector(
            "context/limit/field-last",
            f"{limit} members that are not catalogue fields, then the field {field}: the"
            f" member past the limit is the one kept (the limit selects catalogue fields, not"
            " the first members).",
            500,
            {"text": envelope(code="internal", context=members)},
            expect_code(cat, internal, 500, context={field: kept_value(cat, field_value)}),
            covers=["context:limit", "context:fields", "context:order"],
        )
    )
    members = {field: field_value, **dict(_fillers(cat, limit - 1))}
    body = envelope(code="internal", context=members)[:-3] + ',"1":"late"}}}'
    out.append(
        vector(
            "context/limit/integer-key-last",
            f'The field {field}, {limit - 1} other members, then the integer-like key "1" (a'
            f" JavaScript object lists it first): {limit + 1} members, so only the catalogue field"
            ' is kept whatever the order; "1" is dropped because it is no catalogue field.',
            500,
            {"text": body},
            expect_code(cat, internal, 500, context={field: kept_value(cat, field_value)}),
            covers=["context:limit", "context:order"],
        )
    )
    members = dict(_fillers(cat, limit - 1))
    body = envelope(code="internal", context=members)[:-3] + ',"1":"late"}}}'
    out.append(
        vector(
            "context/limit/integer-key-within",
            f'{limit - 1} members, then the integer-like key "1": {limit} members, within the'
            ' limit, so all are kept ("1" included; key order is not compared).',
            500,
            {"text": body},
            expect_code(cat, internal, 500, context={**members, "1": "late"}),
            covers=["context:limit", "context:order"],
        )
    )
    return out
