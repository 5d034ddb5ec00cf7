"""Generated vectors of every code and every fallback status: envelopes, empty and HTML bodies."""

from __future__ import annotations

from conformance_kit.cases import (
    Json,
    envelope,
    expect_code,
    expect_unknown,
    fallback,
    kept_value,
    predictable,
    vector,
)
from errcat.model.catalogue import Catalogue, ErrorCode

HTML_PAGE = (
    "<html>\r\n<head><title>{status} Proxy Error</title></head>\r\n<body>\r\n"
    "<center><h1>{status} Proxy Error</h1></center>\r\n<hr><center>nginx</center>\r\n"
    "</body>\r\n</html>\r\n"
)
CLIENT_SAMPLES = (402, 418, 451)
SERVER_SAMPLES = (501, 505, 599)
DEFAULT_SAMPLES = (200, 207, 399, 100, 600, 0)
UNKNOWN_CODE = "mystery_code_v9"


def code_vectors(cat: Catalogue) -> list[dict[str, Json]]:
    """Every catalogue code from a minimal and from a full envelope."""
    out = []
    for entry in cat.codes:
        out += [_minimal_vector(cat, entry), _full_vector(cat, entry)]
    return out


def _minimal_vector(cat: Catalogue, entry: ErrorCode) -> dict[str, Json]:
    """``entry``'s code alone: the catalogue gives every other field."""
    return vector(
        f"code/{entry.code}/minimal",
        f"An envelope carrying only the code {entry.code}: its class, the catalogue's"
        " texts as defaults, an empty context and the catalogue classification.",
        entry.http,
        {"text": envelope(code=entry.code)},
        expect_code(cat, entry, entry.http),
        covers=[f"code:{entry.code}"],
        invariants=["catalogue_text"],
    )


def _full_vector(cat: Catalogue, entry: ErrorCode) -> dict[str, Json]:
    """Every field of ``entry``'s envelope set by the server, and a request id header."""
    context = {
        f.name: predictable(cat, v, f"{entry.code}.context.{f.name}") if isinstance(v, str) else v
        for f in entry.context
        for v in [f.example_value]
    }
    message = predictable(cat, f"{entry.code}: the message the server sent", "message")
    cause = predictable(cat, f"The server explains why {entry.code} happened.", "cause")
    remediation = predictable(cat, f"Do what {entry.code} needs, then call again.", "remediation")
    retry = context.get("retry_after_ms")
    return vector(
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
            context={k: kept_value(cat, v) for k, v in context.items()},
            request_id=f"req-{entry.code}",
            retry_after_ms=retry if isinstance(retry, int) and retry >= 0 else None,
        ),
        covers=[f"code:{entry.code}", *[f"context:{f.name}" for f in entry.context]],
        headers={"X-Request-Id": f"req-{entry.code}"},
    )


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
