"""The catalogue-wide parts of ``errcat diff``: packages, limits, context fields,
fallback, the SDK-made codes, retired codes, the unknown-code advice, families, the sanitizer and
the SDKs' exported names. :mod:`errcat.evolve.compare` compares the codes and calls these.
"""

from __future__ import annotations

from collections.abc import Iterable

from errcat.evolve.changes import Changes, Prose, show
from errcat.model.catalogue import Catalogue, CharRange, ContextField, Fallback, TextRule
from errcat.model.sdk import SdkCodes
from errcat.names import naming
from errcat.names.languages import LANGUAGES, Language
from errcat.source.document import KeyPath

CEILING = "max_exec_timeout_s"
"""The limit callers rely on: lowering it rejects timeouts deployed SDKs accept."""


def globals_(changes: Changes) -> None:
    """Compare every part of the catalogue outside ``codes``."""
    _identity(changes)
    _limits(changes)
    _context_fields(changes)
    _fallback(changes)
    _sdk(changes)
    _grpc_gateway(changes)
    _conditions(changes)
    _retired(changes)
    _unknown(changes)
    _families(changes)
    _sanitizer(changes)


def _identity(changes: Changes) -> None:
    old, new = changes.old.cat, changes.new.cat
    changes.value(
        "contract-version-changed",
        ("contract_version",),
        old.contract_version,
        new.contract_version,
    )
    changes.value("base-class-renamed", ("base_class",), old.base_class, new.base_class)
    for lang in LANGUAGES:
        named_now = changes.new.raw("packages", lang.key) is not None
        if named_now and changes.old.raw("packages", lang.key) is None:
            # The old catalogue left the names to their default, perhaps from a time its
            # SDKs had no such language: naming them now is not a rename anybody installed.
            continue
        for field in lang.package_fields:
            before, after = old.packages[lang.key][field], new.packages[lang.key][field]
            path = ("packages", lang.key, field)
            changes.value(
                "package-renamed", path, before, after, language=lang.label, subject=field
            )
    old_version = changes.old.raw("version")
    if old_version is not None and changes.new.raw("version") is None:
        changes.add("version-removed", ("version",), removed=True, old=old_version)
    changes.text(("api", "name"), old.api_name, new.api_name)
    changes.text(("api", "summary"), old.api_summary, new.api_summary)
    changes.text(("api", "url"), old.url, new.url)


def _limits(changes: Changes) -> None:
    old = vars(changes.old.cat.limits)
    new = vars(changes.new.cat.limits)
    for name in sorted(old.keys() & new.keys()):
        before, after = old[name], new[name]
        if before == after:
            continue
        path = ("limits", name)
        if before is None or after is None:  # a limit only some APIs have, added or removed
            changes.add(
                "limit-changed", path, subject=name, old=before or "none", new=after or "none"
            )
        elif name != CEILING:
            changes.add("limit-changed", path, subject=name, old=before, new=after)
        elif after < before:
            changes.add("timeout-ceiling-lowered", path, old=before, new=after)
        else:
            changes.add("timeout-ceiling-raised", path, old=before, new=after)


def _context_fields(changes: Changes) -> None:
    old = {f.name: f for f in changes.old.cat.context_fields}
    new = {f.name: f for f in changes.new.cat.context_fields}
    carried: dict[str, list[str]] = {}
    for entry in changes.new.cat.codes:
        for carried_field in entry.context:
            carried.setdefault(carried_field.name, []).append(entry.code)
    for name in sorted(new.keys() - old.keys()):
        changes.add("context-field-defined", ("context_fields", name), subject=name)
    for name in sorted(old.keys() & new.keys()):
        at: KeyPath = ("context_fields", name)
        before, after = old[name], new[name]
        codes = carried.get(name, [])
        if before.type != after.type and codes:
            changes.add(
                "context-type-changed",
                (*at, "type"),
                subject=name,
                old=before.type,
                new=after.type,
                codes=Prose(", ".join(codes)),
            )
        elif before.type != after.type:
            changes.text((*at, "type"), before.type, after.type)
        changes.text((*at, "meaning"), before.meaning, after.meaning)
        changes.text((*at, "example"), before.example, after.example)
        _bounds(changes, at, before, after)


