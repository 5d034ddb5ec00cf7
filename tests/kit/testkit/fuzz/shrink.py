"""A greedy shrinker over the case structure.

:func:`shrink` tries simpler variants of a case in order (no token, fewer
headers, fewer members and pieces, shorter strings, plainer characters) and
keeps the first that still fails the same way, until no variant does or the
budget of tries is spent.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

from testkit.fuzz.bodies import Node
from testkit.fuzz.cases import Case


def _shorter(text: str) -> Iterator[str]:
    """Shorter and plainer versions of ``text``: empty, halves, chunks dropped, characters made ``a``."""
    n = len(text)
    if n == 0:
        return
    yield ""
    size = n // 2
    while size >= 1:
        for start in range(0, n, size):
            yield text[:start] + text[start + size :]
        size //= 2
    for i, ch in enumerate(text):
        if not ch.isascii() or not ch.isalnum():
            yield text[:i] + "a" + text[i + 1 :]


def _pieces(pieces: list[Node]) -> Iterator[list[Node]]:
    for i in range(len(pieces)):
        yield pieces[:i] + pieces[i + 1 :]
    for i, (kind, content) in enumerate(pieces):
        if kind in ("u", "e", "b"):
            yield [*pieces[:i], ["t", "a" if kind != "u" else content], *pieces[i + 1 :]]
        if kind != "b":
            for shorter in _shorter(content):
                yield [*pieces[:i], [kind, shorter], *pieces[i + 1 :]]


def _items(items: list[Any], variants: Callable[[Any], Iterator[Any]]) -> Iterator[list[Any]]:
    for i in range(len(items)):
        yield items[:i] + items[i + 1 :]
    for i, item in enumerate(items):
        for simpler in variants(item):
            yield [*items[:i], simpler, *items[i + 1 :]]


def _member(member: list[Node]) -> Iterator[list[Node]]:
    key, value = member
    for simpler in node_variants(value):
        yield [key, simpler]
    for simpler in node_variants(key):
        if simpler[0] == "str":
            yield [simpler, value]


def node_variants(node: Node) -> Iterator[Node]:
    """Simpler nodes than ``node``: a child in its place, an item or piece dropped, text shortened."""
    kind = node[0]
    if kind in ("obj", "arr", "seq"):
        children = [v for _, v in node[1]] if kind == "obj" else list(node[1])
        yield from children  # hoist a child
        yield from (
            [kind, items] for items in _items(node[1], _member if kind == "obj" else node_variants)
        )
    elif kind == "str":
        if not node[2]:
            yield ["str", node[1], True]
        yield from (["str", p, node[2]] for p in _pieces(node[1]))
    elif kind in ("raw", "num"):
        yield from ([kind, s] for s in _shorter(node[1]))
    elif kind == "bytes":
        yield from (["bytes", node[1][:i]] for i in range(0, len(node[1]), 2))


def case_variants(case: Case) -> Iterator[Case]:
    """Every one-step simplification of ``case``, the biggest first."""
    if case["token"] is not None:
        yield {**case, "token": None}
    for headers in _items(case["headers"], lambda h: ([h[0], s] for s in _shorter(h[1]))):
        yield {**case, "headers": headers}
    for body in node_variants(case["body"]):
        yield {**case, "body": body}
    if case["as_text"]:
        yield {**case, "as_text": False}
    if case["token"]:
        for token in _shorter(case["token"]):
            if token:
                yield {**case, "token": token}
    if case["status"] != 500:
        yield {**case, "status": 500}


def shrink(case: Case, fails: Callable[[Case], bool], budget: int = 3000) -> tuple[Case, int]:
    """The smallest case found that ``fails``, and how many tries it took."""
    best = copy.deepcopy(case)
    tries = 0
    progress = True
    while progress and tries < budget:
        progress = False
        for candidate in case_variants(best):
            tries += 1
            if fails(candidate):
                best, progress = candidate, True
                break
            if tries >= budget:
                break
    return best, tries
