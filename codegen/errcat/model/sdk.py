"""The codes an SDK raises itself, by role: the catalogue's ``sdk`` section and its model.

The runtimes name no code of the catalogue: a transport failure, a rejected
argument and a command stopped at its deadline each get the code the
catalogue gives that *role*. :data:`ROLES` is the one list of the roles, with
the status class each role's code must have; the meta-schema spells the same
keys (``codegen/tests/test_sdk_codes.py`` keeps the two equal), and
:mod:`errcat.check.sdk` checks each role's code. A group the catalogue
leaves out has no helper in either SDK.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ROLES: dict[str, dict[str, int]] = {
    "transport": {"failed": 5, "lost": 5, "timed_out": 5, "aborted": 4},
    "validation": {"invalid": 4, "too_large": 4},
    "exec_deadline": {"code": 5},
}
"""Each group of the ``sdk`` section, its roles, and the HTTP status class (4 or 5) of each role's code.

A transport failure (the request never got an answer) reads like a gateway's 5xx, and the
caller's own abort like a client's 4xx; a rejected argument is the caller's fault (4xx); a
command stopped at the server's deadline is a 5xx, like the gateway timeout it stands for.
"""


@dataclass(frozen=True)
class SdkCodes:
    """The catalogue's ``sdk`` section: for each group, each of its roles and the code it names.

    A group the catalogue leaves out is ``()`` (``None`` for the exec deadline); a role it
    leaves out of a declared group (only ``transport.aborted`` may be) has the code ``None``.
    """

    transport: tuple[tuple[str, str | None], ...] = ()
    validation: tuple[tuple[str, str | None], ...] = ()
    exec_deadline: tuple[str, int] | None = None
    """The code of a command stopped at its deadline and the exit status that tells it."""

    @property
    def groups(self) -> tuple[str, ...]:
        """The groups the catalogue declares, in :data:`ROLES` order."""
        declared = {
            "transport": bool(self.transport),
            "validation": bool(self.validation),
            "exec_deadline": self.exec_deadline is not None,
        }
        return tuple(group for group in ROLES if declared[group])

    @property
    def codes(self) -> tuple[str, ...]:
        """Every code the section names, each once, in role order."""
        named = [code for _, code in (*self.transport, *self.validation) if code is not None]
        if self.exec_deadline is not None:
            named.append(self.exec_deadline[0])
        return tuple(dict.fromkeys(named))


def _group(raw: dict[str, Any], group: str) -> tuple[tuple[str, str | None], ...]:
    """Each role of ``group`` and its code; ``()`` when the catalogue leaves the group out."""
    entry = raw.get(group)
    if entry is None:
        return ()
    return tuple((role, entry.get(role)) for role in ROLES[group])


def build_sdk_codes(raw: dict[str, Any] | None) -> SdkCodes:
    """The model of a validated ``sdk`` section (absent: no group is declared)."""
    if raw is None:
        return SdkCodes()
    deadline = raw.get("exec_deadline")
    return SdkCodes(
        transport=_group(raw, "transport"),
        validation=_group(raw, "validation"),
        exec_deadline=(deadline["code"], deadline["exit_status"]) if deadline is not None else None,
    )