def _bounds(changes: Changes, at: KeyPath, before: ContextField, after: ContextField) -> None:
    """A bound added or tightened rejects values it accepted; one removed or loosened, the reverse."""
    for key, sign in (("minimum", 1), ("maximum", -1)):
        old, new = getattr(before, key), getattr(after, key)
        if old == new:
            continue
        narrowed = old is None or (new is not None and (new - old) * sign > 0)
        rule = "context-bound-narrowed" if narrowed else "context-bound-widened"
        values = {"old": Prose("none") if old is None else old}
        values["new"] = Prose("none") if new is None else new
        changes.add(
            rule, (*at, key), removed=new is None, subject=at[-1], bound=Prose(key), **values
        )


def _targets(fallback: Fallback) -> dict[str, str]:
    """The code each status falls back to, plus the class and default targets."""
    targets = {str(status): code for status, code in fallback.by_status}
    targets["4xx"] = fallback.client_error
    targets["5xx"] = fallback.server_error
    targets["default"] = fallback.default
    return targets


def _class_target(fallback: Fallback, status: str) -> str:
    first = status[:1]
    if first == "4":
        return fallback.client_error
    if first == "5":
        return fallback.server_error
    return fallback.default


def _fallback(changes: Changes) -> None:
    old_fb, new_fb = changes.old.cat.fallback, changes.new.cat.fallback
    old, new = _targets(old_fb), _targets(new_fb)
    classes = {"4xx": "by_class", "5xx": "by_class", "default": None}
    for status in sorted(old.keys() | new.keys()):
        before = old.get(status) or _class_target(old_fb, status)
        after = new.get(status) or _class_target(new_fb, status)
        if before == after:
            continue
        section = classes.get(status, "by_status")
        path: KeyPath = ("fallback", section, status) if section else ("fallback", status)
        changes.add("fallback-changed", path, subject=status, old=before, new=after)


def _sdk_codes(sdk: SdkCodes) -> dict[tuple[str, str], str]:
    """Each role the ``sdk`` section gives a code, by (group, role)."""
    named = {("transport", r): c for r, c in sdk.transport if c is not None}
    named |= {("validation", r): c for r, c in sdk.validation if c is not None}
    if sdk.exec_deadline is not None:
        named["exec_deadline", "code"] = sdk.exec_deadline[0]
    return named


def _sdk(changes: Changes) -> None:
    old_sdk, new_sdk = changes.old.cat.sdk, changes.new.cat.sdk
    old, new = _sdk_codes(old_sdk), _sdk_codes(new_sdk)
    for group, role in sorted(old.keys() | new.keys()):
        before, after = old.get((group, role)), new.get((group, role))
        subject = Prose(f"sdk.{group}.{role}")
        if before is None:
            changes.add("sdk-code-added", ("sdk", group, role), subject=subject, new=after)
        elif before != after:
            changes.add(
                "sdk-code-changed",
                ("sdk", group, role),
                removed=after is None,
                subject=subject,
                old=before,
                new=after,
            )
    if old_sdk.exec_deadline is not None and new_sdk.exec_deadline is not None:
        changes.value(
            "sdk-exit-status-changed",
            ("sdk", "exec_deadline", "exit_status"),
            old_sdk.exec_deadline[1],
            new_sdk.exec_deadline[1],
        )


