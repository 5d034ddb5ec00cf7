"""llms.txt is what the format wants: the reference parser reads every code and its facts.

``llms_txt.parse_llms_file`` (the parser of https://llmstxt.org) must read
the file, and what it reads must state every code of the catalogue in the
right section, with status, both SDKs' class names, cause and remediation,
and a link to the code's heading in docs/errors.md (:mod:`llms_check`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import llms_check
import pytest

from conformance_kit import paths
from errcat.cli import load_model
from errcat.model.catalogue import Catalogue


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_model(paths.CATALOGUE, paths.REPO)


def test_llms_txt_parses_and_states_every_code(catalogue: Catalogue) -> None:
    found = llms_check.problems(catalogue, paths.REPO)
    assert not found, "llms.txt disagrees with the catalogue:\n  " + "\n  ".join(found)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("TypeScript `NotFoundError`", "TypeScript `NotFound`"),
        ("[not_found](docs/errors.md#not_found)", "[not_found](docs/errors.md#nowhere)"),
        (
            "[not_found](docs/errors.md#not_found): HTTP 404",
            "[not_found](docs/errors.md#not_found): HTTP 405",
        ),
        ("## SDK-local codes\n", "## SDK-local codes\n\nThese are local.\n"),
    ],
    ids=["class", "anchor", "status", "prose-in-a-section"],
)
def test_a_changed_llms_txt_is_caught(
    tmp_path: Path, catalogue: Catalogue, old: str, new: str
) -> None:
    """The check can fail: one fact changed in a copy is reported, or the parser refuses it."""
    text = (paths.REPO / "llms.txt").read_text(encoding="utf-8")
    assert old in text, f"the fixture text {old!r} is not in llms.txt; update this test"
    (tmp_path / "docs").mkdir()
    shutil.copy(paths.REPO / "docs" / "errors.md", tmp_path / "docs" / "errors.md")
    (tmp_path / "schemas").mkdir()
    for schema in (paths.REPO / "schemas").glob("*.json"):
        shutil.copy(schema, tmp_path / "schemas" / schema.name)
    (tmp_path / "llms.txt").write_text(text.replace(old, new, 1), encoding="utf-8")
    try:
        found = llms_check.problems(catalogue, tmp_path)
    except AttributeError:  # the reference parser's way of refusing a line that is not a link
        return
    assert found
