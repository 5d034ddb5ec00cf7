"""Which revision a catalogue's changes are measured from: the last release, else main.

``python -m errcat.evolve.baseline [CATALOGUE]`` prints ``{"rev": ..., "why": ...}``
as JSON for the repository the catalogue (default ``catalogue/errors.yaml``)
is in: the last release tag (``v`` and a number) reachable from HEAD, else
the merge base of HEAD with ``main`` (or ``origin/main``). When there is
none (not a git checkout, no tag and no main, a shallow clone without the
history, a catalogue that did not exist then), ``rev`` is null and ``why``
says why. ``nox -s breaking`` and ``nox -s changelog`` use it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

GIT_TIMEOUT_S = 60
RELEASE_TAGS = "v[0-9]*"
"""The glob of release tags, as ``git describe --match`` takes it."""
BRANCHES = ("main", "origin/main")


def git(repo: Path, *args: str) -> str | None:
    """Git's output in ``repo``, or ``None`` when git fails or is missing."""
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), *args],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def baseline(catalogue: Path) -> tuple[str | None, str]:
    """The revision to compare ``catalogue`` with and why, or ``None`` and why there is none."""
    rev, why = _revision(catalogue.parent)
    if (
        rev is not None
        and git(catalogue.parent, "cat-file", "-e", f"{rev}:./{catalogue.name}") is None
    ):
        return None, f"{catalogue} is new since {why}, so there is nothing to compare"
    return rev, why


def _revision(repo: Path) -> tuple[str | None, str]:
    if git(repo, "rev-parse", "--is-inside-work-tree") != "true":
        return None, "not a git checkout, so there is no earlier catalogue to compare with"
    shallow = git(repo, "rev-parse", "--is-shallow-repository") == "true"
    hint = "; this clone is shallow: git fetch --unshallow --tags" if shallow else ""
    tag = git(repo, "describe", "--tags", "--abbrev=0", "--match", RELEASE_TAGS, "HEAD")
    if tag:
        return tag, f"the last release tag, {tag}"
    for branch in BRANCHES:
        if git(repo, "rev-parse", "--verify", "--quiet", f"{branch}^{{commit}}") is None:
            continue
        base = git(repo, "merge-base", "HEAD", branch)
        if base is None:
            return None, f"HEAD and {branch} have no common history here{hint}"
        return base, f"the merge base with {branch}, {base[:12]}"
    return None, f"there is no release tag and no main or origin/main branch{hint}"


def main(argv: list[str] | None = None) -> int:
    """Print the baseline of the catalogue named by the one optional argument."""
    args = sys.argv[1:] if argv is None else argv
    rev, why = baseline(Path(args[0] if args else "catalogue/errors.yaml"))
    print(json.dumps({"rev": rev, "why": why}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
