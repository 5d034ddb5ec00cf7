"""The rules of ``grpc_gateway``: each target is a current code that carries its status, and OK maps to nothing.

And :func:`reasons`: every code can be the reason of a gRPC ``ErrorInfo``,
which the Go package's gRPC module sends as it is.
"""

from __future__ import annotations

import re

from errcat.check.context import Context, reference
from errcat.source.document import KeyPath, as_mapping
from errcat.wording import quoted


def check(ctx: Context) -> None:
    """The rules of ``grpc_gateway``: targets exist, carry their status, and no OK is mapped."""
    section = ctx.section("grpc_gateway")
    where = "the gRPC gateway map"
    for status, target in as_mapping(section.get("by_status")).items():
        path: KeyPath = ("grpc_gateway", "by_status", status)
        if _not_ok(ctx, path, status):
            continue
        reference(ctx, path, target, "unknown-grpc-target", where)
        spec = as_mapping(ctx.codes.get(target)) if isinstance(target, str) else {}
        carried = spec.get("grpc")
        carried_ok = isinstance(target, str) and ctx.ok(("codes", target, "grpc"))
        if isinstance(carried, str) and carried != status and ctx.ok(path) and carried_ok:
            ctx.add(
                path,
                "grpc-target-status",
                f"{quoted(target)} has the gRPC status {carried}, not {status}; "
                "a status maps to a code that carries it",
                f"name a code whose grpc is {status}, or remove {status} so the default answers it",
            )
    path = ("grpc_gateway", "default")
    reference(ctx, path, section.get("default"), "unknown-grpc-target", where)
    for name, chan in as_mapping(section.get("channels")).items():
        for status, entry in as_mapping(as_mapping(chan).get("by_status")).items():
            path = ("grpc_gateway", "channels", name, "by_status", status)
            _not_ok(ctx, path, status)
            target = as_mapping(entry).get("code")
            reference(ctx, (*path, "code"), target, "unknown-grpc-target", where)


def _not_ok(ctx: Context, path: KeyPath, status: str) -> bool:
    """Report an entry for OK; return whether it is one."""
    if status != "OK":
        return False
    if ctx.ok(path):
        ctx.add(
            path,
            "grpc-ok-mapped",
            "OK is the status of a call that succeeded; it has no error code",
            "remove the OK entry",
            at_key=True,
        )
    return True


REASON_MAX = 63
"""The longest ErrorInfo reason AIP-193 allows."""
_REASON = re.compile(r"[A-Z][A-Z0-9_]+[A-Z0-9]\Z")
"""AIP-193's reason pattern, which a code (sent as it is, lower case) must match once upper-cased."""


def reasons(ctx: Context) -> None:
    """Every code can be an AIP-193 ErrorInfo reason: 3 to 63 characters, ending in a letter or digit.

    The code format (the meta-schema's lower snake_case, at most 64
    characters; ``code-name``) already gives the characters: a letter first,
    then letters, digits and ``_``. What it does not give is checked here:
    AIP-193's length (at most 63, at least 3) and its last character (not
    ``_``). The gRPC module sends the code itself as the reason, so a reader
    maps the reason back to the code without a table.
    """
    for code in ctx.codes:
        if not isinstance(code, str) or not ctx.ok(("codes", code)):
            continue
        upper = code.upper()
        if not re.fullmatch(r"[A-Z][A-Z0-9_]*", upper) or _REASON.match(upper):
            continue
        why = (
            f"is {len(code)} characters long, more than {REASON_MAX}"
            if len(code) > REASON_MAX
            else "ends in _"
            if code.endswith("_")
            else "is shorter than 3 characters"
        )
        ctx.add(
            ("codes", code),
            "grpc-reason",
            f"the code {quoted(code)} {why}, so it cannot be the reason of a gRPC ErrorInfo (AIP-193)",
            f"rename it to 3 to {REASON_MAX} characters of a-z, 0-9 and _, ending in a letter or digit",
            at_key=True,
        )
