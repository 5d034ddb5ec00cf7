"""Refinement: a finer code that older SDKs still understand (``codes.X.refines``).

A code may name the coarser code it refines. Its class then derives from
that code's class in both SDKs, so ``except IdleTimeoutError`` keeps
catching a ``sandbox_reaped`` that refines ``idle_timeout``; servers send the
chain (``error.refines``, nearest first), and an SDK that does not know the
code raises the class of the first code of the chain it knows.

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

from collections.abc import Mapping
from typing import Any

from errcat.names import naming
from errcat.problems import Problem
from errcat.source.document import Checker, Document, KeyPath, as_mapping
from errcat.wording import close_match, quoted

MAX_CHAIN = 16
"""The most codes a refinement chain holds; the SDKs read at most this many ``refines`` entries."""


def parent_of(codes: Mapping[str, Any], code: str) -> str | None:
    """The code that ``code`` refines, when it names one as a string."""
    target = as_mapping(codes.get(code)).get("refines")
    return target if isinstance(target, str) else None


def chain_of(codes: Mapping[str, Any], code: str, limit: int | None = None) -> tuple[str, ...]:
    """The codes ``code`` refines, nearest first; stops at a missing code or a repeat.

    Bounded by the number of codes, so it ends on any data (a cycle included),
    and by ``limit`` codes when one is given.
    """
    chain: list[str] = []
    seen = {code}
    parent = parent_of(codes, code)
    while parent is not None and parent in codes and parent not in seen:
        if limit is not None and len(chain) >= limit:
            break
        chain.append(parent)
        seen.add(parent)
        parent = parent_of(codes, parent)
    return tuple(chain)


def cycles(codes: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """Each refinement cycle, by its least code: the codes from that one round, in refines order.

    One walk over the codes, each visited once: every code's own walk round
    its cycle would be quadratic on a long one.
    """
    found: dict[str, tuple[str, ...]] = {}
    done: set[str] = set()
    for start in codes:
        walk: dict[str, int] = {}  # code -> its place in this walk
        code: str | None = start
        while code is not None and code in codes and code not in done and code not in walk:
            walk[code] = len(walk)
            code = parent_of(codes, code)
        if code is not None and code in walk:
            loop = list(walk)[walk[code] :]
            least = loop.index(min(loop))
            found[loop[least]] = (*loop[least:], *loop[:least])
        done.update(walk)
    return found


def order(parents: Mapping[str, str | None]) -> tuple[str, ...]:
    """The codes of ``parents`` (code -> the code it refines), each before the codes refining it.

    Each root in the order given, followed by the codes that refine it (depth
    first, siblings in the order given): the order given when nothing is
    refined. A code on a cycle is left out (the validator refuses cycles).
    """
    children: dict[str | None, list[str]] = {}
    for code, parent in parents.items():
        children.setdefault(parent if parent in parents else None, []).append(code)
    out: list[str] = []
    todo = list(reversed(children.get(None, [])))
    while todo:
        code = todo.pop()
        out.append(code)
        todo.extend(reversed(children.get(code, [])))
    return tuple(out)


def descendants(
    chains: Mapping[str, tuple[str, ...]], ordered: tuple[str, ...]
) -> dict[str, tuple[str, ...]]:
    """Every code that refines each code, directly or not, in the order of ``ordered``."""
    below: dict[str, list[str]] = {code: [] for code in chains}
    for code in ordered:
        for ancestor in chains[code]:
            below[ancestor].append(code)
    return {code: tuple(found) for code, found in below.items()}


def _status_class(spec: Any) -> int | None:
    http = as_mapping(spec).get("http")
    return http // 100 if isinstance(http, int) and not isinstance(http, bool) else None


class _Checker(Checker):
    def __init__(self, doc: Document, rejected: set[KeyPath]) -> None:
        super().__init__(doc, rejected)
        self.codes = as_mapping(self.data.get("codes"))
        self.retired = as_mapping(self.data.get("retired"))
        self.cycles = cycles(self.codes)

    def target(self, code: str, target: str) -> bool:
        """Check that ``target`` names a current code; True when it does."""
        path: KeyPath = ("codes", code, "refines")
        if target in self.codes:
            return True
        if target in self.retired:
            entry = as_mapping(self.retired[target])
            replaced = entry.get("replaced_by")
            self.add(
                path,
                "refines-retired-code",
                f"{quoted(target)} is a retired code ({entry.get('reason', 'no reason given')}); "
                "a code can only refine a current code",
                f"refine {quoted(replaced)} instead"
                if isinstance(replaced, str) and replaced in self.codes
                else "refine a current code, or remove refines",
            )
            return False
        guess = close_match(target, (c for c in self.codes if naming.CODE_RE.match(c)))
        self.add(
            path,
            "unknown-refined-code",
            f"{quoted(target)} is not a code of this catalogue",
            f"write {quoted(guess)}"
            if guess
            else f"name a code defined under codes, or define {target} there",
        )
        return False

    def cycle(self, code: str) -> None:
        """Report the cycle ``code`` is on, once: at the first of its codes in sorted order."""
        if code not in self.cycles:
            return
        loop = self.cycles[code]
        if len(loop) == 1:
            message = f"{quoted(code)} refines itself; a code refines a coarser code"
            fix = f"remove refines from {code}, or name the coarser code it refines"
        else:
            shown = " -> ".join([*loop, code])
            message = (
                f"the refinements go round in a circle ({shown}); a code refines a coarser code"
            )
            fix = f"remove refines from one of {', '.join(quoted(c) for c in sorted(loop))}"
        self.add(("codes", code, "refines"), "refinement-cycle", message, fix)

    def status_class(self, code: str, target: str) -> None:
        mine, theirs = _status_class(self.codes[code]), _status_class(self.codes[target])
        if mine is None or theirs is None or mine == theirs:
            return
        http = as_mapping(self.codes[code]).get("http")
        their_http = as_mapping(self.codes[target]).get("http")
        self.add(
            ("codes", code, "refines"),
            "refinement-status-class",
            f"{quoted(code)} (HTTP {http}) refines {quoted(target)} (HTTP {their_http}); a finer "
            f"code keeps the status class of the code it refines ({theirs}xx)",
            f"give {code} a {theirs}xx status, or refine a {mine}xx code",
        )

    def depth(self, code: str) -> None:
        # One code past the first broken length tells that length from a longer one.
        chain = chain_of(self.codes, code, limit=MAX_CHAIN + 2)
        if len(chain) != MAX_CHAIN + 1:
            return  # within the bound, or deeper than the code where it is first broken
        if parent_of(self.codes, chain[-1]) in (code, *chain):
            return  # a cycle, reported on its own
        self.add(
            ("codes", code, "refines"),
            "refinement-too-deep",
            f"{quoted(code)} refines {len(chain)} codes in a chain ({' -> '.join(chain[:3])} ...); "
            f"an SDK reads at most {MAX_CHAIN}",
            f"refine a code nearer the root, so the chain holds at most {MAX_CHAIN} codes",
        )


def check(doc: Document, rejected: set[KeyPath]) -> list[Problem]:
    """Check every ``codes.X.refines`` of ``doc`` (the rules of this module's docstring).

    Args:
        doc: the loaded catalogue.
        rejected: key paths the meta-schema already rejected; they are skipped.

    Returns:
        The problems found, each at the ``refines`` value it is about.
    """
    checker = _Checker(doc, rejected)
    for code in checker.codes:
        target = parent_of(checker.codes, code)
        if target is None or not checker.ok(("codes", code, "refines")):
            continue
        if not checker.target(code, target):
            continue
        checker.cycle(code)
        checker.status_class(code, target)
        checker.depth(code)
    return checker.problems
