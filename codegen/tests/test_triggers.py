"""The generated Python trigger test is sound for any catalogue's rules, not only the Mitos one.

``has_trigger`` (written by ``errcat/render/python/triggers.py``) may say
False only for text no rule matches: it guards each rule with characters its
pattern requires, found by walking the pattern's parse tree, so a mistake
there would silently skip a secret. The SDK's own test checks the Mitos
catalogue's module; this one renders the module for every catalogue errcat
is tested with and runs its test on texts made of each rule's own matches.
Why Python has a generated test at all is decided in codegen/README.md
("The trigger pre-filter").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.model.catalogue import Catalogue, build_model
from errcat.render.python.target import TARGET
from errcat.source.load import load_catalogue

REPO = Path(__file__).resolve().parents[2]
CATALOGUES = {
    "mitos": REPO / "catalogue" / "errors.yaml",
    "gateway": REPO / "codegen" / "tests" / "fixtures" / "good" / "gateway.yaml",
    "minimal": REPO / "codegen" / "tests" / "fixtures" / "good" / "minimal.yaml",
}
# Characters the rules' guards are made of, and plain prose around them.
FILLERS = [*" -_:=@/<>|[]&?", "the request ", "Key"]


def _model(name: str) -> Catalogue:
    doc = load_catalogue(CATALOGUES[name], display=name)
    return build_model(doc.data, source=name, regenerate="nox -s generate")


def _generated_test(cat: Catalogue) -> Callable[[str], bool]:
    """``has_trigger`` from the ``sanitizer_rules`` module errcat renders for ``cat``."""
    (source,) = (
        text
        for path, text in TARGET.sanitizer_rules(cat).items()
        if path.endswith("sanitizer_rules.py")
    )
    namespace: dict[str, object] = {}
    exec(compile(source, "sanitizer_rules.py", "exec"), namespace)
    test = namespace["has_trigger"]
    assert callable(test)
    return test


def _rules(cat: Catalogue) -> list[re.Pattern[str]]:
    return [re.compile(r.regex) for r in cat.sanitizer.secrets + cat.sanitizer.injection]


@pytest.mark.parametrize("name", sorted(CATALOGUES))
def test_the_generated_trigger_test_never_skips_a_match(name: str) -> None:
    cat = _model(name)
    has_trigger = _generated_test(cat)
    rules = _rules(cat)
    pieces = st.one_of(
        st.sampled_from(FILLERS),
        st.sampled_from(
            sorted({t for r in cat.sanitizer.secrets + cat.sanitizer.injection for t in r.triggers})
        ),
        *(st.from_regex(rule.pattern) for rule in rules),
    )
    matched: list[str] = []

    @settings(
        max_examples=400,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(pieces, max_size=5).map("".join))
    def check(text: str) -> None:
        if any(rule.search(text) for rule in rules):
            matched.append(text)
            assert has_trigger(text.lower()), repr(text)

    check()
    assert len(matched) >= 200, f"only {len(matched)} of the texts held a match"
