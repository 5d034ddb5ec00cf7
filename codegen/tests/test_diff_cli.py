"""``errcat diff`` end to end: --against a git revision, the verdict, and the changelog format."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from diff_support import Q, base, diff, drop, dump, edited, git, put

GIT = shutil.which("git")
needs_git = pytest.mark.skipif(GIT is None, reason="git is not installed")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose first commit (tagged v1.0.0) has the base catalogue, versioned."""
    root = tmp_path / "repo"
    (root / "catalogue").mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    data = base()
    data["version"] = "1.0.0"
    (root / "catalogue" / "errors.yaml").write_text(dump(data), encoding="utf-8")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "first")
    git(root, "tag", "v1.0.0")
    return root


def write(repo: Path, *edits: object, version: str) -> Path:
    data = edited(base(), *edits)  # type: ignore[arg-type]
    data["version"] = version
    path = repo / "catalogue" / "errors.yaml"
    path.write_text(dump(data), encoding="utf-8")
    return path


@needs_git
def test_against_a_revision_reads_the_old_catalogue_from_git(repo: Path) -> None:
    path = write(repo, put(f"{Q}/http", 403), version="1.0.0")
    status, stdout, stderr = diff("--against", "v1.0.0", str(path))
    assert status == 1
    assert "[wire http-changed] quota_exceeded: HTTP status changed from 429 to 403" in stdout
    assert (
        "the version stays 1.0.0, but the changes need a major bump; set version: 2.0.0" in stderr
    )
    path = write(repo, put(f"{Q}/http", 403), version="2.0.0")
    status, _stdout, stderr = diff("--against", "v1.0.0", str(path))
    assert status == 0, stderr


@needs_git
def test_a_removal_is_located_in_the_revision(repo: Path) -> None:
    path = write(repo, drop(Q), version="2.0.0")
    _status, stdout, _stderr = diff("--against", "HEAD", str(path))
    assert stdout.startswith(f"HEAD:{path}:")


@needs_git
@pytest.mark.parametrize(
    ("rev", "message"),
    [
        ("no-such-tag", "no-such-tag is not a revision of this repository"),
        ("--output=x", "'--output=x' is not a revision of this repository"),
        ("HEAD~5", "HEAD~5 is not a revision of this repository"),
    ],
)
def test_a_bad_revision_is_one_clear_line(repo: Path, rev: str, message: str) -> None:
    path = write(repo, version="1.0.0")
    status, stdout, stderr = diff(f"--against={rev}", str(path))
    assert (status, stdout) == (2, "")
    assert stderr == f"errcat diff: {message}\n"


@needs_git
def test_a_file_new_since_the_revision_is_one_clear_line(repo: Path) -> None:
    other = repo / "catalogue" / "other.yaml"
    other.write_text(dump(base()), encoding="utf-8")
    status, _stdout, stderr = diff("--against", "HEAD", str(other))
    assert status == 2
    assert stderr == f"errcat diff: {other} does not exist at HEAD\n"


def test_outside_a_repository_is_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "errors.yaml"
    path.write_text(dump(base()), encoding="utf-8")
    status, _stdout, stderr = diff("--against", "HEAD", str(path))
    assert status == 2
    assert "is not inside a git repository; give the old catalogue as a file" in stderr


