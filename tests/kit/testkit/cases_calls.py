"""Vectors of the calls other than reading a response: ``error_for_code``, the constructors, ``code_for_grpc``.

The calls are listed here (``error_for_code`` and constructor calls by hand,
every spelling of every gRPC status on every channel from the catalogue); what
each must give comes from the reference (:mod:`testkit.reference_calls`), and
the suite checks each whole answer against it again.
"""

from __future__ import annotations

import re
from typing import Any

from errcat.model.catalogue import Catalogue
from testkit.reference import Reference
from testkit.reference_calls import answer

Json = Any
UNKNOWN = "mystery_code_v9"


def _efc(code: str, status: int | None = None, **texts: str) -> dict[str, Json]:
    return {
        "error_for_code": {
            "code": code,
            "message": texts.pop("message", "m"),
            **texts,
            "status": status,
        }
    }


def _new(
    cls: str | None, code: str | None, status: int | None = None, **texts: str
) -> dict[str, Json]:
    call = {"class": cls, "code": code, "message": texts.pop("message", "m"), **texts}
    return {"construct": {**call, "status": status}}


ERROR_FOR_CODE: tuple[tuple[str, str, dict[str, Json]], ...] = (
    (
        "known/no-status",
        "A catalogue code without a status: its class and texts.",
        _efc("not_found"),
    ),
    ("known/other-status", "A status other than the code's own is kept.", _efc("not_found", 503)),
    (
        "known/empty-texts",
        "Empty texts are not given: the code's own.",
        _efc("not_found", 404, cause="", remediation=""),
    ),
    (
        "known/given-texts",
        "Given texts replace the catalogue's.",
        _efc("not_found", cause="gone", remediation="look elsewhere"),
    ),
    (
        "known/given-texts-sanitized",
        "Given texts are sanitized, without a token.",
        _efc(
            "internal",
            cause="a\u200bb\nc <|im_start|>",
            remediation="Bearer abcdefghij then \u202eretry",
        ),
    ),
    (
        "unknown/no-status",
        "An unknown code without a status: the default fallback's texts.",
        _efc(UNKNOWN),
    ),
    (
        "unknown/exact-status",
        "An unknown code takes its status's fallback texts.",
        _efc(UNKNOWN, 503),
    ),
    (
        "unknown/client-class",
        "An unlisted 4xx status: the client-error fallback.",
        _efc(UNKNOWN, 418),
    ),
    (
        "unknown/server-class",
        "An unlisted 5xx status: the server-error fallback.",
        _efc(UNKNOWN, 599),
    ),
    (
        "unknown/default-status",
        "A status of no error class: the default fallback.",
        _efc(UNKNOWN, 200),
    ),
    (
        "unknown/empty-texts",
        "Empty texts of an unknown code: the fallback's.",
        _efc(UNKNOWN, 429, cause="", remediation=""),
    ),
    (
        "unknown/given-cause",
        "A given cause of an unknown code is sanitized.",
        _efc(UNKNOWN, 502, cause="password=hunter2 leaked"),
    ),
    (
        "base/catalogue-code",
        "The base class with a catalogue code: the catch-all, not that code.",
        _new(None, "rate_limited", 429),
    ),
    ("base/unknown-code", "The base class keeps an unknown code.", _new(None, UNKNOWN, 503)),
    (
        "base/hidden-catalogue-code",
        "The base class sanitizes its code.",
        _new(None, "rate\u200b_limited", 429),
    ),
    ("base/empty-code", "The base class with an empty code.", _new(None, "", 404)),
    (
        "base/code-empty-once-sanitized",
        "A code that sanitizing empties.",
        _new(None, "\u200b\u2066"),
    ),
    (
        "base/given-texts",
        "The base class has only the texts it is given.",
        _new(None, "not_found", message="", cause="gone", remediation="\u202eretry"),
    ),
    ("class/own", "A class without a code: its own.", _new("rate_limited", None, 503, message="")),
    (
        "class/own-given",
        "A class given its own code and a cause.",
        _new("rate_limited", "rate_limited", 429, cause="slow"),
    ),
    (
        "class/finer",
        "A class given a finer code keeps it, with the class's defaults.",
        _new("rate_limited", "rate_limited_burst", message=""),
    ),
    (
        "class/other-catalogue-code",
        "A class refuses another catalogue code.",
        _new("rate_limited", "not_found"),
    ),
    (
        "class/own-hidden",
        "A class refuses its own code hidden by an invisible character (a catalogue code once sanitized).",
        _new("rate_limited", "rate_limited\u200b"),
    ),
    (
        "class/empty-once-sanitized",
        "A class refuses a code that sanitizing empties.",
        _new("not_found", "\u200b"),
    ),
)
"""``error_for_code`` and constructor calls: name, what it shows, the call."""


def grpc_statuses(cat: Catalogue) -> list[Json]:
    """Every spelling of every gRPC status (number, decimal text, name, protocol name, float), and values next to them."""
    out: list[Json] = []
    for s in cat.grpc_gateway.statuses:
        out += [s.number, str(s.number), s.name, s.proto_name, float(s.number)]
    return [*out, -1, len(cat.grpc_gateway.statuses), 2**31, True, False, None, "Banana"]


def _slug(value: Json) -> str:
    return re.sub(r"[^a-z0-9]+", "-", repr(value).lower()).strip("-") or "empty"


def _expect(ref: Reference, call: dict[str, Json]) -> dict[str, Json]:
    [(op, arguments)] = call.items()
    want = answer(ref, {"op": op, **arguments})
    if want is None:
        return {"refused": True}
    shown = (
        ("class", "code")
        if op == "code_for_grpc"
        else ("class", "code", "status", "message", "cause", "remediation")
    )
    return {k: want[k] for k in shown if want[k] is not None}


def call_vectors(cat: Catalogue) -> list[dict[str, Json]]:
    """The vectors of every listed ``error_for_code`` and constructor call, and of every gRPC status on every channel."""
    ref = Reference(cat)
    out = []
    for name, description, call in ERROR_FOR_CODE:
        kind = "error-for-code" if "error_for_code" in call else "construct"
        out.append(
            {
                "name": f"{kind}/{name}",
                "description": description,
                "covers": [f"call:{next(iter(call))}"],
                "call": call,
                "expect": _expect(ref, call),
            }
        )
    channels: list[str | None] = [
        None,
        *(c.name for c in cat.grpc_gateway.channels),
        "no-such-channel",
    ]
    for index, status in enumerate(grpc_statuses(cat)):
        for channel in channels:
            call = {"code_for_grpc": {"status": status, "channel": channel}}
            out.append(
                {
                    "name": f"code-for-grpc/{index:03d}-{_slug(status)}/{channel or 'none'}",
                    "description": f"gRPC status {status!r} on channel {channel!r}.",
                    "covers": ["call:code_for_grpc"],
                    "call": call,
                    "expect": _expect(ref, call),
                }
            )
    return out
