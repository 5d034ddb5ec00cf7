"""The steps from each format to the next, as edits of the catalogue's text.

Each step derives what it can from the catalogue and writes it; where only a
person can decide, it writes a valid placeholder under a
``# TODO(errcat migrate): ...`` comment and records a :class:`Todo`. All
steps read the original document (they touch different keys), so one
:class:`~errcat.migrate.edits.Editor` holds them all and the text is edited
once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from errcat.metaschema import meta_enum, meta_schema
from errcat.migrate.edits import TODO, Editor
from errcat.migrate.formats import CURRENT, detect
from errcat.model.sanitizer import SIDE_CONDITIONS, lookaround_as_conditions
from errcat.model.sdk import ROLES
from errcat.source.document import Document, KeyPath, as_mapping
from errcat.wording import listing


@dataclass(frozen=True)
class Todo:
    """Something only a person can decide, marked in the migrated text.

    ``placeholder`` is true when a value was written that a person must
    check (it reaches the generated SDKs, and the notice of an in-memory
    read counts it), false when the comment only explains what the
    migration left out.
    """

    path: KeyPath
    message: str
    placeholder: bool


@dataclass(frozen=True)
class Migration:
    """The result of migrating one catalogue."""

    source: int
    """The format it was written in."""
    stated: bool
    """Whether it said so (a ``format`` key)."""
    text: str
    """The migrated text (the original when ``source`` is the current format)."""
    todos: tuple[Todo, ...]

    @property
    def changed(self) -> bool:
        """Whether the text changed."""
        return self.source < CURRENT


LEGACY_SDK_CODES: dict[str, dict[str, str]] = {
    "transport": {
        "failed": "connection_failed",
        "lost": "connection_lost",
        "timed_out": "response_timeout",
        "aborted": "canceled",
    },
    "validation": {"invalid": "invalid_input", "too_large": "timeout_too_large"},
    "exec_deadline": {"code": "exec_timeout"},
}
"""The codes the runtimes raised by themselves before format 3, by the role that names them now."""
LEGACY_EXIT_STATUS = 124
"""The exit status that meant the execution deadline before format 3."""


def legacy_sdk_section(codes: dict[str, Any]) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """The ``sdk`` section that keeps what the SDKs of format 2 did for ``codes``.

    A group is declared when every role it requires names a code of the
    catalogue with its role's status class (an optional role when its code
    is there too). Returns the section and, for each group left out, why.
    """
    groups = meta_schema()["properties"]["sdk"]["properties"]
    section: dict[str, dict[str, Any]] = {}
    left_out: list[str] = []
    for group, roles in ROLES.items():
        entry: dict[str, Any] = {}
        missing = []
        for role, status_class in roles.items():
            code = LEGACY_SDK_CODES[group][role]
            http = as_mapping(codes.get(code)).get("http")
            fits = isinstance(http, int) and http // 100 == status_class
            if fits:
                entry[role] = code
            elif role in groups[group]["required"]:
                missing.append(code)
        if missing:
            left_out.append(
                f"before format 3 the SDKs raised {listing(LEGACY_SDK_CODES[group].values())} "
                f"themselves; this catalogue has no {listing(missing)} of the role's status "
                f"class, so sdk.{group} is left out and the SDKs have no such helper"
            )
            continue
        if group == "exec_deadline":
            entry["exit_status"] = LEGACY_EXIT_STATUS
        section[group] = entry
    return section, left_out


Step = Callable[[Document, Editor, list[Todo]], None]


def _origin(doc: Document, editor: Editor, todos: list[Todo]) -> None:
    """1 -> 2: every code gets an origin; only a person knows which (placeholder)."""
    unknown = as_mapping(doc.data.get("unknown_code"))
    placeholder = unknown.get("origin", "runtime")
    choices = ", ".join(meta_enum("origin"))
    for code, spec in as_mapping(doc.data.get("codes")).items():
        if not isinstance(spec, dict) or "origin" in spec or not spec:
            continue
        path: KeyPath = ("codes", code)
        comment = (
            f"{TODO}: choose origin, where this failure arose ({placeholder} is a placeholder):",
            f"{choices}.",
        )
        editor.add(path, "origin", placeholder, comments=comment)
        todos.append(Todo((*path, "origin"), f"{code}: choose its origin", True))


def _sdk(doc: Document, editor: Editor, todos: list[Todo]) -> None:
    """2 -> 3: the sdk section, from the codes the SDKs raised themselves."""
    section, left_out = legacy_sdk_section(as_mapping(doc.data.get("codes")))
    comments = (
        "The codes the SDKs raise themselves, by role (errcat migrate derived",
        "them from the codes the SDKs raised before format 3).",
        *(f"{TODO}: {why}." for why in left_out),
    )
    block = []
    for group, entry in section.items():
        block.append(f"{group}:")
        block += [f"  {role}: {value}" for role, value in entry.items()]
    after = "fallback" if "fallback" in doc.data else None
    if block:
        editor.add((), "sdk", block=tuple(block), comments=comments, after=after)
    else:
        editor.add((), "sdk", raw="{}", comments=comments, after=after)
    todos += [Todo(("sdk",), why, False) for why in left_out]


def _dialect(doc: Document, editor: Editor, _todos: list[Todo]) -> None:
    """3 -> 4: the lookarounds of sanitizer patterns become side conditions."""
    sanitizer = as_mapping(doc.data.get("sanitizer"))
    for group in ("secrets", "injection"):
        rules = sanitizer.get(group)
        for index, rule in enumerate(rules if isinstance(rules, list) else []):
            if not isinstance(rule, dict) or not isinstance(rule.get("pattern"), str):
                continue
            path: KeyPath = ("sanitizer", group, index)
            converted = dict(rule)
            lookaround_as_conditions(converted)
            for key in ("prefix", "pattern"):
                if converted.get(key) != rule.get(key):
                    editor.replace((*path, key), converted[key])
            for key in SIDE_CONDITIONS:
                if key in converted and key not in rule:
                    editor.add(path, key, converted[key], after="pattern")


def _stated(doc: Document, editor: Editor, _todos: list[Todo]) -> None:
    """4 -> 5: the format key, and a sanitizer section that stays the whole sanitizer."""
    if "format" in doc.data:
        editor.replace(("format",), CURRENT)
    else:
        comment = (
            "The catalogue format this file is written in (docs/versioning.md);",
            "`python -m errcat migrate` rewrites an older catalogue in the current one.",
        )
        editor.add((), "format", CURRENT, comments=comment, first=True)
    sanitizer = doc.data.get("sanitizer")
    if isinstance(sanitizer, dict) and sanitizer and "standard" not in sanitizer:
        whole = ("This section is the whole sanitizer (not errcat's standard one).",)
        editor.add(("sanitizer",), "standard", False, comments=whole, first=True)


STEPS: dict[int, Step] = {1: _origin, 2: _sdk, 3: _dialect, 4: _stated}
"""The step from each format to the next."""


def migrate(doc: Document) -> Migration:
    """Migrate a loaded catalogue to the current format (its text, edited in place).

    The result is the original when the catalogue is already current; a
    catalogue of a newer format than errcat knows is left as it is (the
    caller reports it).
    """
    source, stated = detect(doc.data)
    if source >= CURRENT or not isinstance(doc.data, dict):
        return Migration(source, stated, doc.text, ())
    editor = Editor(doc)
    todos: list[Todo] = []
    for number in range(source, CURRENT):
        STEPS[number](doc, editor, todos)
    return Migration(source, stated, editor.result(), tuple(todos))
