"""Every catalogue rule, listed once: its check and the rule ids it reports.

A rule is a function ``check(ctx)`` over one :class:`~errcat.check.context.Context`;
it reports through ``ctx.add``, which refuses an id its entry here does not
list. Adding a rule is a module with its function and one line in
:data:`RULES`. The meta-schema's own problems (``missing-key``,
``unknown-key``, ``wrong-type``...) come first, from :mod:`errcat.check.validate`;
every rule runs after it, on what it did not reject. The order of the list
does not matter: :func:`errcat.check.validate.validate` sorts the problems by position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from errcat.check import (
    classnames,
    codes,
    conditions,
    grpc,
    limits,
    patterns,
    references,
    refines,
    sdk,
    standard,
    values,
)
from errcat.check.context import Context


@dataclass(frozen=True)
class Rule:
    """One catalogue rule: the function that checks, and every id it may report."""

    check: Callable[[Context], None]
    ids: tuple[str, ...]


RETIRED = "retired-code-referenced"
"""Reported by every rule that names codes, through :func:`~errcat.check.context.reference`."""

RULES: tuple[Rule, ...] = (
    Rule(codes.code_names, ("code-name", "code-collision")),
    Rule(codes.retired_codes, ("retired-reintroduced", "unknown-replacement")),
    Rule(classnames.base_class, ("base-class",)),
    Rule(classnames.check, ("class-name", "class-collision")),
    Rule(references.context_fields, ("undefined-context-field",)),
    Rule(
        references.fallback,
        ("invalid-status", "unknown-fallback-target", RETIRED),
    ),
    Rule(references.families, ("unknown-family-code", RETIRED)),
    Rule(limits.timeout_ceiling, ("timeout-above-ceiling", "maximum-not-ceiling")),
    Rule(limits.validation_ceiling, ("validation-without-ceiling",)),
    Rule(limits.json_depth, ("json-depth-below-envelope",)),
    Rule(grpc.check, ("unknown-grpc-target", "grpc-target-status", "grpc-ok-mapped", RETIRED)),
    Rule(grpc.reasons, ("grpc-reason",)),
    Rule(sdk.check, ("unknown-sdk-code", "sdk-code-status", RETIRED)),
    Rule(
        conditions.check,
        ("condition-collision", "unknown-condition-code", "condition-not-in-remediation", RETIRED),
    ),
    Rule(
        values.texts,
        ("blank-text", "text-too-long", "control-character", "bidi-control", "invisible-character"),
    ),
    Rule(values.marker, ("marker-too-long",)),
    Rule(values.examples, ("example-type",)),
    Rule(
        values.bounds,
        ("bound-not-numeric", "bound-not-integer", "bounds-order", "example-out-of-bounds"),
    ),
    Rule(values.grpc_ok, ("grpc-ok",)),
    Rule(
        patterns.pattern_rules,
        (
            "bad-pattern",
            "empty-prefix",
            "non-portable-pattern",
            "non-regular-pattern",
            "side-condition",
            "uppercase-trigger",
        ),
    ),
    Rule(patterns.character_ranges, ("range-order", "range-overlap")),
    Rule(patterns.rule_ids, ("duplicate-rule-id",)),
    Rule(
        standard.omitted,
        ("omit-without-standard", "unknown-standard-rule", "omitted-rule-replaced"),
    ),
    Rule(
        refines.check,
        (
            "unknown-refined-code",
            "refines-retired-code",
            "refinement-cycle",
            "refinement-status-class",
            "refinement-too-deep",
        ),
    ),
)


def run(ctx: Context) -> None:
    """Run every rule of :data:`RULES` over ``ctx``; the problems land in ``ctx.problems``."""
    for rule in RULES:
        ctx.reporting = rule.ids
        rule.check(ctx)
    ctx.reporting = ()
