"""The removed character set: derived from the shipped Unicode data, merged, never the running Python's."""

from __future__ import annotations

import itertools
import sys
import unicodedata
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from errcat.model import unicode
from errcat.model.catalogue import build_model

ROOT = Path(__file__).resolve().parents[2]
PROPERTIES = (
    "General_Category=Format",
    "Default_Ignorable_Code_Point",
    "Prepended_Concatenation_Mark",
)


def _catalogue_version() -> str:
    data = yaml.safe_load((ROOT / "catalogue/errors.yaml").read_text(encoding="utf-8"))
    return str(data["sanitizer"]["unicode_version"])


def test_data_file_is_sorted_disjoint_and_names_its_version() -> None:
    version = _catalogue_version()
    data = unicode.unicode_data(version)
    assert sorted(data) == sorted(PROPERTIES)
    for ranges in data.values():
        assert ranges == sorted(ranges)
        assert all(first <= last for first, last in ranges)
        assert all(a[1] + 1 < b[0] for a, b in itertools.pairwise(ranges))


def test_every_format_character_of_this_python_is_in_the_data() -> None:
    """Characters do not leave category Cf between versions, so an older table is a subset."""
    data = unicode.unicode_data(_catalogue_version())
    cf = data["General_Category=Format"]
    inside = {c for first, last in cf for c in range(first, last + 1)}
    mine = {c for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"}
    assert mine <= inside, sorted(hex(c) for c in mine - inside)[:10]


def test_the_generated_set_holds_the_characters_the_hand_list_missed() -> None:
    data = yaml.safe_load((ROOT / "catalogue/errors.yaml").read_text(encoding="utf-8"))
    cat = build_model(data, source="catalogue/errors.yaml", regenerate="-")
    removed = cat.sanitizer.remove
    for c in (0x0600, 0x0605, 0x13430, 0x13438, 0x1BCA0, 0x1BCA3, 0x200B, 0x202E, 0xE0001, 0x0000):
        assert any(r.first <= c <= r.last for r in removed), hex(c)
    for c in (0x0009, 0x000A, 0x0085, 0x2028, 0x0041, 0x00E9):
        assert not any(r.first <= c <= r.last for r in removed), hex(c)
    assert cat.sanitizer.unicode_version == _catalogue_version()


def test_unknown_version_is_refused() -> None:
    with pytest.raises(FileNotFoundError):
        unicode.unicode_data("1.0.0")


_ranges = st.lists(
    st.tuples(st.integers(0, 300), st.integers(0, 40), st.sampled_from("abc")).map(
        lambda t: (t[0], t[0] + t[1], t[2])
    ),
    max_size=12,
)


@given(_ranges, st.lists(st.tuples(st.integers(0, 340), st.integers(0, 20)), max_size=4))
def test_merge_covers_exactly_the_union_less_the_holes(
    ranges: list[unicode.NamedRange], holes: list[tuple[int, int]]
) -> None:
    keep_out = [(a, a + n) for a, n in holes]
    merged = unicode.merge_ranges(ranges, keep_out)
    want = {c for a, b, _ in ranges for c in range(a, b + 1)}
    want -= {c for a, b in keep_out for c in range(a, b + 1)}
    got = [c for a, b, _ in merged for c in range(a, b + 1)]
    assert sorted(got) == got
    assert set(got) == want
    assert len(got) == len(want)
    assert merged == unicode.merge_ranges(list(reversed(ranges)), keep_out)
