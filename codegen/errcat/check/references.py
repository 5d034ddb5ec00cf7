"""The rules on names that point elsewhere: context fields, the fallback map, families.

Every context field a code carries is defined under ``context_fields``;
every code the fallback map or a family names is a current code. A standard
status the fallback map leaves out gets errcat's default
(:mod:`errcat.model.defaults`).
"""

from __future__ import annotations

from errcat.check.context import Context, reference
from errcat.source.document import KeyPath, as_mapping
from errcat.wording import close_match, quoted


def context_fields(ctx: Context) -> None:
    """Every context field a code lists is defined under ``context_fields``."""
    fields = ctx.section("context_fields")
    for code, spec in ctx.codes.items():
        items = as_mapping(spec).get("context")
        for index, name in enumerate(items if isinstance(items, list) else []):
            path = ("codes", code, "context", index)
            if not isinstance(name, str) or name in fields or not ctx.ok(path):
                continue
            guess = close_match(name, fields)
            ctx.add(
                path,
                "undefined-context-field",
                f"the context field {quoted(name)} is not defined under context_fields",
                f"write {quoted(guess)}"
                if guess
                else f"define {name} under context_fields, or remove it from this list",
            )


def fallback(ctx: Context) -> None:
    """The fallback map names real statuses and current codes."""
    section = ctx.section("fallback")
    by_status = section.get("by_status")
    where = "the fallback map"
    if isinstance(by_status, dict) and ctx.ok(("fallback", "by_status")):
        for status, target in by_status.items():
            path: KeyPath = ("fallback", "by_status", status)
            if not ctx.ok(path):
                continue
            if not (status.isascii() and status.isdigit() and 100 <= int(status) <= 599):
                ctx.add(
                    path,
                    "invalid-status",
                    f"{quoted(status)} is not an HTTP status from 100 to 599",
                    'write a status such as "503"',
                    at_key=True,
                )
            reference(ctx, path, target, "unknown-fallback-target", where)
    for key, target in as_mapping(section.get("by_class")).items():
        reference(ctx, ("fallback", "by_class", key), target, "unknown-fallback-target", where)
    default = section.get("default")
    reference(ctx, ("fallback", "default"), default, "unknown-fallback-target", where)


def families(ctx: Context) -> None:
    """Every code a family lists is a current code."""
    for family, entry in ctx.section("families").items():
        codes = as_mapping(entry).get("codes")
        for index, code in enumerate(codes if isinstance(codes, list) else []):
            path = ("families", family, "codes", index)
            reference(ctx, path, code, "unknown-family-code", "a family")
