"""Refinement: a finer code that older SDKs still understand (``codes.X.refines``).

A code may name the coarser code it refines. Its class then derives from
that code's class in both SDKs, so ``except IdleTimeoutError`` keeps
catching a ``sandbox_reaped`` that refines ``idle_timeout``; servers send the
chain (``error.refines``, nearest first), and an SDK that does not know the
code raises the class of the first code of the chain it knows. This module
reads the chains; :mod:`errcat.check.refines` holds the rules on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from errcat.source.document import as_mapping

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
