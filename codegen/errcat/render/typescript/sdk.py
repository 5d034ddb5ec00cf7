"""The TypeScript SDK's view of the catalogue's ``sdk`` section: the codes it raises itself.

``catalogue.ts`` gets one constant per group (``SDK_TRANSPORT``,
``SDK_VALIDATION``, ``SDK_EXEC_DEADLINE``), typed with its codes' literal
types, or ``undefined`` when the catalogue leaves the group out;
``helpers.ts`` re-exports the helpers of ``local.ts`` the declared groups
enable.
"""

from __future__ import annotations

from dataclasses import dataclass

from errcat.model.catalogue import Catalogue
from errcat.model.sdk import ROLES, SdkCodes
from errcat.render.typescript.syntax import string_literal, ts_identifier


@dataclass(frozen=True)
class TsSdkGroup:
    """One group of the catalogue's ``sdk`` section as a constant of ``catalogue.ts``."""

    constant: str
    doc: str
    members: tuple[tuple[str, str], ...]
    """Each role's camelCase key and its value's literal (``never`` when the group is not declared)."""
    declared: bool


_SDK_DOCS = {
    "transport": "The code of each role of a transport failure (the catalogue's `sdk.transport`); "
    "undefined when it declares none, and then no transport failure is typed.",
    "validation": "The codes of a rejected timeout, by role (the catalogue's `sdk.validation`); "
    "undefined when it declares none, and then the package has no `validateTimeout`.",
    "exec_deadline": "The code of a command stopped at its deadline and the exit status that tells it "
    "(the catalogue's `sdk.exec_deadline`); undefined when it declares none, and then the "
    "package has no `errorForExit`.",
}


def sdk_groups(sdk: SdkCodes) -> tuple[TsSdkGroup, ...]:
    """The ``sdk`` section's groups, each role with the literal of its code (a missing one: ``undefined``)."""
    deadline = sdk.exec_deadline
    members: dict[str, list[tuple[str, str | None]]] = {
        "transport": [(r, None if c is None else string_literal(c)) for r, c in sdk.transport],
        "validation": [(r, None if c is None else string_literal(c)) for r, c in sdk.validation],
        "exec_deadline": []
        if deadline is None
        else [("code", string_literal(deadline[0])), ("exit_status", str(deadline[1]))],
    }
    groups = []
    for group, roles in ROLES.items():
        given = dict(members[group])
        keys = [*roles, "exit_status"] if group == "exec_deadline" else list(roles)
        groups.append(
            TsSdkGroup(
                constant=f"SDK_{group.upper()}",
                doc=_SDK_DOCS[group],
                members=tuple(
                    (ts_identifier(k), given.get(k) or ("undefined" if given else "never"))
                    for k in keys
                ),
                declared=bool(given),
            )
        )
    return tuple(groups)


SDK_HELPERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "validation": (("validateTimeout",), ("ValidateTimeoutOptions",)),
    "exec_deadline": (("errorForExit",), ("ErrorForExitOptions",)),
}
"""The runtime's values and types (all in ``local.ts``) that exist only when the catalogue declares
their ``sdk`` group."""


@dataclass(frozen=True)
class TsHelpersView:
    """What ``helpers.ts`` shows: the helpers of ``local.ts`` this catalogue's ``sdk`` section enables."""

    values: str
    types: str


def helpers_view(cat: Catalogue) -> TsHelpersView:
    enabled = [SDK_HELPERS[g] for g in cat.sdk.groups if g in SDK_HELPERS]
    return TsHelpersView(
        values=", ".join(sorted(n for values, _ in enabled for n in values)),
        types=", ".join(sorted(n for _, types in enabled for n in types)),
    )
