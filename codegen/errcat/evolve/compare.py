"""Compare two validated catalogues and classify every change by :data:`~errcat.evolve.rules.RULES`.

Both sides are a loaded :class:`~errcat.source.document.Document` (for positions)
and its :class:`~errcat.model.catalogue.Catalogue` (for every derived name), so a
class renamed by a changed ``class_name`` and one renamed by a renamed code
are told apart by the same names the renderers print. Each part of the
catalogue is compared by key in dictionaries, so the work grows with the
size of the two catalogues, never with their product.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from errcat.evolve import cover, parts
from errcat.evolve.changes import Change, Changes, Prose, Side
from errcat.model.catalogue import Catalogue, ErrorCode
from errcat.names.languages import LANGUAGES
from errcat.source.document import KeyPath

__all__ = ["Change", "Side", "compare"]


def compare(old: Side, new: Side) -> list[Change]:
    """Every change from ``old`` to ``new``, classified, widest-reaching first.

    Both sides must be catalogues the validator accepted; the result is
    empty when they mean the same thing (comments and layout do not count).
    """
    changes = Changes(old, new)
    explained = _codes(changes)
    parts.globals_(changes)
    parts.exports(changes, explained)
    cover.report(changes)
    return sorted(set(changes.found), key=Change.sort_key)


def _by_code(cat: Catalogue) -> dict[str, ErrorCode]:
    return {entry.code: entry for entry in cat.codes}


def _renames(
    old: dict[str, ErrorCode], new: dict[str, ErrorCode], retired: set[str]
) -> dict[str, str]:
    """Pair removed codes (not retired) with added ones that look like them: old name -> new name.

    Two codes look alike when they share a class name, a message, a cause or a
    remediation; each added code pairs with one removed code at most.
    """
    added = [new[name] for name in sorted(new.keys() - old.keys())]
    index: dict[tuple[str, str], str] = {}
    for entry in added:
        for key in _likeness(entry):
            index.setdefault(key, entry.code)
    pairs: dict[str, str] = {}
    taken: set[str] = set()
    for name in sorted(old.keys() - new.keys() - retired):
        for key in _likeness(old[name]):
            match = index.get(key)
            if match is not None and match not in taken:
                pairs[name] = match
                taken.add(match)
                break
    return pairs


def _likeness(entry: ErrorCode) -> tuple[tuple[str, str], ...]:
    return (
        *((lang.key, entry.class_names[lang.key]) for lang in LANGUAGES),
        ("message", entry.message),
        ("cause", entry.cause),
        ("remediation", entry.remediation),
    )


def _codes(changes: Changes) -> set[str]:
    """Compare the codes; return the codes whose classes a reported change already explains."""
    old, new = _by_code(changes.old.cat), _by_code(changes.new.cat)
    retired = {r.code for r in changes.new.cat.retired}
    renames = _renames(old, new, retired)
    explained = set(renames) | set(renames.values())
    for name in sorted(old.keys() - new.keys()):
        if name in renames:
            changes.add("code-renamed", ("codes", renames[name]), old=name, new=renames[name])
        elif name not in retired:
            changes.add("code-removed", ("codes", name), removed=True, subject=name)
            explained.add(name)
    for name in sorted(new.keys() - old.keys() - set(renames.values())):
        entry = new[name]
        if entry.refines is None:
            changes.add("code-added", ("codes", name), subject=name)
        else:
            chain = Prose(", ".join(entry.chain))
            at = ("codes", name)
            changes.add("refined-code-added", at, subject=name, new=entry.refines, chain=chain)
    for name in sorted(old.keys() & new.keys()):
        explained |= _code(changes, old[name], new[name])
    return explained


_VALUE_RULES: tuple[tuple[str, KeyPath, Callable[[ErrorCode], object], str | None], ...] = (
    ("http-changed", ("http",), attrgetter("http"), None),
    ("grpc-changed", ("grpc",), attrgetter("grpc"), None),
    ("retryable-changed", ("retryable",), attrgetter("retryable"), None),
    ("recovery-action-changed", ("recovery", "action"), attrgetter("recovery.action"), None),
    (
        "same-arguments-changed",
        ("recovery", "same_arguments"),
        attrgetter("recovery.same_arguments"),
        None,
    ),
    ("side-effects-changed", ("side_effects",), attrgetter("side_effects"), None),
    ("classifier-changed", ("auth_failure",), attrgetter("auth_failure"), "auth_failure"),
    ("classifier-changed", ("cancelled",), attrgetter("cancelled"), "cancelled"),
    ("emitted-by-changed", ("emitted_by",), attrgetter("emitted_by"), None),
)
"""The per-code values each rule compares: rule, path under the code, value, field name."""

_TEXTS: tuple[tuple[KeyPath, Callable[[ErrorCode], object]], ...] = (
    (("message",), attrgetter("message")),
    (("cause",), attrgetter("cause")),
    (("remediation",), attrgetter("remediation")),
    (("recovery", "guidance"), attrgetter("recovery.guidance")),
    (("deprecated",), attrgetter("deprecated")),
    (("since",), attrgetter("since")),
)
"""The per-code texts (and notes) whose change is docs only."""


def _code(changes: Changes, old: ErrorCode, new: ErrorCode) -> set[str]:
    """Compare one code present on both sides; return it if its class was renamed."""
    at: KeyPath = ("codes", new.code)
    name = new.code
    for rule, under, get, field_name in _VALUE_RULES:
        extra = {"field": field_name} if field_name else {}
        changes.value(rule, (*at, *under), get(old), get(new), subject=name, **extra)
    old_origin = changes.old.raw("codes", name, "origin")
    new_origin = changes.new.raw("codes", name, "origin")
    changes.value("origin-changed", (*at, "origin"), old_origin, new_origin, subject=name)
    for under, get in _TEXTS:
        changes.text((*at, *under), get(old), get(new))
    _refines(changes, old, new)
    _context(changes, old, new)
    _constructors(changes, old, new)
    _surfaces(changes, old, new)
    renamed = False
    for language, before_class, after_class in (
        (lang.label, old.class_names[lang.key], new.class_names[lang.key]) for lang in LANGUAGES
    ):
        if before_class != after_class:
            renamed = True
            changes.add(
                "class-renamed",
                (*at, "class_name"),
                subject=name,
                language=language,
                old=before_class,
                new=after_class,
            )
    return {name} if renamed else set()


def _refines(changes: Changes, old: ErrorCode, new: ErrorCode) -> None:
    """A refinement added is new behaviour; one changed or removed moves the class."""
    if old.refines == new.refines:
        return
    where: KeyPath = ("codes", new.code, "refines")
    if old.refines is None:
        changes.add("refinement-added", where, subject=new.code, new=new.refines)
        return
    removed = new.refines is None
    changes.add(
        "class-moved",
        ("codes", old.code, "refines") if removed else where,
        removed=removed,
        subject=new.code,
        old=old.refines,
        new=new.refines or Prose("the base class"),
    )


def _context(changes: Changes, old: ErrorCode, new: ErrorCode) -> None:
    before = [f.name for f in old.context]
    after = [f.name for f in new.context]
    at: KeyPath = ("codes", new.code, "context")
    after_set = set(after)
    before_set = set(before)
    for index, name in enumerate(before):
        if name not in after_set:
            where = ("codes", old.code, "context", index)
            changes.add("context-field-removed", where, removed=True, subject=old.code, field=name)
    for index, name in enumerate(after):
        if name not in before_set:
            changes.add("context-field-added", (*at, index), subject=new.code, field=name)
    kept_before = [name for name in before if name in after_set]
    kept_after = [name for name in after if name in before_set]
    if kept_before != kept_after:
        changes.add("context-reordered", at, subject=new.code)


def _constructors(changes: Changes, old: ErrorCode, new: ErrorCode) -> None:
    """A server code's own constructor whose parameters (its context fields) changed.

    Only languages with such constructors (``Language.constructor_signature``);
    a code that stops or starts being a server code is ``emitted-by-changed``'s.
    """
    if old.sdk_local or new.sdk_local:
        return
    for lang in LANGUAGES:
        signature = lang.constructor_signature
        if signature is None:
            continue
        before = signature([(f.name, f.type) for f in old.context])
        after = signature([(f.name, f.type) for f in new.context])
        if before != after:
            changes.add(
                "constructor-changed",
                ("codes", new.code, "context"),
                subject=new.code,
                language=lang.label,
                name=Prose(old.class_names[lang.key]),
                old=Prose(before),
                new=Prose(after),
            )


def _surfaces(changes: Changes, old: ErrorCode, new: ErrorCode) -> None:
    before = {s.surface: s for s in old.surfaces}
    after = {s.surface: s for s in new.surfaces}
    at: KeyPath = ("codes", new.code, "surfaces")
    for name in sorted(before.keys() - after.keys()):
        where = ("codes", old.code, "surfaces", name)
        changes.add("surface-removed", where, removed=True, subject=old.code, field=name)
    for name in sorted(after.keys() - before.keys()):
        changes.add("surface-added", (*at, name), subject=new.code, field=name)
    for name in sorted(before.keys() & after.keys()):
        changes.text((*at, name, "message"), before[name].message, after[name].message)
        changes.text((*at, name, "remediation"), before[name].remediation, after[name].remediation)
