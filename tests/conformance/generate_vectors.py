"""Write tests/conformance/vectors/generated.json from the catalogue, deterministically.

    python tests/conformance/generate_vectors.py          # rewrite the file
    python tests/conformance/generate_vectors.py --check  # exit 1 if it is stale

The cases that follow mechanically from the catalogue are made here, so a new
code, fallback status, sanitizer range or limit gets its cases without anyone
writing them: every code from a minimal and from a full envelope, every status
of the fallback map without an envelope (empty and HTML bodies), an unknown
code at each of those statuses, one case per ``remove`` and ``to_space``
range, truncation at cap-1, cap and cap+1, the body cap, the nesting depth
and the context member limit.

Expected values are built from the catalogue, with the rules of the
contract's reference implementation (``conformance_kit.reference``: the
fallback map, the context value rule, the classification), never by running
an SDK; the harness then checks each whole expectation against the reference.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from conformance_kit.reference import Reference
from errcat.cli import load_model
from errcat.model import Catalogue, CharRange, ErrorCode

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CATALOGUE = REPO / "catalogue" / "errors.yaml"
OUT = HERE / "vectors" / "generated.json"
COMMAND = "python tests/conformance/generate_vectors.py"

Json = Any

HTML_PAGE = (
    "<html>\r\n<head><title>{status} Proxy Error</title></head>\r\n<body>\r\n"
    "<center><h1>{status} Proxy Error</h1></center>\r\n<hr><center>nginx</center>\r\n"
    "</body>\r\n</html>\r\n"
)
CLIENT_SAMPLES = (402, 418, 451)
SERVER_SAMPLES = (501, 505, 599)
DEFAULT_SAMPLES = (200, 207, 399, 100, 600, 0)
UNKNOWN_CODE = "mystery_code_v9"


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
        "class": entry.python_class,
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


def _plain(cat: Catalogue, text: str, where: str) -> str:
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


def _context_value(cat: Catalogue, value: Json) -> Json:
    """A context value as the error keeps it (section 1, step 6), by the reference.

    The reference reads every JSON number as a double, so an integer example is given as one.
    """
    keep, kept = Reference(cat).context_value(float(value) if type(value) is int else value, None)
    if not keep:
        raise SystemExit(f"generate_vectors: the context example {value!r} would be dropped")
    return kept


def code_vectors(cat: Catalogue) -> list[dict[str, Json]]:
    """Every catalogue code from a minimal and from a full envelope."""
    out = []
    for entry in cat.codes:
        out.append(
            vector(
                f"code/{entry.code}/minimal",
                f"An envelope carrying only the code {entry.code}: its class, the catalogue's"
                " texts as defaults, an empty context and the catalogue classification.",
                entry.http,
                {"text": envelope(code=entry.code)},
                expect_code(cat, entry, entry.http),
                covers=[f"code:{entry.code}"],
                invariants=["catalogue_text"],
            )
        )
        context = {
            f.name: _plain(cat, v, f"{entry.code}.context.{f.name}") if isinstance(v, str) else v
            for f in entry.context
            for v in [f.example_value]
        }
        message = _plain(cat, f"{entry.code}: the message the server sent", "message")
        cause = _plain(cat, f"The server explains why {entry.code} happened.", "cause")
        remediation = _plain(cat, f"Do what {entry.code} needs, then call again.", "remediation")
        retry = context.get("retry_after_ms")
        out.append(
            vector(
                f"code/{entry.code}/full",
                f"A full envelope of {entry.code}: server texts win over the catalogue's, the"
                " context carries the catalogue's example of each field, and the x-request-id"
                " header wins over the envelope's request_id.",
                entry.http,
                {
                    "text": envelope(
                        code=entry.code,
                        message=message,
                        cause=cause,
                        remediation=remediation,
                        context=context,
                        request_id=f"env-{entry.code}",
                    )
                },
                expect_code(
                    cat,
                    entry,
                    entry.http,
                    message=message,
                    cause=cause,
                    remediation=remediation,
                    context={k: _context_value(cat, v) for k, v in context.items()},
                    request_id=f"req-{entry.code}",
                    retry_after_ms=retry if isinstance(retry, int) and retry >= 0 else None,
                ),
                covers=[f"code:{entry.code}", *[f"context:{f.name}" for f in entry.context]],
                headers={"X-Request-Id": f"req-{entry.code}"},
            )
        )
    return out


def fallback_statuses(cat: Catalogue) -> list[tuple[int, str]]:
    """Every status of the fallback map, plus samples of each class and of the default."""
    out = [(status, str(status)) for status, _ in cat.fallback.by_status]
    known = {status for status, _ in cat.fallback.by_status}
    out += [(s, "4xx") for s in CLIENT_SAMPLES if s not in known]
    out += [(s, "5xx") for s in SERVER_SAMPLES if s not in known]
    out += [(s, "default") for s in DEFAULT_SAMPLES]
    return out


def fallback_vectors(cat: Catalogue) -> list[dict[str, Json]]:
    """Responses without an envelope: every fallback status, empty and HTML bodies."""
    out = []
    statuses = fallback_statuses(cat)
    exact = {status for status, _ in cat.fallback.by_status}
    for status, key in statuses:
        entry = fallback(cat, status)
        out.append(
            vector(
                f"fallback/{status}/empty",
                f"An empty body with status {status}: no envelope, so the fallback map ({key})"
                f" gives {entry.code} with the catalogue's texts.",
                status,
                {"text": ""},
                expect_code(cat, entry, status),
                covers=[f"fallback:{key}", "hostile:empty"],
                invariants=["catalogue_text"],
            )
        )
    for status, key in statuses:
        if status not in exact:
            continue
        entry = fallback(cat, status)
        out.append(
            vector(
                f"fallback/{status}/html",
                f"An HTML page from a proxy with status {status}: not JSON, so the fallback map"
                f" gives {entry.code}.",
                status,
                {"text": HTML_PAGE.format(status=status)},
                expect_code(cat, entry, status),
                covers=[f"fallback:{key}", "hostile:html"],
                headers={"Content-Type": "text/html; charset=utf-8"},
                invariants=["catalogue_text"],
            )
        )
    for status, key in statuses:
        if status not in exact and key == "default" and status != 200:
            continue
        context = {"sandbox": "sb-1"}
        out.append(
            vector(
                f"unknown-code/{status}",
                f"An envelope with a code the catalogue does not know, at status {status}: the"
                " base class keeps the code as sent, with the texts of"
                f" {fallback(cat, status).code}"
                " (the status's fallback) and the unknown-code catch-all classification.",
                status,
                {"text": envelope(code=UNKNOWN_CODE, context=context)},
                expect_unknown(cat, UNKNOWN_CODE, status, context),
                covers=["unknown-code", f"fallback:{key}"],
                invariants=["catalogue_text"],
            )
        )
    return out


def _slug(r: CharRange) -> str:
    name = "".join(ch if ch.isalnum() else "-" for ch in r.name.lower())
    return f"u{r.first:04x}-u{r.last:04x}-" + "-".join(p for p in name.split("-") if p)


def _with_chars(r: CharRange, sep: str) -> tuple[str, str]:
    """Text holding the first and last characters of ``r``, and what it becomes."""
    if r.first == r.last:
        return f"a{chr(r.first)}b", f"a{sep}b"
    return f"a{chr(r.first)}b{chr(r.last)}c", f"a{sep}b{sep}c"


def _in_envelope(cause: str, *, ascii_only: bool) -> dict[str, Json]:
    text = json.dumps(
        {"error": {"code": "internal", "cause": cause}},
        separators=(",", ":"),
        ensure_ascii=ascii_only,
    )
    return {"text": text}


def sanitizer_range_vectors(cat: Catalogue) -> list[dict[str, Json]]:
    """One case per ``remove`` and ``to_space`` range: JSON-escaped, and raw where JSON allows."""
    out = []
    internal = cat.code("internal")
    for kind, ranges, sep in (
        ("remove", cat.sanitizer.remove, ""),
        ("to_space", cat.sanitizer.to_space, " "),
    ):
        for r in ranges:
            text, want = _with_chars(r, sep)
            verb = "deleted" if kind == "remove" else "turned into one space each"
            out.append(
                vector(
                    f"sanitize/{kind}/{_slug(r)}",
                    f"The first and last characters of the {kind} range {r.name}"
                    f" (U+{r.first:04X}-U+{r.last:04X}), as JSON escapes in the cause, are {verb}.",
                    500,
                    _in_envelope(text, ascii_only=True),
                    expect_code(cat, internal, 500, cause=want),
                    covers=[f"{kind}:{r.name}"],
                )
            )
            raw_ok = r.first >= 0x7F and not (r.first <= 0xDFFF and r.last >= 0xD800)
            if raw_ok:
                out.append(
                    vector(
                        f"sanitize/{kind}/{_slug(r)}/raw",
                        f"The same characters of {r.name} as raw UTF-8 in the body.",
                        500,
                        _in_envelope(text, ascii_only=False),
                        expect_code(cat, internal, 500, cause=want),
                        covers=[f"{kind}:{r.name}"],
                    )
                )
    return out


def _parts_text(*parts: Json) -> dict[str, Json]:
    return {"parts": list(parts)}


def truncation_vectors(cat: Catalogue) -> list[dict[str, Json]]:
    """Text at cap-1, cap and cap+1 code points, in 1-, 2-, 3- and 4-byte characters."""
    out = []
    cap = cat.limits.text_max_chars
    marker = cat.sanitizer.truncation_marker
    internal = cat.code("internal")
    units = (
        ("ascii", "x", "bytes"),
        ("two-byte", "é", "bytes"),
        ("three-byte", "語", "text"),
        ("astral", "😀", "text"),
    )
    for label, unit, mode in units:
        for delta in (-1, 0, 1):
            n = cap + delta
            if n <= cap:
                want: Json = _parts_text({"repeat": unit, "times": n})
            else:
                want = _parts_text({"repeat": unit, "times": cap - len(marker)}, marker)
            out.append(
                vector(
                    f"truncate/{label}/cap{delta:+d}".replace("+0", ""),
                    f"A cause of {n} {label} characters (cap {cap} code points, body as {mode}):"
                    + (
                        " kept whole."
                        if n <= cap
                        else f" cut to {cap - len(marker)} code points"
                        f" and the marker, exactly {cap} long."
                    ),
                    500,
                    {
                        "as": mode,
                        "parts": [
                            '{"error":{"code":"internal","cause":"',
                            {"repeat": unit, "times": n},
                            '"}}',
                        ],
                    },
                    expect_code(cat, internal, 500, cause=want),
                    covers=["truncate", f"truncate:{label}"],
                )
            )
    long_code = _parts_text({"repeat": "x", "times": cap - len(marker)}, marker)
    out.append(
        vector(
            "truncate/code",
            "A code of cap+1 characters is unknown; it is kept as sent, sanitized, so it is"
            " truncated like any text.",
            500,
            {"parts": ['{"error":{"code":"', {"repeat": "x", "times": cap + 1}, '"}}']},
            {**expect_unknown(cat, "", 500, {}), "code": long_code},
            covers=["truncate", "unknown-code"],
        )
    )
    out.append(
        vector(
            "truncate/context",
            f"A context string of cap+1 characters is truncated under a key of exactly {cap}"
            " characters, which sanitizing leaves as it is; a key of cap+1 characters is changed"
            " by the cap, so its member is dropped.",
            500,
            {
                "parts": [
                    '{"error":{"code":"internal","context":{"',
                    {"repeat": "k", "times": cap},
                    '":"',
                    {"repeat": "v", "times": cap + 1},
                    '","',
                    {"repeat": "j", "times": cap + 1},
                    '":"x"}}}',
                ]
            },
            expect_code(
                cat,
                internal,
                500,
                context={"k" * cap: "v" * (cap - len(marker)) + marker},
            ),
            covers=["truncate", "context:truncate"],
        )
    )
    return out


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
                    cause=_parts_text(
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
    out.append(
        vector(
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
    )
    return out


def _field_members(cat: Catalogue, count: int) -> dict[str, Json]:
    """Up to ``count`` catalogue context fields with their (plain) example values."""
    return {
        f.name: _plain(cat, v, f"context_fields.{f.name}.example") if isinstance(v, str) else v
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
    kept_fields = {k: _context_value(cat, v) for k, v in fields.items()}
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
                    else {k: _context_value(cat, v) for k, v in members.items()},
                ),
                covers=["context:limit", "context:fields"],
            )
        )
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
            expect_code(cat, internal, 500, context={field: _context_value(cat, field_value)}),
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
            expect_code(cat, internal, 500, context={field: _context_value(cat, field_value)}),
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


def build(cat: Catalogue) -> dict[str, Json]:
    """The whole generated vector file for ``cat``."""
    vectors = (
        code_vectors(cat)
        + fallback_vectors(cat)
        + sanitizer_range_vectors(cat)
        + truncation_vectors(cat)
        + bound_vectors(cat)
        + depth_vectors(cat)
        + context_limit_vectors(cat)
    )
    return {
        "format": "mitos-errors-conformance/1",
        "description": "Cases generated from catalogue/errors.yaml; do not edit by hand.",
        "generated_by": f"Code generated by {COMMAND} from catalogue/errors.yaml. DO NOT EDIT.",
        "vectors": vectors,
    }


def render(cat: Catalogue) -> str:
    """The bytes of generated.json, as text: stable key order, ASCII, one trailing newline."""
    return json.dumps(build(cat), indent=1, ensure_ascii=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the generated vectors; exit 1 when stale."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 if stale")
    parser.add_argument("--catalogue", type=Path, default=CATALOGUE)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    text = render(load_model(args.catalogue, REPO))
    current = args.out.read_text(encoding="utf-8") if args.out.exists() else None
    if args.check:
        if current != text:
            print(f"{args.out} is stale; run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    if current != text:
        args.out.write_text(text, encoding="utf-8")
        print(
            f"wrote {args.out} ({len(build(load_model(args.catalogue, REPO))['vectors'])} vectors)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
