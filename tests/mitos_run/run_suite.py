"""Run mitos-run 0.3.1's own test suite, with its error layer or with mitos_errors.compat.

    python tests/mitos_run/run_suite.py WORKDIR             # compat layer; fail on unlisted failures
    python tests/mitos_run/run_suite.py WORKDIR --baseline  # mitos-run's own modules, counts only

The suite runs on ``--workers`` pytest-xdist workers (4 unless told; 0 runs it in
one process): its tests mostly wait on their fake servers, so more workers than
cores finish sooner.

With the compat layer, mitos/errors.py and mitos/_envelope.py become one-line
star imports; every test that then fails must be listed, with its reason, in
docs/migrating-from-mitos-run.md (between the ``compat-failures`` markers),
and every listed test must still fail. The Go sandbox-server is never built
or started: a ``go`` on PATH that always fails comes first (mitos-run's
fixtures skip when the build fails).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from testkit.mitos_run import sdist

HERE = Path(__file__).resolve().parent

GUIDE = HERE.parents[1] / "docs" / "migrating-from-mitos-run.md"
ONE_LINERS = {
    "mitos/errors.py": "from mitos_errors.compat.errors import *  # noqa: F403\n",
    "mitos/_envelope.py": "from mitos_errors.compat.envelope import *  # noqa: F403\n",
}
# Needs sdk/conformance/scenario.json of mitos-run's monorepo, which the sdist
# does not ship: it cannot be collected with or without the compat layer.
NOT_IN_SDIST = ["--ignore=tests/test_conformance.py"]
WORKERS = 4
"""pytest-xdist workers: the suite waits more than it computes (31 s of waiting, 14 s of CPU)."""
LISTED = re.compile(r"^\|\s*`(tests/[^`]+)`\s*\|", re.MULTILINE)


def listed_failures(guide: Path = GUIDE) -> set[str]:
    """The test ids the migration guide lists as deliberate failures."""
    text = guide.read_text(encoding="utf-8")
    start, end = (
        text.index("<!-- compat-failures:start -->"),
        text.index("<!-- compat-failures:end -->"),
    )
    return set(LISTED.findall(text[start:end]))


def _prepare(work: Path, baseline: bool) -> Path:
    source = sdist.unpacked()
    if source is None:
        sys.exit(f"cannot download {sdist.NAME}=={sdist.VERSION} from PyPI")
    tree = work / ("baseline" if baseline else "compat")
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(source, tree)
    if not baseline:
        for rel, line in ONE_LINERS.items():
            (tree / rel).write_text(line, encoding="utf-8")
    return tree


def _no_go_env(work: Path) -> dict[str, str]:
    """The environment with a ``go`` that always fails first on PATH, and no real one."""
    shim = work / "no-go"
    shim.mkdir(parents=True, exist_ok=True)
    go = shim / "go"
    go.write_text(
        "#!/bin/sh\necho 'go is disabled in this test run' >&2\nexit 1\n", encoding="utf-8"
    )
    go.chmod(0o755)
    keep = [
        d
        for d in os.environ.get("PATH", "").split(os.pathsep)
        if d and not (Path(d) / "go").exists()
    ]
    env = dict(os.environ, PATH=os.pathsep.join([str(shim), *keep]))
    env.pop("PYTHONPATH", None)
    return env


def _results(junit: Path) -> tuple[dict[str, int], set[str]]:
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    failed: set[str] = set()
    for case in ET.parse(junit).getroot().iter("testcase"):
        test_id = f"{case.get('classname', '').replace('.', '/')}.py::{case.get('name')}"
        if case.find("failure") is not None or case.find("error") is not None:
            counts["failed"] += 1
            failed.add(test_id)
        elif case.find("skipped") is not None:
            counts["skipped"] += 1
        else:
            counts["passed"] += 1
    return counts, failed


def main() -> int:
    """Run the suite; exit 1 on an unlisted failure, or a listed test that passes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("work", type=Path)
    parser.add_argument(
        "--baseline", action="store_true", help="keep mitos-run's own error modules"
    )
    parser.add_argument(
        "--workers", type=int, default=WORKERS, help=f"pytest-xdist workers ({WORKERS})"
    )
    args = parser.parse_args()
    work: Path = args.work.resolve()
    tree = _prepare(work, args.baseline)
    junit = work / f"junit-{tree.name}.xml"
    # Its own pyproject as the config and its tree as the root, so that no
    # configuration of an enclosing directory (this repository's) applies.
    own = ["-c", str(tree / "pyproject.toml"), f"--rootdir={tree}"]
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        *own,
        f"--junitxml={junit}",
        *(("-n", str(args.workers), "--dist", "worksteal") if args.workers else ()),
        *NOT_IN_SDIST,
        "tests",
    ]
    subprocess.run(cmd, cwd=tree, env=_no_go_env(work), check=False, timeout=900)
    counts, failed = _results(junit)
    print(
        f"mitos-run {sdist.VERSION} suite ({tree.name}): "
        + ", ".join(f"{v} {k}" for k, v in counts.items())
    )
    if args.baseline:
        return 0
    listed = listed_failures()
    unexpected, stale = sorted(failed - listed), sorted(listed - failed)
    for test_id in unexpected:
        print(f"FAILED, not listed in {GUIDE.name}: {test_id}")
    for test_id in stale:
        print(f"listed in {GUIDE.name} but passes now (remove it): {test_id}")
    return 1 if unexpected or stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