def _grpc_gateway(changes: Changes) -> None:
    if changes.old.raw("grpc_gateway") is None and changes.new.raw("grpc_gateway") is not None:
        changes.add("grpc-gateway-added", ("grpc_gateway",))
        return
    old, new = changes.old.cat.grpc_gateway, changes.new.cat.grpc_gateway
    channels = sorted({c.name for c in old.channels} | {c.name for c in new.channels})
    overridden = {
        c.name: {
            o.status
            for c2 in (*old.channels, *new.channels)
            if c2.name == c.name
            for o in c2.overrides
        }
        for c in (*old.channels, *new.channels)
    }
    for channel in (None, *channels):
        for status in (s.name for s in new.statuses):
            before, after = old.code_for(status, channel), new.code_for(status, channel)
            # a channel's line only for the statuses it answers itself; the map's line covers the rest
            if before == after or (channel is not None and status not in overridden[channel]):
                continue
            path: KeyPath = ("grpc_gateway", "by_status", status)
            if channel is not None:
                path = ("grpc_gateway", "channels", channel, "by_status", status, "code")
            on = Prose(f" on the {channel} channel" if channel else "")
            changes.add(
                "grpc-gateway-changed", path, subject=status, old=before, new=after, channel=on
            )
    for chan in new.channels:
        before_summary = next((c.summary for c in old.channels if c.name == chan.name), None)
        if before_summary is not None:
            changes.text(
                ("grpc_gateway", "channels", chan.name, "summary"), before_summary, chan.summary
            )


def _conditions(changes: Changes) -> None:
    """The condition cross-reference is documentation: each change is a text change."""
    old = {c.name: c for c in changes.old.cat.conditions}
    new = {c.name: c for c in changes.new.cat.conditions}
    for name in sorted(old.keys() | new.keys()):
        before, after = old.get(name), new.get(name)
        for key in ("codes", "where", "read"):
            changes.text(
                ("conditions", name, key), getattr(before, key, None), getattr(after, key, None)
            )


def _retired(changes: Changes) -> None:
    old = {r.code: r for r in changes.old.cat.retired}
    new = {r.code: r for r in changes.new.cat.retired}
    for name in sorted(new.keys() - old.keys()):
        changes.add("code-retired", ("retired", name), subject=name)
    for name in sorted(old.keys() - new.keys()):
        changes.add("retirement-withdrawn", ("retired", name), removed=True, subject=name)
    for name in sorted(old.keys() & new.keys()):
        at = ("retired", name)
        changes.text((*at, "reason"), old[name].reason, new[name].reason)
        changes.text((*at, "replaced_by"), old[name].replaced_by, new[name].replaced_by)


def _unknown(changes: Changes) -> None:
    old, new = changes.old.cat.unknown, changes.new.cat.unknown
    at: KeyPath = ("unknown_code",)
    for key, before, after in (
        ("retryable", old.retryable, new.retryable),
        ("recovery.action", old.recovery.action, new.recovery.action),
        ("recovery.same_arguments", old.recovery.same_arguments, new.recovery.same_arguments),
        ("side_effects", old.side_effects, new.side_effects),
        ("origin", old.origin, new.origin),
    ):
        path = (*at, *key.split("."))
        changes.value("unknown-advice-changed", path, before, after, field=key)
    changes.text((*at, "recovery", "guidance"), old.recovery.guidance, new.recovery.guidance)


def _families(changes: Changes) -> None:
    old = {f.name: f for f in changes.old.cat.families}
    new = {f.name: f for f in changes.new.cat.families}
    for name in sorted(new.keys() - old.keys()):
        changes.add("family-changed", ("families", name), subject=name, new=Prose("was added"))
    for name in sorted(old.keys() - new.keys()):
        where = ("families", name)
        changes.add("family-changed", where, removed=True, subject=name, new=Prose("was removed"))
    for name in sorted(old.keys() & new.keys()):
        at = ("families", name)
        if old[name].codes != new[name].codes:
            changes.add(
                "family-changed", (*at, "codes"), subject=name, new=Prose("lists other codes")
            )
        changes.text((*at, "title"), old[name].title, new[name].title)
        changes.text((*at, "summary"), old[name].summary, new[name].summary)


