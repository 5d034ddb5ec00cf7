"""The controller's condition reasons a catalogue cross-references: their model.

Condition reasons (``NoCapacity``...) are asynchronous control-plane reasons on
CRD ``status.conditions``; the catalogue's codes are the synchronous errors of
the API and SDK calls. The ``conditions`` section joins them: for each reason,
the codes a caller sees when it is the explanation, where to look, and what to
read. A code a reason explains names the reason in its remediation, so an
agent holding the error is pointed at the condition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ConditionReason:
    """One condition reason: the codes it explains, where it shows, what to read."""

    name: str
    codes: tuple[str, ...]
    where: str
    read: str


def build_conditions(raw: Any) -> tuple[ConditionReason, ...]:
    """The model of a validated ``conditions`` section, in catalogue order."""
    return tuple(
        ConditionReason(name, tuple(entry["codes"]), entry["where"], entry["read"])
        for name, entry in (raw or {}).items()
    )
