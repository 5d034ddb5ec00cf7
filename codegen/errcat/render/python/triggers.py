"""The trigger pre-filter as Python: the plan of :mod:`errcat.model.prefilter` as ``has_trigger``.

``has_trigger`` says whether some rule may run: for each group of rules, a
``memchr`` (``in``) per guard character, then the group's triggers. The
TypeScript SDK renders the same plan (``errcat/render/typescript/sanitizer.py``);
codegen/README.md ("The trigger pre-filter") has the decision and its figures.
"""

from __future__ import annotations

from errcat.model.catalogue import Catalogue
from errcat.model.prefilter import TriggerTest, prefilter
from errcat.render.python.text import py_str


def _any(terms: list[str]) -> str:
    return terms[0] if len(terms) == 1 else "(" + " or ".join(terms) + ")"


def _in(text: str) -> str:
    return f"{py_str(text)} in low"


def _trigger_terms(tests: tuple[TriggerTest, ...]) -> list[str]:
    terms = []
    for test in tests:
        found = []
        for cluster in test.clusters:
            if cluster.prefix:
                inner = " or ".join(map(_in, cluster.triggers))
                found.append(f"({_in(cluster.prefix)} and ({inner}))")
            else:
                found.extend(map(_in, cluster.triggers))
        body = _any(found)
        terms.append(f"({_in(test.char)} and {body})" if test.char else body)
    return terms


def trigger_groups(cat: Catalogue) -> list[str]:
    """The terms of the generated ``has_trigger`` test, one per group of the plan (or its triggers)."""
    terms = []
    for group in prefilter(cat).groups:
        inner = _trigger_terms(group.triggers)
        if not group.guards:
            terms.extend(inner)
            continue
        guards = [_any(list(map(_in, chars))) for chars in group.guards]
        terms.append("(" + " and ".join([*guards, _any(inner)]) + ")")
    return terms
