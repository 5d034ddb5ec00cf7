"""CHANGELOG.md is assembled from the sections ``errcat diff --format markdown`` prints."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from errcat.evolve.changelog import insert, main

ONE = "## 1.0.0\n\n### Added\n\n- the code a was added: deployed SDKs raise the base class.\n"
TWO = "## 2.0.0\n\n### Breaking changes on the wire\n\n- a: HTTP status changed from 400 to 409.\n"


def test_a_section_goes_under_the_title() -> None:
    assert insert("# Changelog\n", ONE) == f"# Changelog\n\n{ONE}"


def test_the_newest_section_comes_first() -> None:
    assert insert(f"# Changelog\n\n{ONE}", TWO) == f"# Changelog\n\n{TWO}\n{ONE}"


def test_a_section_with_the_same_heading_is_replaced() -> None:
    again = TWO.replace("400 to 409", "400 to 410")
    assert insert(insert(f"# Changelog\n\n{ONE}", TWO), again) == f"# Changelog\n\n{again}\n{ONE}"


def test_a_section_needs_a_heading() -> None:
    with pytest.raises(ValueError, match="must start with a '## ' heading"):
        insert("# Changelog\n", "- no heading\n")


LINES = st.sampled_from(["## 1.0.0", "## 2.0.0", "## Unreleased", "- a change", "", "text"])


@settings(max_examples=50)
@given(
    body=st.lists(LINES, max_size=12),
    heading=st.sampled_from(["## 1.0.0", "## 3.0.0"]),
    items=st.lists(st.sampled_from(["- x", "- y", ""]), max_size=4),
)
def test_inserting_twice_is_inserting_once(body: list[str], heading: str, items: list[str]) -> None:
    changelog = "\n".join(["# Changelog", *body]) + "\n"
    section = "\n".join([heading, *items]) + "\n"
    once = insert(changelog, section)
    assert insert(once, section) == once
    assert once.startswith("# Changelog")
    assert once.count(f"{heading}\n") == max(1, changelog.count(f"{heading}\n"))


def test_main_updates_the_file_and_keeps_it_on_a_bad_section(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "CHANGELOG.md"
    monkeypatch.setattr("sys.stdin", io.StringIO(ONE))
    assert main([str(path)]) == 0
    assert path.read_text(encoding="utf-8") == f"# Changelog\n\n{ONE}"
    monkeypatch.setattr("sys.stdin", io.StringIO("no heading\n"))
    assert main([str(path)]) == 2
    assert path.read_text(encoding="utf-8") == f"# Changelog\n\n{ONE}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["CHANGELOG.md"]
