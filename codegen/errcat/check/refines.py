"""The rules on ``codes.X.refines`` (:mod:`errcat.model.refines` reads the chains).

The rules, each with its own id:

* ``unknown-refined-code``: the refined code is a code of this catalogue;
* ``refines-retired-code``: it is not a retired code (a retired code has no
  class to derive from, and may never come back);
* ``refinement-cycle``: following ``refines`` never comes back to a code
  (a code refining itself included);
* ``refinement-status-class``: the two codes' HTTP statuses are in the same
  class (4xx or 5xx), so a client that branches on the status class, or a
  fallback by status class, reads a refinement as it reads the code it refines;
* ``refinement-too-deep``: a chain holds at most :data:`MAX_CHAIN` codes,
  the number of entries an SDK reads from ``error.refines``.

The gRPC status may differ: gRPC statuses are flat (no classes), and a finer
code can have a more precise one (``NotFound`` under a ``FailedPrecondition``)
without changing what ``except`` catches.
"""

from __future__ import annotations

from typing import Any

from errcat.check.context import Context
from errcat.model.refines import MAX_CHAIN, chain_of, cycles, parent_of
from errcat.names import naming
from errcat.source.document import KeyPath, as_mapping
from errcat.wording import close_match, quoted


def _status_class(spec: Any) -> int | None:
    http = as_mapping(spec).get("http")
    return http // 100 if isinstance(http, int) and not isinstance(http, bool) else None


def _target(ctx: Context, code: str, target: str) -> bool:
    """Check that ``target`` names a current code; True when it does."""
    path: KeyPath = ("codes", code, "refines")
    if target in ctx.codes:
        return True
    if target in ctx.retired:
        entry = as_mapping(ctx.retired[target])
        replaced = entry.get("replaced_by")
        ctx.add(
            path,
            "refines-retired-code",
            f"{quoted(target)} is a retired code ({entry.get('reason', 'no reason given')}); "
            "a code can only refine a current code",
            f"refine {quoted(replaced)} instead"
            if isinstance(replaced, str) and replaced in ctx.codes
            else "refine a current code, or remove refines",
        )
        return False
    guess = close_match(target, (c for c in ctx.codes if naming.CODE_RE.match(c)))
    ctx.add(
        path,
        "unknown-refined-code",
        f"{quoted(target)} is not a code of this catalogue",
        f"write {quoted(guess)}"
        if guess
        else f"name a code defined under codes, or define {target} there",
    )
    return False


def _cycle(ctx: Context, loops: dict[str, tuple[str, ...]], code: str) -> None:
    """Report the cycle ``code`` is on, once: at the first of its codes in sorted order."""
    if code not in loops:
        return
    loop = loops[code]
    if len(loop) == 1:
        message = f"{quoted(code)} refines itself; a code refines a coarser code"
        fix = f"remove refines from {code}, or name the coarser code it refines"
    else:
        shown = " -> ".join([*loop, code])
        message = f"the refinements go round in a circle ({shown}); a code refines a coarser code"
        fix = f"remove refines from one of {', '.join(quoted(c) for c in sorted(loop))}"
    ctx.add(("codes", code, "refines"), "refinement-cycle", message, fix)


def _status_class_kept(ctx: Context, code: str, target: str) -> None:
    mine, theirs = _status_class(ctx.codes[code]), _status_class(ctx.codes[target])
    if mine is None or theirs is None or mine == theirs:
        return
    http = as_mapping(ctx.codes[code]).get("http")
    their_http = as_mapping(ctx.codes[target]).get("http")
    ctx.add(
        ("codes", code, "refines"),
        "refinement-status-class",
        f"{quoted(code)} (HTTP {http}) refines {quoted(target)} (HTTP {their_http}); a finer "
        f"code keeps the status class of the code it refines ({theirs}xx)",
        f"give {code} a {theirs}xx status, or refine a {mine}xx code",
    )


def _depth(ctx: Context, code: str) -> None:
    # One code past the first broken length tells that length from a longer one.
    chain = chain_of(ctx.codes, code, limit=MAX_CHAIN + 2)
    if len(chain) != MAX_CHAIN + 1:
        return  # within the bound, or deeper than the code where it is first broken
    if parent_of(ctx.codes, chain[-1]) in (code, *chain):
        return  # a cycle, reported on its own
    ctx.add(
        ("codes", code, "refines"),
        "refinement-too-deep",
        f"{quoted(code)} refines {len(chain)} codes in a chain ({' -> '.join(chain[:3])} ...); "
        f"an SDK reads at most {MAX_CHAIN}",
        f"refine a code nearer the root, so the chain holds at most {MAX_CHAIN} codes",
    )


def check(ctx: Context) -> None:
    """Check every ``codes.X.refines`` (the rules of this module's docstring), at its value."""
    loops = cycles(ctx.codes)
    for code in ctx.codes:
        target = parent_of(ctx.codes, code)
        if target is None or not ctx.ok(("codes", code, "refines")):
            continue
        if not _target(ctx, code, target):
            continue
        _cycle(ctx, loops, code)
        _status_class_kept(ctx, code, target)
        _depth(ctx, code)
