"""The rules of ``conditions``: listed codes exist and name the reason in their remediation."""

from __future__ import annotations

from errcat.check.context import Context, reference
from errcat.names import naming
from errcat.source.document import KeyPath, as_mapping
from errcat.wording import quoted


def check(ctx: Context) -> None:
    """Listed codes exist and name the reason in their remediation; names differ beyond case."""
    folded: dict[str, str] = {}
    for name, entry in ctx.section("conditions").items():
        path: KeyPath = ("conditions", name)
        first = folded.setdefault(naming.fold(name), name)
        if first != name and ctx.ok(path):
            ctx.add(
                path,
                "condition-collision",
                f"the reason {quoted(name)} is the reason {quoted(first)} once case is ignored",
                f"remove one of the two, or rename {quoted(name)}",
                at_key=True,
            )
        codes = as_mapping(entry).get("codes")
        for index, code in enumerate(codes if isinstance(codes, list) else []):
            where: KeyPath = (*path, "codes", index)
            reference(ctx, where, code, "unknown-condition-code", "a condition reason")
            remediation = (
                as_mapping(ctx.codes.get(code)).get("remediation")
                if isinstance(code, str)
                else None
            )
            if isinstance(remediation, str) and name not in remediation and ctx.ok(where):
                ctx.add(
                    where,
                    "condition-not-in-remediation",
                    f"the remediation of {quoted(code)} does not name the reason {name} that explains it",
                    f"say in codes.{code}.remediation where {name} shows and what it means, "
                    f"or remove {code} from this list",
                )
