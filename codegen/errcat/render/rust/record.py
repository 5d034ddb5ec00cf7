"""The Rust crate's records and data, rendered from errcat's one definition of them.

``record.rs`` declares ``CodeSpec`` and ``Recovery`` with the fields of
:data:`errcat.model.record.CODE_SPEC` and :data:`errcat.model.record.RECOVERY`;
``catalogue.rs`` holds each code's spec, the catch-all, the limits, the
fallback and gRPC maps and the ``sdk`` roles; ``sanitizer_rules.rs`` the
sanitizer's tables. Every value here is already Rust source.
"""

from __future__ import annotations

from dataclasses import dataclass

from errcat.model.catalogue import Catalogue, CharRange, ErrorCode, TextRule
from errcat.model.prefilter import prefilter
from errcat.model.record import (
    ADVICE,
    BOOL,
    CODE_SPEC,
    EMITTED_BY,
    INT,
    NAMES,
    ORIGIN,
    RECOVERY,
    SIDE_EFFECTS,
    TEXT,
    Field,
    Value,
)
from errcat.model.sdk import ROLES
from errcat.names.languages import RUST
from errcat.names.rust_names import rust_code
from errcat.render.rust.syntax import doc, string, strings

TYPES: dict[str, str] = {
    TEXT: "&'static str",
    INT: "u16",
    BOOL: "bool",
    NAMES: "&'static [&'static str]",
    ADVICE: "Recovery",
    SIDE_EFFECTS: "&'static str",
    ORIGIN: "&'static str",
    EMITTED_BY: "&'static str",
}
"""How ``record.rs`` declares a field of each kind of :data:`errcat.model.record.KINDS`."""


@dataclass(frozen=True)
class RustField:
    """One field of a record struct."""

    name: str
    type: str
    doc: str


def _optional(f: Field) -> bool:
    """Whether the catch-all has no value for ``f`` (then every spec holds an ``Option``)."""
    from errcat.model.codes import Recovery, UnknownCode

    probe = UnknownCode(False, Recovery("", "", ""), "", "")
    return f.catch_all(probe, "") is None


def record_view() -> dict[str, tuple[RustField, ...]]:
    """The fields of ``CodeSpec`` and ``Recovery``."""
    spec = tuple(
        RustField(f.name, f"Option<{TYPES[f.kind]}>" if _optional(f) else TYPES[f.kind], doc(f.doc))
        for f in CODE_SPEC
    )
    advice = tuple(RustField(a.name, "&'static str", doc(a.doc)) for a in RECOVERY)
    return {"spec": spec, "recovery": advice}


def value(v: Value | None, optional: bool) -> str:
    """A field's value as Rust source."""
    if v is None:
        return "None"
    if isinstance(v, bool):
        out = "true" if v else "false"
    elif isinstance(v, int):
        out = str(v)
    elif isinstance(v, tuple):
        out = strings(v)
    elif isinstance(v, dict):
        members = ", ".join(f"{k}: {string(t)}" for k, t in v.items())
        out = f"Recovery {{ {members} }}"
    else:
        out = string(v)
    return f"Some({out})" if optional else out


def spec_members(entry: ErrorCode) -> tuple[tuple[str, str], ...]:
    """Each field of the code's spec and its value."""
    return tuple((f.name, value(f.read(entry, RUST.key), _optional(f))) for f in CODE_SPEC)


def catch_all_members(cat: Catalogue) -> tuple[tuple[str, str], ...]:
    """Each field of the catch-all spec (the catalogue's ``unknown_code``) and its value."""
    return tuple(
        (f.name, value(f.catch_all(cat.unknown, cat.base_class), _optional(f))) for f in CODE_SPEC
    )


def code_ref(cat: Catalogue, code: str) -> str:
    """``Code::Variant`` of a catalogue code."""
    entry = next(c for c in cat.codes if c.code == code)
    return rust_code(entry.class_names[RUST.key])


def _option_code(cat: Catalogue, code: str | None) -> str:
    return "None" if code is None else f"Some({code_ref(cat, code)})"


@dataclass(frozen=True)
class SdkGroup:
    """One group of the ``sdk`` section: its constant and each role's value."""

    constant: str
    declared: bool
    members: tuple[tuple[str, str], ...]


