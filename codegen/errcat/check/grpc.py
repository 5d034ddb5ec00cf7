"""The rules of ``grpc_gateway``: each target is a current code that carries its status, and OK maps to nothing."""

from __future__ import annotations

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
