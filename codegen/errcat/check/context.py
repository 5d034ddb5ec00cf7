"""The one context every catalogue rule reads and reports to.

A rule is a function ``rule(ctx) -> None`` (:data:`errcat.check.rules.RULES`
lists them). The context holds the loaded document with the position of
every node, its parsed data, what the meta-schema already rejected (a rule
leaves those paths, and everything under them, alone: the schema explained
them) and the sink of problems.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from errcat.names import naming
from errcat.problems import Problem
from errcat.source.document import Document, KeyPath, as_mapping, is_rejected
from errcat.wording import close_match, quoted


@dataclass
class Context:
    """A loaded catalogue as the rules see it, and the problems they found."""

    doc: Document
    """The catalogue with the line and column of every node."""
    rejected: set[KeyPath]
    """Key paths the meta-schema rejected."""
    problems: list[Problem] = field(default_factory=list)
    """The sink: every problem the rules found, in the order they found them."""
    reporting: tuple[str, ...] = ()
    """The rule ids the running rule is registered with; :meth:`add` accepts only these."""

    @cached_property
    def data(self) -> dict[str, Any]:
        """The catalogue's top-level mapping (empty when the document is not one)."""
        return as_mapping(self.doc.data)

    @cached_property
    def codes(self) -> dict[str, Any]:
        """The ``codes`` section, by code, in catalogue order."""
        return as_mapping(self.data.get("codes"))

    @cached_property
    def retired(self) -> dict[str, Any]:
        """The ``retired`` section, by code."""
        return as_mapping(self.data.get("retired"))

    def section(self, name: str) -> dict[str, Any]:
        """The top-level mapping ``name`` (empty when it is absent or not a mapping)."""
        return as_mapping(self.data.get(name))

    def ok(self, path: KeyPath) -> bool:
        """Whether ``path`` was not already rejected by the meta-schema (so checking it says something new)."""
        return not is_rejected(path, self.rejected)

    def line(self, path: KeyPath) -> int:
        """The line of the key at ``path``, for messages that point at another entry."""
        return self.doc.key_mark(path)[0]

    def add(self, path: KeyPath, rule: str, message: str, fix: str, at_key: bool = False) -> None:
        """Record a problem at ``path`` (at its key rather than its value when ``at_key``).

        Raises:
            ValueError: ``rule`` is not an id of the running rule's entry in ``RULES``.
        """
        if rule not in self.reporting:
            raise ValueError(f"rule id {rule!r} is not registered for the running rule")
        self.problems.append(self.doc.problem(path, rule, message, fix, at_key=at_key))


def reference(ctx: Context, path: KeyPath, target: Any, rule: str, where: str) -> None:
    """Report ``target`` (at ``path``) unless it names a current code.

    A retired code is reported as ``retired-code-referenced``; anything else
    that is not a code as ``rule``, with the nearest code as the fix.
    """
    if not isinstance(target, str) or not ctx.ok(path) or target in ctx.codes:
        return
    if target in ctx.retired:
        reason = as_mapping(ctx.retired[target]).get("reason", "")
        ctx.add(
            path,
            "retired-code-referenced",
            f"{quoted(target)} is a retired code ({reason}); {where} must name current codes",
            f"replace {quoted(target)} with a current code",
        )
        return
    guess = close_match(target, (c for c in ctx.codes if naming.CODE_RE.match(c)))
    ctx.add(
        path,
        rule,
        f"{quoted(target)} is not a code of this catalogue",
        f"write {quoted(guess)}"
        if guess
        else f"name a code defined under codes, or define {target} there",
    )
