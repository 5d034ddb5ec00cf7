"""The class names an SDK must recognise from another SDK's ``to_dict()`` / ``toJSON()``."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from hypothesis import given
from hypothesis import strategies as st

from errcat.names.naming import class_names_elsewhere

NAMES = st.sampled_from(["AError", "BError", "CError", "DError"])


@dataclass(frozen=True)
class Named:
    code: str
    class_names: MappingProxyType[str, str]


@st.composite
def code_sets(draw: st.DrawFn) -> list[Named]:
    """Codes whose per-language class names are unique within each language."""
    codes = [f"code_{i}" for i in range(draw(st.integers(1, 4)))]
    per_language = {
        lang: draw(st.lists(NAMES, min_size=len(codes), max_size=len(codes), unique=True))
        for lang in ("python", "typescript")
    }
    return [
        Named(code, MappingProxyType({lang: names[i] for lang, names in per_language.items()}))
        for i, code in enumerate(codes)
    ]


@given(code_sets())
def test_every_pair_names_one_code_elsewhere_and_none_here(codes: list[Named]) -> None:
    for language, other in (("python", "typescript"), ("typescript", "python")):
        pairs = class_names_elsewhere(codes, language)
        own = {c.class_names[language] for c in codes}
        assert pairs == sorted(pairs)
        for name, code in pairs:
            assert name not in own
            assert [c.code for c in codes if c.class_names[other] == name] == [code]
        # every other-language name that is not also a name here is listed
        listed = {name for name, _ in pairs}
        assert listed == {c.class_names[other] for c in codes} - own


def test_the_mitos_rename_is_listed_both_ways() -> None:
    codes = [
        Named(
            "not_implemented",
            MappingProxyType(
                {"python": "MitosNotImplementedError", "typescript": "NotImplementedError"}
            ),
        )
    ]
    assert class_names_elsewhere(codes, "python") == [("NotImplementedError", "not_implemented")]
    assert class_names_elsewhere(codes, "typescript") == [
        ("MitosNotImplementedError", "not_implemented")
    ]
