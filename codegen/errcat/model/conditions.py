"""The controller's condition reasons a catalogue cross-references: model and checks.

Condition reasons (``NoCapacity``...) are asynchronous control-plane reasons on
CRD ``status.conditions``; the catalogue's codes are the synchronous errors of
the API and SDK calls. The ``conditions`` section joins them: for each reason,
the codes a caller sees when it is the explanation, where to look, and what to
read. A code a reason explains names the reason in its remediation, so an
agent holding the error is pointed at the condition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from errcat.names import naming
from errcat.source.document import KeyPath, as_mapping
from errcat.wording import quoted

if TYPE_CHECKING:
    from errcat.check.semantic import _Checker as SemanticChecker


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


def check(checker: SemanticChecker) -> None:
    """Listed codes exist and name the reason in their remediation; names differ beyond case."""
    folded: dict[str, str] = {}
    for name, entry in as_mapping(checker.data.get("conditions")).items():
        path: KeyPath = ("conditions", name)
        first = folded.setdefault(naming.fold(name), name)
        if first != name and checker.ok(path):
            checker.add(
                path,
                "condition-collision",
                f"the reason {quoted(name)} is the reason {quoted(first)} once case is ignored",
                f"remove one of the two, or rename {quoted(name)}",
                at_key=True,
            )
        codes = as_mapping(entry).get("codes")
        for index, code in enumerate(codes if isinstance(codes, list) else []):
            where: KeyPath = (*path, "codes", index)
            checker.reference(where, code, "unknown-condition-code", "a condition reason")
            remediation = (
                as_mapping(checker.codes.get(code)).get("remediation")
                if isinstance(code, str)
                else None
            )
            if isinstance(remediation, str) and name not in remediation and checker.ok(where):
                checker.add(
                    where,
                    "condition-not-in-remediation",
                    f"the remediation of {quoted(code)} does not name the reason {name} that explains it",
                    f"say in codes.{code}.remediation where {name} shows and what it means, "
                    f"or remove {code} from this list",
                )
