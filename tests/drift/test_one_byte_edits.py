"""A one-byte edit to any generated artifact is caught by ``errcat check``, with the fix command.

The generated tree is written fresh into a temporary directory (the real tree
is never touched), then each generated file in turn has one byte changed at
its start, middle and end; ``check`` must exit 1, show a diff naming that file
and print ``nox -s generate``. A deleted file and a stray file carrying the
generated header are caught too. One case runs the real command line,
``python -m errcat check``, in a subprocess.

The catalogue never changes here, so after the fresh tree's first check its
model and render are reused (``errcat.cli.load_model`` memoized on its paths,
``errcat.cli.render_all`` on the model, which is hashable and compares by
value): every edit still goes through check's reading, comparison, diff and
messages, without loading and rendering the same catalogue over four hundred
times.
"""

from __future__ import annotations

import functools
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from errcat import cli
from errcat.cli import load_model, run
from errcat.model.catalogue import Catalogue
from errcat.problems import Problem
from errcat.render import render_all

REPO = Path(__file__).resolve().parents[2]
CATALOGUE = REPO / "catalogue" / "errors.yaml"
FIX = "nox -s generate"
ARTIFACTS = sorted(render_all(load_model(CATALOGUE, REPO)))


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tree")
    (root / "catalogue").mkdir()
    (root / "catalogue" / "errors.yaml").write_bytes(CATALOGUE.read_bytes())
    out, err = io.StringIO(), io.StringIO()
    assert run(["generate", "--out", str(root)], stdout=out, stderr=err) == 0, err.getvalue()
    return root


@pytest.fixture(scope="module", autouse=True)
def render_once(tree: Path) -> Iterator[None]:
    """After the tree is generated (by a render of its own), check loads and renders the model once."""
    load = cli.load_model

    @functools.cache
    def loaded(catalogue: Path, out: Path) -> tuple[Catalogue, tuple[Problem, ...]]:
        notices: list[Problem] = []
        return load(catalogue, out, notices), tuple(notices)

    def load_once(catalogue: Path, out: Path, notices: list[Problem] | None = None) -> Catalogue:
        model, found = loaded(catalogue, out)
        if notices is not None:
            notices.extend(found)
        return model

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "load_model", load_once)
        patch.setattr(cli, "render_all", functools.cache(cli.render_all))
        yield


def check(root: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(["check", "--out", str(root)], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def flip(data: bytes, at: int) -> bytes:
    """``data`` with the byte at ``at`` replaced by a different one."""
    edited = bytearray(data)
    edited[at] = ord("#") if edited[at] != ord("#") else ord("%")
    return bytes(edited)


def test_the_fresh_tree_checks_clean(tree: Path) -> None:
    status, out, err = check(tree)
    assert status == 0, f"a fresh generation does not check clean:\n{out}{err}"


def test_every_target_is_covered() -> None:
    prefixes = ("docs/", "llms.txt", "schemas/", "python-sdk/", "ts-sdk/")
    assert all(any(a.startswith(p) for a in ARTIFACTS) for p in prefixes), ARTIFACTS


@pytest.mark.parametrize("relative", ARTIFACTS)
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_one_byte_edit_is_caught(tree: Path, relative: str, where: str) -> None:
    victim = tree / relative
    original = victim.read_bytes()
    at = {"first": 0, "middle": len(original) // 2, "last": len(original) - 1}[where]
    victim.write_bytes(flip(original, at))
    try:
        status, out, err = check(tree)
    finally:
        victim.write_bytes(original)
    assert status == 1, f"a one-byte edit ({where} byte) of {relative} was not caught"
    assert f"--- a/{relative}" in out, out[:500]
    assert f"+++ b/{relative}" in out, out[:500]
    assert relative in err, err
    assert FIX in err, err


@pytest.mark.parametrize("relative", ARTIFACTS)
def test_deleted_artifact_is_caught(tree: Path, relative: str) -> None:
    victim = tree / relative
    original = victim.read_bytes()
    victim.unlink()
    try:
        status, _, err = check(tree)
    finally:
        victim.write_bytes(original)
    assert status == 1
    assert relative in err
    assert FIX in err


def test_stray_generated_file_is_caught(tree: Path) -> None:
    generated_dir = next(
        (tree / a).parent
        for a in ARTIFACTS
        if (tree / a).parent.name in ("_generated", "generated")
    )
    header = (tree / next(a for a in ARTIFACTS if (tree / a).parent == generated_dir)).read_bytes()[
        :200
    ]
    stray = generated_dir / "left_over.py"
    stray.write_bytes(header)
    try:
        status, _, err = check(tree)
    finally:
        stray.unlink()
    assert status == 1
    assert "left_over.py" in err
    assert FIX in err


def test_the_command_line_reports_the_fix(tree: Path) -> None:
    victim = tree / "llms.txt"
    original = victim.read_bytes()
    victim.write_bytes(flip(original, len(original) // 3))
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "errcat", "check", "--out", str(tree)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
    finally:
        victim.write_bytes(original)
    assert proc.returncode == 1, proc.stderr
    assert "a/llms.txt" in proc.stdout
    assert f"run `{FIX}`" in proc.stderr
