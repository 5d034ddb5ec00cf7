"""The rule on ``sanitizer.omit``: it names standard rules, in a section that builds on them.

A section that builds on errcat's standard sanitizer may leave standard rules
out by id (:func:`errcat.model.defaults.effective_sanitizer` drops them); the
ids are those of ``errcat/model/standard_sanitizer.yaml``.
"""

from __future__ import annotations

from errcat.check.context import Context
from errcat.model.defaults import RULE_LISTS, builds_on_standard, standard_rule_ids
from errcat.source.document import KeyPath, as_mapping
from errcat.wording import close_match, listing, quoted


def omitted(ctx: Context) -> None:
    """Each id ``omit`` lists is a standard rule's, which no rule of the section replaces,
    in a section that builds on the standard sanitizer."""
    section = ctx.section("sanitizer")
    omit = section.get("omit")
    if not isinstance(omit, list) or not ctx.ok(("sanitizer", "omit")):
        return
    if not builds_on_standard(section):
        ctx.add(
            ("sanitizer", "omit"),
            "omit-without-standard",
            "this section says standard: false, so it is the whole sanitizer: no standard rule "
            "is in it to leave out",
            "remove omit (a rule this section does not list is not applied)",
            at_key=True,
        )
        return
    standard = standard_rule_ids()
    where: dict[str, int] = {}
    for index, rule_id in enumerate(omit):
        path: KeyPath = ("sanitizer", "omit", index)
        if not isinstance(rule_id, str) or not ctx.ok(path):
            continue
        where[rule_id] = index
        if rule_id in standard:
            continue
        guess = close_match(rule_id, standard)
        ctx.add(
            path,
            "unknown-standard-rule",
            f"{quoted(rule_id)} is not the id of a standard rule",
            f"write {quoted(guess)}"
            if guess
            else "name the id of a rule of errcat/model/standard_sanitizer.yaml: "
            + listing(sorted(standard)),
        )
    for group in RULE_LISTS:
        rules = section.get(group)
        for index, rule in enumerate(rules if isinstance(rules, list) else []):
            rule_id = as_mapping(rule).get("id")
            at: KeyPath = ("sanitizer", group, index, "id")
            if rule_id in where and rule_id in standard and ctx.ok(at):
                ctx.add(
                    at,
                    "omitted-rule-replaced",
                    f"sanitizer.omit[{where[rule_id]}] leaves the standard rule "
                    f"{quoted(rule_id)} out, and this rule replaces it",
                    f"remove {quoted(rule_id)} from sanitizer.omit to replace the standard rule, "
                    "or give this rule an id of its own to add it",
                )