def _sdk(cat: Catalogue) -> tuple[SdkGroup, ...]:
    sdk = cat.sdk
    groups = []
    for group, roles in ROLES.items():
        given: dict[str, str | None] = (
            dict(getattr(sdk, group) or ()) if group != "exec_deadline" else {}
        )
        members: tuple[tuple[str, str], ...]
        if group == "exec_deadline":
            declared = sdk.exec_deadline is not None
            members = (
                (
                    ("code", code_ref(cat, sdk.exec_deadline[0])),
                    ("exit_status", str(sdk.exec_deadline[1])),
                )
                if sdk.exec_deadline is not None
                else ()
            )
        else:
            declared = bool(given)
            members = tuple((role, _option_code(cat, given.get(role))) for role in roles)
        groups.append(SdkGroup(f"SDK_{group.upper()}", declared, members))
    return tuple(groups)


def catalogue_view(cat: Catalogue) -> dict[str, object]:
    """What ``catalogue.rs`` shows besides the codes."""
    gw = cat.grpc_gateway
    return {
        "version": string(cat.version or ""),
        "contract_version": cat.contract_version,
        "base_class": string(cat.base_class),
        "limits": tuple(
            (name.upper(), number, doc(text)) for name, number, text in cat.limits.items()
        ),
        "refines_max": 16,
        "catch_all": catch_all_members(cat),
        "context_fields": strings(tuple(f.name for f in cat.context_fields)),
        "fallback": tuple((status, code_ref(cat, code)) for status, code in cat.fallback.by_status),
        "client_error": code_ref(cat, cat.fallback.client_error),
        "server_error": code_ref(cat, cat.fallback.server_error),
        "default": code_ref(cat, cat.fallback.default),
        "grpc_statuses": tuple(
            (s.number, string(s.name), string(s.proto_name)) for s in gw.statuses
        ),
        "grpc_map": tuple((string(status), code_ref(cat, code)) for status, code in gw.by_status),
        "grpc_default": code_ref(cat, gw.default),
        "grpc_channels": tuple(
            (
                string(ch.name),
                "&["
                + ", ".join(f"({string(o.status)}, {code_ref(cat, o.code)})" for o in ch.overrides)
                + "]",
            )
            for ch in gw.channels
        ),
        "sdk": _sdk(cat),
    }


@dataclass(frozen=True)
class RustRule:
    """One sanitizer rule as Rust source."""

    name: str
    prefix: str
    pattern: str
    not_after: str
    ahead: str
    followed_by: str
    prefix_not_followed_by: str
    triggers: str
    guards: str


def _rule(rule: TextRule, guards: tuple[str, ...]) -> RustRule:
    c = rule.conditions
    return RustRule(
        name=doc(rule.name),
        prefix=string(rule.portable_prefix),
        pattern=string(rule.portable_pattern),
        not_after=string(c.not_after),
        ahead=string(c.ahead),
        followed_by=string(c.followed_by),
        prefix_not_followed_by=string(c.prefix_not_followed_by),
        triggers=strings(rule.triggers),
        guards=strings(guards),
    )


def _ranges(ranges: tuple[CharRange, ...]) -> str:
    return "&[" + ", ".join(f"(0x{r.first:X}, 0x{r.last:X})" for r in ranges) + "]"


def sanitizer_view(cat: Catalogue) -> dict[str, object]:
    """What ``sanitizer_rules.rs`` shows."""
    san = cat.sanitizer
    plan = prefilter(cat)
    return {
        "unicode_version": string(san.unicode_version),
        "redaction": string(san.redaction),
        "filtered": string(san.filtered),
        "truncation_marker": string(san.truncation_marker),
        "remove": _ranges(san.remove),
        "remove_names": tuple(doc(r.name) for r in san.remove),
        "to_space": _ranges(san.to_space),
        "to_space_names": tuple(doc(r.name) for r in san.to_space),
        "secrets": tuple(
            _rule(r, plan.guards_of(i)) for i, r in enumerate(san.secrets, len(san.injection))
        ),
        "injection": tuple(_rule(r, plan.guards_of(i)) for i, r in enumerate(san.injection)),
    }
