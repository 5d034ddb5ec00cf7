"""The gRPC-to-code direction of a catalogue: the model of ``grpc_gateway`` and its checks.

A gateway in front of a gRPC service turns each gRPC status into one code of
the catalogue; a channel (the mTLS one of the controller-forkd path) answers
some statuses otherwise. The gRPC statuses themselves are the meta-schema's
``$defs/grpc_status`` enum, written in the order of their numbers, so the
number of a status is its position there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from errcat.metaschema import meta_enum
from errcat.source.document import KeyPath, as_mapping
from errcat.wording import quoted

if TYPE_CHECKING:
    from errcat.check.semantic import _Checker as SemanticChecker


@dataclass(frozen=True)
class GrpcStatus:
    """One gRPC status: its number, its name here (``Canceled``) and in the protocol (``CANCELLED``)."""

    number: int
    name: str
    proto_name: str


def _proto_name(name: str) -> str:
    """``InvalidArgument`` -> ``INVALID_ARGUMENT``; the protocol spells Canceled with two Ls."""
    if name == "Canceled":
        return "CANCELLED"
    return "".join(
        f"_{c}" if c.isupper() and i and name[i - 1].islower() else c for i, c in enumerate(name)
    ).upper()


def grpc_statuses() -> tuple[GrpcStatus, ...]:
    """Every gRPC status, by number (from the meta-schema's enum)."""
    return tuple(
        GrpcStatus(number, name, _proto_name(name))
        for number, name in enumerate(meta_enum("grpc_status"))
    )


@dataclass(frozen=True)
class GrpcOverride:
    """A status a channel answers with another code than the map, and why."""

    status: str
    code: str
    meaning: str


@dataclass(frozen=True)
class GrpcChannel:
    """A gRPC channel whose refusals a gateway answers in its own way."""

    name: str
    summary: str
    overrides: tuple[GrpcOverride, ...]


@dataclass(frozen=True)
class GrpcGateway:
    """The code a gateway answers for each gRPC status, per channel."""

    by_status: tuple[tuple[str, str], ...]
    """(status name, code), in status-number order."""
    default: str
    """The code of every other status, and of a value that is no gRPC status."""
    channels: tuple[GrpcChannel, ...]
    statuses: tuple[GrpcStatus, ...] = ()

    def code_for(self, status: str, channel: str | None = None) -> str:
        """The code of the status called ``status`` (a name) on ``channel`` (``None``: no channel)."""
        for chan in self.channels:
            if chan.name == channel:
                for override in chan.overrides:
                    if override.status == status:
                        return override.code
        return dict(self.by_status).get(status, self.default)


def build_gateway(raw: Any, fallback_default: str) -> GrpcGateway:
    """The model of a validated ``grpc_gateway`` section (absent: every status gets ``fallback_default``)."""
    statuses = grpc_statuses()
    order = {s.name: s.number for s in statuses}
    if raw is None:
        return GrpcGateway((), fallback_default, (), statuses)
    return GrpcGateway(
        by_status=tuple(sorted(raw["by_status"].items(), key=lambda item: order[item[0]])),
        default=raw["default"],
        channels=tuple(
            GrpcChannel(
                name=name,
                summary=chan["summary"],
                overrides=tuple(
                    GrpcOverride(status, o["code"], o["meaning"])
                    for status, o in sorted(chan["by_status"].items(), key=lambda i: order[i[0]])
                ),
            )
            for name, chan in sorted(raw.get("channels", {}).items())
        ),
        statuses=statuses,
    )


def check(checker: SemanticChecker) -> None:
    """The rules of ``grpc_gateway``: targets exist, carry their status, and no OK is mapped."""
    section = as_mapping(checker.data.get("grpc_gateway"))
    where = "the gRPC gateway map"
    for status, target in as_mapping(section.get("by_status")).items():
        path: KeyPath = ("grpc_gateway", "by_status", status)
        if _not_ok(checker, path, status):
            continue
        checker.reference(path, target, "unknown-grpc-target", where)
        spec = as_mapping(checker.codes.get(target)) if isinstance(target, str) else {}
        carried = spec.get("grpc")
        carried_ok = isinstance(target, str) and checker.ok(("codes", target, "grpc"))
        if isinstance(carried, str) and carried != status and checker.ok(path) and carried_ok:
            checker.add(
                path,
                "grpc-target-status",
                f"{quoted(target)} has the gRPC status {carried}, not {status}; "
                "a status maps to a code that carries it",
                f"name a code whose grpc is {status}, or remove {status} so the default answers it",
            )
    path = ("grpc_gateway", "default")
    checker.reference(path, section.get("default"), "unknown-grpc-target", where)
    for name, chan in as_mapping(section.get("channels")).items():
        for status, entry in as_mapping(as_mapping(chan).get("by_status")).items():
            path = ("grpc_gateway", "channels", name, "by_status", status)
            _not_ok(checker, path, status)
            target = as_mapping(entry).get("code")
            checker.reference((*path, "code"), target, "unknown-grpc-target", where)


def _not_ok(checker: SemanticChecker, path: KeyPath, status: str) -> bool:
    """Report an entry for OK; return whether it is one."""
    if status != "OK":
        return False
    if checker.ok(path):
        checker.add(
            path,
            "grpc-ok-mapped",
            "OK is the status of a call that succeeded; it has no error code",
            "remove the OK entry",
            at_key=True,
        )
    return True
