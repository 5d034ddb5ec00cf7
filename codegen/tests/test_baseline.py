"""The revision ``nox -s breaking`` measures catalogue changes from, in every kind of clone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from diff_support import git

from errcat.evolve.baseline import baseline

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def commit(repo: Path, text: str) -> str:
    (repo / "catalogue").mkdir(exist_ok=True)
    (repo / "catalogue" / "errors.yaml").write_text(text, encoding="utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", text)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """main with two commits, and a branch ``work`` one commit ahead of it, checked out."""
    root = tmp_path / "origin"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    commit(root, "one")
    commit(root, "two")
    git(root, "checkout", "-q", "-b", "work")
    commit(root, "three")
    return root


def catalogue(repo: Path) -> Path:
    return repo / "catalogue" / "errors.yaml"


def test_a_branch_is_measured_from_its_merge_base_with_main(repo: Path) -> None:
    base = git(repo, "rev-parse", "main")
    assert baseline(catalogue(repo)) == (base, f"the merge base with main, {base[:12]}")


def test_the_last_release_tag_wins(repo: Path) -> None:
    git(repo, "tag", "v1.2.0", "main~1")
    git(repo, "tag", "nightly", "main")
    assert baseline(catalogue(repo)) == ("v1.2.0", "the last release tag, v1.2.0")


def test_a_clone_has_origin_main(repo: Path, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--branch", "work", str(repo), str(clone))
    base = git(repo, "rev-parse", "main")
    assert baseline(catalogue(clone)) == (base, f"the merge base with origin/main, {base[:12]}")


def test_a_shallow_clone_of_one_branch_says_how_to_get_the_history(
    repo: Path, tmp_path: Path
) -> None:
    clone = tmp_path / "shallow"
    url = f"file://{repo}"
    git(
        tmp_path,
        "clone",
        "-q",
        "--depth",
        "1",
        "--single-branch",
        "--branch",
        "work",
        url,
        str(clone),
    )
    rev, why = baseline(catalogue(clone))
    assert rev is None
    assert why.endswith("this clone is shallow: git fetch --unshallow --tags")


def test_no_checkout_no_baseline(tmp_path: Path) -> None:
    assert baseline(tmp_path / "errors.yaml") == (
        None,
        "not a git checkout, so there is no earlier catalogue to compare with",
    )


def test_a_catalogue_new_since_the_baseline_has_nothing_to_compare(repo: Path) -> None:
    other = repo / "catalogue" / "other.yaml"
    other.write_text("x", encoding="utf-8")
    rev, why = baseline(other)
    assert rev is None
    assert why.startswith(f"{other} is new since the merge base with main")
