"""The reference's answer to the SDK calls other than reading a response (docs/sdk-contract.md, 3 and 3a).

``error_for_code``, a constructor, and ``code_for_grpc`` (whose code the
testees turn into ``error_for_code(code, "")``), written from the contract
over :class:`~testkit.reference.Reference`: what the error's fields are, or
``None`` when the contract says the call is refused.
"""

from __future__ import annotations

from typing import Any

from testkit.reference import Reference

Json = Any
Record = dict[str, Json]


def _texts(
    ref: Reference, given: dict[str, Json], defaults: Any, *, empty_once_clean: bool
) -> Record:
    """Each text sanitized without a token when given (not empty), else the default's.

    With ``empty_once_clean`` (a constructor) a text that sanitizing empties
    also takes the default.
    """
    out: Record = {}
    for name in ("message", "cause", "remediation"):
        default = getattr(defaults, name) if defaults is not None else ""
        clean = ref.sanitize(given.get(name) or "")
        out[name] = clean if given.get(name) and (clean or not empty_once_clean) else default
    return out


def error_for_code(ref: Reference, call: dict[str, Json]) -> Record:
    """``error_for_code``: a catalogue code's own class and texts, else the base class with the status fallback's texts.

    The code is sanitized first; one that is empty once sanitized is a code the
    catalogue does not define (the base class: the status picks texts, not the class).
    """
    cat = ref.cat
    code: str = ref.sanitize(call["code"])
    status = call.get("status")
    entry = next((c for c in cat.codes if c.code == code), None)
    if entry is not None:
        defaults = entry
    elif status is None:
        defaults = cat.code(cat.fallback.default)
    else:
        defaults = ref.fallback(status)
    return {
        **ref.classify(entry),
        "code": code,
        "status": status,
        **_texts(ref, call, defaults, empty_once_clean=False),
        "context": {},
        "request_id": None,
        "retry_after_ms": None,
    }


def construct(ref: Reference, call: dict[str, Json]) -> Record | None:
    """A constructor: its own class's texts and classification, or ``None`` when the code is refused."""
    cat = ref.cat
    entry = cat.code(call["class"]) if call.get("class") is not None else None
    given = call.get("code")
    if entry is not None and given in (None, entry.code):
        code = entry.code
    else:
        code = ref.sanitize(given or "")
        if entry is not None and (not code or any(c.code == code for c in cat.codes)):
            return None
    return {
        **ref.classify(entry),
        "code": code,
        "status": call.get("status"),
        **_texts(ref, call, entry, empty_once_clean=True),
        "context": {},
        "request_id": None,
        "retry_after_ms": None,
    }


def code_for_grpc(ref: Reference, call: dict[str, Json]) -> Record | None:
    """``error_for_code(code_for_grpc(status, channel), "")``; ``None`` for a channel the catalogue lacks."""
    channel = call.get("channel")
    if channel is not None and channel not in {c.name for c in ref.cat.grpc_gateway.channels}:
        return None
    code = ref.code_for_grpc(call["status"], channel)
    return error_for_code(ref, {"code": code, "message": ""})


CALLS = {"error_for_code": error_for_code, "construct": construct, "code_for_grpc": code_for_grpc}
"""Each call a call vector may make, with the reference's answer to it."""


def answer(ref: Reference, call: dict[str, Json]) -> Record | None:
    """The reference's answer to ``call`` (``{"op": ..., arguments}``): the fields, or ``None`` when refused."""
    arguments = {k: v for k, v in call.items() if k != "op"}
    return CALLS[call["op"]](ref, arguments)
