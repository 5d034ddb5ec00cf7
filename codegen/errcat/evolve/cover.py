"""What ``errcat diff`` compares, and a change to anything else.

:data:`COVERED` names every part of a catalogue that a rule compares (``*``
stands for any code, field or family name). A value anywhere else that
changes is reported as ``unclassified-change`` at wire level: a key the
meta-schema gained and no rule knows yet counts as breaking until a rule
says otherwise. A test checks that every key of the meta-schema is covered.
"""

from __future__ import annotations

from typing import Any

from errcat.evolve.changes import Changes, Prose
from errcat.model.package import OVERLAY_KEY, PACKAGE_METADATA
from errcat.names.languages import LANGUAGES
from errcat.source.document import KeyPath, format_path

Cover = dict[str, "Cover | bool"]

_RECOVERY: Cover = {"action": True, "same_arguments": True, "guidance": True}
COVERED: Cover = {
    "contract_version": True,
    "version": True,
    "api": {"name": True, "summary": True, "url": True, **dict.fromkeys(PACKAGE_METADATA, True)},
    "packages": {
        **{lang.key: dict.fromkeys(lang.package_fields, True) for lang in LANGUAGES},
        OVERLAY_KEY: True,  # package metadata: no SDK, server or wire sees it
    },
    "base_class": True,
    "limits": True,
    "context_fields": {
        "*": {"type": True, "meaning": True, "example": True, "minimum": True, "maximum": True}
    },
    "codes": {
        "*": {
            "emitted_by": True,
            "message": True,
            "cause": True,
            "remediation": True,
            "http": True,
            "grpc": True,
            "context": True,
            "class_name": True,
            "refines": True,
            "retryable": True,
            "auth_failure": True,
            "cancelled": True,
            "recovery": _RECOVERY,
            "side_effects": True,
            "origin": True,
            "surfaces": True,
            "since": True,
            "deprecated": True,
        }
    },
    "unknown_code": {
        "retryable": True,
        "recovery": _RECOVERY,
        "side_effects": True,
        "origin": True,
    },
    "format": True,  # both sides are read in the current format (errcat.migrate.upgrade)
    "fallback": True,
    "sdk": True,
    "conditions": True,
    "grpc_gateway": {
        "by_status": True,
        "default": True,
        "channels": {"*": {"summary": True, "by_status": {"*": {"code": True, "meaning": True}}}},
    },
    "families": True,
    "retired": True,
    "sanitizer": True,
}
"""Every part a rule compares; ``True`` covers the whole value below the key."""


def uncovered(old: Any, new: Any, cover: Cover = COVERED, path: KeyPath = ()) -> list[KeyPath]:
    """Paths outside :data:`COVERED` whose values differ between ``old`` and ``new``.

    An entry of a covered kind (a code, a field) that is added or removed is
    left to the rules; every key is visited once, so the work is the size of the data.
    """
    if not isinstance(old, dict) or not isinstance(new, dict):
        return [] if old == new else [path]
    found: list[KeyPath] = []
    for key in sorted(old.keys() | new.keys()):
        below = cover.get(key, cover.get("*"))
        if below is True:
            continue
        before, after = old.get(key), new.get(key)
        if not isinstance(below, dict):
            if before != after:
                found.append((*path, key))
        elif isinstance(before, dict) and isinstance(after, dict):
            found += uncovered(before, after, below, (*path, key))
        # else: a covered entry added or removed, which the rules for its parent report
    return found


def report(changes: Changes) -> None:
    """Report every change outside :data:`COVERED` as ``unclassified-change``."""
    for path in uncovered(changes.old.doc.data, changes.new.doc.data):
        removed = changes.new.doc.key_marks.get(path) is None
        changes.add("unclassified-change", path, removed=removed, subject=Prose(format_path(path)))
