"""The rules on code names: lower snake_case, distinct beyond case, never a retired code.

``usable_codes`` and ``collided_codes`` tell the class-name rules which codes
they can read and which already have a collision reported here.
"""

from __future__ import annotations

from typing import Any

from errcat.check.context import Context
from errcat.names import naming
from errcat.source.document import as_mapping
from errcat.wording import describe_char, quoted, snake_suggestion


def usable_codes(ctx: Context) -> dict[str, dict[str, Any]]:
    """The codes whose name is legal and whose entry is a mapping the schema accepted."""
    return {
        code: spec
        for code, spec in ctx.codes.items()
        if naming.CODE_RE.match(code) and isinstance(spec, dict) and ctx.ok(("codes", code))
    }


def collided_codes(ctx: Context) -> set[str]:
    """The codes equal to an earlier code once case and separators are ignored."""
    folded: set[str] = set()
    collided: set[str] = set()
    for code in ctx.codes:
        key = naming.fold(code)
        if key in folded:
            collided.add(code)
        folded.add(key)
    return collided


def code_names(ctx: Context) -> None:
    """Every code is lower snake_case ASCII and differs from the others beyond case."""
    folded: dict[str, str] = {}
    for code in ctx.codes:
        path = ("codes", code)
        if not naming.CODE_RE.match(code):
            strange = [c for c in code if not c.isascii()]
            what = (
                f"contains the non-ASCII character {describe_char(strange[0])}"
                if strange
                else "is not lower snake_case (a-z, 0-9 and _, starting with a letter)"
            )
            guess = snake_suggestion(code)
            ctx.add(
                path,
                "code-name",
                f"the code {quoted(code)} {what}; codes are lower snake_case ASCII",
                f"rename it to {quoted(guess)}"
                if guess and guess not in ctx.codes
                else "rename it to a lower snake_case ASCII name (a-z, 0-9 and _)",
                at_key=True,
            )
        first = folded.setdefault(naming.fold(code), code)
        if first != code:
            ctx.add(
                path,
                "code-collision",
                f"the code {quoted(code)} is the code {quoted(first)} (line "
                f"{ctx.line(('codes', first))}) once case and separators are ignored",
                f"remove one of the two, or rename {quoted(code)} to a distinct code",
                at_key=True,
            )


def retired_codes(ctx: Context) -> None:
    """No retired code comes back (in any spelling); a replacement is a current code."""
    folded = {naming.fold(code): code for code in ctx.retired}
    for code in ctx.codes:
        old = code if code in ctx.retired else folded.get(naming.fold(code))
        if old is None:
            continue
        entry = as_mapping(ctx.retired.get(old))
        reason = entry.get("reason", "no reason given")
        spelled = "" if old == code else f" (the retired code {quoted(old)} spelled differently)"
        replaced = entry.get("replaced_by")
        fix = f"remove {quoted(code)} from codes"
        if isinstance(replaced, str):
            fix += f" and use {quoted(replaced)} instead"
        ctx.add(
            ("codes", code),
            "retired-reintroduced",
            f"the code {quoted(code)} was retired{spelled} and may never be reintroduced: {reason}",
            fix,
            at_key=True,
        )
    for code, entry in ctx.retired.items():
        path = ("retired", code, "replaced_by")
        target = as_mapping(entry).get("replaced_by")
        if isinstance(target, str) and ctx.ok(path) and target not in ctx.codes:
            state = "itself retired" if target in ctx.retired else "not a code of this catalogue"
            ctx.add(
                path,
                "unknown-replacement",
                f"replaced_by names {quoted(target)}, which is {state}",
                "name a current code defined under codes, or remove replaced_by",
            )
