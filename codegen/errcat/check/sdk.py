"""The rules of the ``sdk`` section: each code it names is a current code of its role's status class."""

from __future__ import annotations

from errcat.check.context import Context, reference
from errcat.model.sdk import ROLES
from errcat.source.document import KeyPath, as_mapping
from errcat.wording import quoted


def check(ctx: Context) -> None:
    """Each code the ``sdk`` section names exists, is not retired, and has an HTTP status in the
    class of its role (:data:`errcat.model.sdk.ROLES`)."""
    section = ctx.section("sdk")
    for group, roles in ROLES.items():
        entry = as_mapping(section.get(group))
        for role, status_class in roles.items():
            path: KeyPath = ("sdk", group, role)
            target = entry.get(role)
            reference(ctx, path, target, "unknown-sdk-code", "the sdk section")
            if not isinstance(target, str) or not ctx.ok(path):
                continue
            http = as_mapping(ctx.codes.get(target)).get("http")
            if type(http) is not int or not ctx.ok(("codes", target, "http")):
                continue
            if http // 100 != status_class:
                ctx.add(
                    path,
                    "sdk-code-status",
                    f"{quoted(target)} has the HTTP status {http}; the code of this role "
                    f"is a {status_class}xx code",
                    f"name a code whose http is a {status_class}xx status, or give "
                    f"{quoted(target)} one",
                )
