"""The gRPC-to-code direction of a catalogue: the model of ``grpc_gateway``.

A gateway in front of a gRPC service turns each gRPC status into one code of
the catalogue; a channel (the mTLS one of the controller-forkd path) answers
some statuses otherwise. The gRPC statuses themselves are the meta-schema's
``$defs/grpc_status`` enum, written in the order of their numbers, so the
number of a status is its position there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from errcat.metaschema import meta_enum


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