def _sanitizer(changes: Changes) -> None:
    old, new = changes.old.cat.sanitizer, changes.new.cat.sanitizer
    at: KeyPath = ("sanitizer",)
    for key in ("redaction", "filtered", "truncation_marker"):
        if getattr(old, key) != getattr(new, key):
            changes.add("sanitizer-changed", (*at, key), subject=key, new=Prose("changed"))
    for key in ("remove", "to_space"):
        before: tuple[CharRange, ...] = getattr(old, key)
        after: tuple[CharRange, ...] = getattr(new, key)
        if _spans(before) != _spans(after):
            changes.add(
                "sanitizer-changed", (*at, key), subject=key, new=Prose("covers other characters")
            )
    for key in ("secrets", "injection"):
        _text_rules(changes, key, getattr(old, key), getattr(new, key))


def _spans(ranges: Iterable[CharRange]) -> list[tuple[int, int]]:
    return sorted((r.first, r.last) for r in ranges)


def _text_rules(
    changes: Changes, key: str, old_rules: tuple[TextRule, ...], new_rules: tuple[TextRule, ...]
) -> None:
    old = {r.name: (i, r) for i, r in enumerate(old_rules)}
    new = {r.name: (i, r) for i, r in enumerate(new_rules)}
    for name in sorted(new.keys() - old.keys()):
        where = ("sanitizer", key, new[name][0])
        changes.add(
            "sanitizer-changed",
            where,
            subject=Prose(f"the {key} rule {show(name)}"),
            new=Prose("was added"),
        )
    for name in sorted(old.keys() - new.keys()):
        where = ("sanitizer", key, old[name][0])
        subject = Prose(f"the {key} rule {show(name)}")
        changes.add(
            "sanitizer-changed", where, removed=True, subject=subject, new=Prose("was removed")
        )
    for name in sorted(old.keys() & new.keys()):
        index, rule = new[name]
        before = old[name][1]
        if (before.prefix, before.pattern, before.triggers) != (
            rule.prefix,
            rule.pattern,
            rule.triggers,
        ):
            where = ("sanitizer", key, index)
            changes.add(
                "sanitizer-changed",
                where,
                subject=Prose(f"the {key} rule {show(name)}"),
                new=Prose("changed"),
            )
    if [r.name for r in old_rules if r.name in new] != [r.name for r in new_rules if r.name in old]:
        changes.add(
            "sanitizer-changed",
            ("sanitizer", key),
            subject=Prose(f"the {key} rules"),
            new=Prose("run in another order"),
        )


def _exported(cat: Catalogue, lang: Language) -> dict[str, str | None]:
    """The generated names an SDK exports, each with the code it belongs to (``None``: none)."""
    names: dict[str, str | None] = {cat.base_class: None}
    if lang.exports_known_union:
        names[naming.known_type_name(cat.base_class)] = None
    for entry in cat.codes:
        name = entry.class_names[lang.key]
        for exported in lang.class_exports(name) if lang.class_exports else (name,):
            names[exported] = entry.code
        if entry.context and lang.context_types:
            names[naming.context_type_name(name)] = entry.code
    return names


def exports(changes: Changes, explained: set[str]) -> None:
    """Report generated names an SDK no longer exports, unless a reported change explains them.

    A renamed or removed code, a renamed class and a renamed base class are
    reported by their own rules; what is left (a retired code's classes, the
    context type of a code that lost all its context) is reported here, one
    change per code and language.
    """
    base_renamed = changes.old.cat.base_class != changes.new.cat.base_class
    new_codes = {entry.code for entry in changes.new.cat.codes}
    for lang in LANGUAGES:
        old = _exported(changes.old.cat, lang)
        new = _exported(changes.new.cat, lang)
        gone: dict[str | None, list[str]] = {}
        for name, owner in old.items():
            if name in new or owner in explained or (owner is None and base_renamed):
                continue
            gone.setdefault(owner, []).append(name)
        for owner, names in sorted(gone.items(), key=lambda item: str(item[0])):
            removed = owner not in new_codes
            path: KeyPath = ("base_class",)
            if owner is not None:
                path = ("codes", owner) if removed else ("codes", owner, "context")
            subject = Prose(", ".join(sorted(names)))
            changes.add(
                "export-removed", path, removed=removed, language=lang.label, subject=subject
            )
