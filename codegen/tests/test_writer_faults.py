"""The writer under faults: signals at random moments of a real run, and trees it cannot write.

A real ``python -m errcat generate`` subprocess brings a tree generated from
one catalogue to another and gets SIGINT, SIGTERM or SIGKILL at a random
moment (at a random time, or just after its first temporary file appears).
After a signal it can catch, the whole tree is all old or all new and no
temporary file is left; after SIGKILL, each file is old or new. Either way
the next ``generate`` leaves the new tree and no temporary file anywhere, and
``check`` is then clean. Unwritable trees (a directory or a file in the way, a
read-only directory) exit 3 with "cannot write", leave every file as it was
and no temporary file behind.
"""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from catalogue_strategies import FUZZ_SCALE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.cli import run
from errcat.write import TEMP_SUFFIX

HERE = Path(__file__).resolve().parent
GOOD = HERE / "fixtures" / "good"
OLD, NEW = GOOD / "gateway.yaml", GOOD / "minimal.yaml"
COUNT = {"signals": 0}


def tree(root: Path) -> dict[str, bytes]:
    """Every file under root but the catalogue and temporary files, by relative path."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and p.name != "catalogue.yaml" and not p.name.endswith(TEMP_SUFFIX)
    }


@dataclass(frozen=True)
class States:
    """A tree generated from OLD, what generating NEW over it gives, and how long a run takes."""

    old: Path
    new: dict[str, bytes] = field(repr=False)
    duration: float


def temporaries(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob(f"*{TEMP_SUFFIX}"))


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def generate(catalogue: Path, out: Path) -> int:
    shutil.copy(catalogue, out / "catalogue.yaml")
    status, _, _ = cli("generate", "--catalogue", str(out / "catalogue.yaml"), "--out", str(out))
    return status


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory) -> States:
    """The trees and duration every signal test starts from."""
    old = tmp_path_factory.mktemp("old")
    assert generate(OLD, old) == 0
    new = tmp_path_factory.mktemp("new")
    shutil.copytree(old, new, dirs_exist_ok=True)
    started = time.monotonic()
    assert _subprocess(new, NEW).wait(timeout=120) == 0
    return States(old, tree(new), time.monotonic() - started)


def _subprocess(out: Path, catalogue: Path) -> subprocess.Popen[bytes]:
    shutil.copy(catalogue, out / "catalogue.yaml")
    return subprocess.Popen(
        [sys.executable, "-m", "errcat", "generate", "--catalogue", "catalogue.yaml"],
        cwd=out,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _wait_for_temporary(out: Path, process: subprocess.Popen[bytes], limit: float) -> None:
    """Return once the run's first temporary file exists, the run ended, or ``limit`` passed.

    The writer makes its temporaries in the sorted order of the files, so the
    first is beside ``docs/errors.md``; listing that one directory in a busy
    loop sees it within microseconds, while the run is still writing.
    """
    docs = out / "docs"
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and process.poll() is None:
        if any(name.endswith(TEMP_SUFFIX) for name in os.listdir(docs)):
            return


@settings(
    max_examples=4 * FUZZ_SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    signum=st.sampled_from((signal.SIGINT, signal.SIGTERM, signal.SIGKILL)),
    at_first_temporary=st.booleans(),
    fraction=st.floats(0, 1.2),
)
def test_a_signal_at_any_moment_leaves_old_or_new_files(
    states: States,
    tmp_path_factory: pytest.TempPathFactory,
    signum: int,
    at_first_temporary: bool,
    fraction: float,
) -> None:
    old_root, new, duration = states.old, states.new, states.duration
    old = tree(old_root)
    out = tmp_path_factory.mktemp("run")
    shutil.copytree(old_root, out, dirs_exist_ok=True)
    process = _subprocess(out, NEW)
    if at_first_temporary:
        _wait_for_temporary(out, process, duration * 2)
        # Writing takes milliseconds (then the interpreter exits): 0.1 ms to 100 ms later.
        time.sleep(10 ** (-4 + 3 * fraction / 1.2))
    else:
        time.sleep(fraction * duration)
    if process.poll() is None:
        process.send_signal(signum)
    _, stderr = process.communicate(timeout=120)
    assert b"Traceback" not in stderr, stderr.decode()
    now = tree(out)
    paths = sorted(set(old) | set(new) | set(now))
    neither = [p for p in paths if now.get(p) not in (old.get(p), new.get(p))]
    assert neither == [], "files that are neither old nor new"
    if signum != signal.SIGKILL:
        changed = [p for p in paths if now.get(p) != old.get(p)]
        stale = [p for p in paths if now.get(p) != new.get(p)]
        assert [] in (changed, stale), f"a mixed tree: new {changed}, old {stale}"
        assert temporaries(out) == []
    assert generate(NEW, out) == 0
    assert sorted(p for p in paths if tree(out).get(p) != new.get(p)) == []
    assert temporaries(out) == []
    status, stdout, _ = cli("check", "--catalogue", str(out / "catalogue.yaml"), "--out", str(out))
    assert status == 0, stdout
    COUNT["signals"] += 1


def test_leftover_temporaries_anywhere_are_swept_and_not_counted(tmp_path: Path) -> None:
    assert generate(OLD, tmp_path) == 0
    leftovers = [
        tmp_path / "docs" / f".errors.md.999999-0a1b2c3d{TEMP_SUFFIX}",
        tmp_path
        / "python-sdk"
        / "src"
        / "labby_errors"
        / "_generated"
        / (f".catalogue.py.999999-00000000{TEMP_SUFFIX}"),
        tmp_path / "elsewhere" / "deep" / f".x.txt.abcd_123{TEMP_SUFFIX}",
    ]
    for path in leftovers:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("// Code generated by errcat from catalogue.yaml. DO NOT EDIT.\n")
    before = tree(tmp_path)
    assert len(temporaries(tmp_path)) == len(leftovers)
    status, stdout, stderr = cli(
        "generate", "--catalogue", str(tmp_path / "catalogue.yaml"), "--out", str(tmp_path)
    )
    assert status == 0
    assert temporaries(tmp_path) == []
    assert "errcat: 0 of 32 files changed" in stdout, stdout
    assert stderr.count("removed leftover temporary file") == len(leftovers)
    assert tree(tmp_path) == before


@pytest.mark.parametrize("command", ["generate", "check"])
@pytest.mark.parametrize("obstacle", ["directory", "file", "read-only"])
def test_an_unwritable_tree_exits_3_and_changes_nothing(
    tmp_path: Path, command: str, obstacle: str
) -> None:
    assert generate(OLD, tmp_path) == 0
    shutil.copy(NEW, tmp_path / "catalogue.yaml")
    if obstacle == "directory":
        (tmp_path / "llms.txt").unlink()
        (tmp_path / "llms.txt").mkdir()
    elif obstacle == "file":
        shutil.rmtree(tmp_path / "docs")
        (tmp_path / "docs").write_text("not a directory\n")
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes into read-only directories (test_write covers it)")
        (tmp_path / "schemas").chmod(0o555)
    before = tree(tmp_path)
    try:
        status, _, stderr = cli(
            command, "--catalogue", str(tmp_path / "catalogue.yaml"), "--out", str(tmp_path)
        )
    finally:
        if (tmp_path / "schemas").is_dir():
            (tmp_path / "schemas").chmod(0o755)
    assert status == 3, stderr
    assert "errcat: cannot write " in stderr
    assert stderr.rstrip().endswith("; nothing was changed"), stderr
    assert "Traceback" not in stderr
    assert tree(tmp_path) == before
    assert temporaries(tmp_path) == []


def teardown_module() -> None:
    print(f"\nwriter signal runs: {COUNT['signals']}", file=sys.stderr)