def test_a_bad_catalogue_gives_its_problems_and_status_2(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text(dump(base()), encoding="utf-8")
    bad.write_text(dump(edited(base(), put(f"{Q}/http", 200))), encoding="utf-8")
    status, stdout, stderr = diff(str(good), str(bad))
    assert (status, stdout) == (2, "")
    first = stderr.splitlines()[0]
    assert first.startswith(f"{bad}:")
    assert "[out-of-range]; fix: " in first
    assert stderr.endswith(f"errcat diff: 1 problem in {bad}; nothing compared\n")


@pytest.mark.parametrize(
    ("old_version", "new_version", "status", "says"),
    [
        ("1.0.0", "1.1.0", 0, "version 1.0.0 -> 1.1.0 is a minor bump: enough"),
        (
            "1.0.0",
            "1.0.1",
            1,
            "a patch bump, less than the minor bump the changes need; set version: 1.1.0",
        ),
        (
            "1.0.0",
            "1.0.0",
            1,
            "the version stays 1.0.0, but the changes need a minor bump; set version: 1.1.0",
        ),
        ("1.2.0", "1.1.9", 1, "the version went down from 1.2.0 to 1.1.9; set version: 1.3.0"),
        (None, "1.0.0", 0, "nothing at level sdk or above changed"),
    ],
)
def test_the_version_decides_when_both_sides_have_one(
    tmp_path: Path, old_version: str | None, new_version: str, status: int, says: str
) -> None:
    old = base()
    if old_version:
        old["version"] = old_version
    new = edited(base(), put(f"{Q}/retryable", False), put("version", new_version))
    (tmp_path / "old.yaml").write_text(dump(old), encoding="utf-8")
    (tmp_path / "new.yaml").write_text(dump(new), encoding="utf-8")
    got, _stdout, stderr = diff(str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"))
    assert got == status, stderr
    assert says in stderr


@pytest.mark.parametrize(("fail_on", "status"), [("wire", 0), ("sdk", 0), ("behaviour", 1)])
def test_fail_on_picks_the_level_without_versions(
    tmp_path: Path, fail_on: str, status: int
) -> None:
    (tmp_path / "old.yaml").write_text(dump(base()), encoding="utf-8")
    new = edited(base(), put(f"{Q}/retryable", False))
    (tmp_path / "new.yaml").write_text(dump(new), encoding="utf-8")
    argv = ("--fail-on", fail_on, str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"))
    assert diff(*argv)[0] == status


def test_markdown_is_a_changelog_section(tmp_path: Path) -> None:
    old = edited(base(), put("version", "1.0.0"))
    new = edited(
        old,
        put(f"{Q}/http", 403),
        put(f"{Q}/remediation", "Wait."),
        put("codes/rate_limited/retryable", False),
        put("version", "2.0.0"),
    )
    (tmp_path / "old.yaml").write_text(dump(old), encoding="utf-8")
    (tmp_path / "new.yaml").write_text(dump(new), encoding="utf-8")
    argv = ("--format", "markdown", str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"))
    status, stdout, _stderr = diff(*argv)
    assert status == 0
    assert stdout == (
        "## 2.0.0\n"
        "\n"
        "### Breaking changes on the wire\n"
        "\n"
        "- quota_exceeded: HTTP status changed from 429 to 403: deployed SDKs and\n"
        "  gateways that branch on the status see another one, and responses without an\n"
        "  envelope fall back to another code.\n"
        "\n"
        "### Changed behaviour\n"
        "\n"
        "- rate_limited: retryable changed from true to false: callers and agents that\n"
        "  retry by the SDK's advice now retry differently.\n"
        "\n"
        "### Documentation\n"
        "\n"
        "- codes.quota_exceeded.remediation: the text changed: none on the wire; docs,\n"
        "  llms.txt and the SDKs' texts change.\n"
    )


def test_markdown_of_no_changes_says_so(tmp_path: Path) -> None:
    (tmp_path / "same.yaml").write_text(dump(base()), encoding="utf-8")
    same = str(tmp_path / "same.yaml")
    status, stdout, _stderr = diff("--format", "markdown", same, same)
    assert (status, stdout) == (0, "## Unreleased\n\nNo changes to the error catalogue.\n")


def test_wrong_command_lines_exit_2(tmp_path: Path) -> None:
    assert diff()[0] == 2
    assert diff("a", "b", "c")[0] == 2
    assert diff("--against", "HEAD", "a", "b")[0] == 2
    assert diff("--fail-on", "everything", "a", "b")[0] == 2
