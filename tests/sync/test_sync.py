"""Drift: the committed artifacts are exactly what the catalogue renders today.

Each test fails with the names of the stale files and the command that
fixes them, so a red build says what to do.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from errcat.cli import load_model, run
from errcat.render import render_all
from errcat.write import plan

REPO = Path(__file__).resolve().parents[2]
CATALOGUE = REPO / "catalogue" / "errors.yaml"
FIX = "nox -s generate"


@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    return render_all(load_model(CATALOGUE, REPO))


def test_committed_artifacts_equal_a_fresh_render(rendered: dict[str, str]) -> None:
    stale = [c.path for c in plan(rendered, REPO)]
    assert not stale, f"generated files out of date: {stale}; run `{FIX}` and commit"


def test_every_target_has_files(rendered: dict[str, str]) -> None:
    prefixes = [
        "schemas/",
        "docs/errors.md",
        "llms.txt",
        "python-sdk/src/",
        "ts-sdk/src/generated/",
    ]
    missing = [p for p in prefixes if not any(path.startswith(p) for path in rendered)]
    assert not missing, f"no generated file under {missing}"


@pytest.mark.parametrize(
    "relative",
    [
        "docs/errors.md",
        "llms.txt",
        "schemas/error-envelope.schema.json",
        "schemas/error-envelope.strict.schema.json",
    ],
)
def test_one_byte_edit_is_caught_with_the_fix_command(relative: str, tmp_path: Path) -> None:
    shutil.copytree(REPO / "catalogue", tmp_path / "catalogue")
    out, err = io.StringIO(), io.StringIO()
    assert run(["generate", "--out", str(tmp_path)], stdout=out, stderr=err) == 0, err.getvalue()
    victim = tmp_path / relative
    data = bytearray(victim.read_bytes())
    middle = len(data) // 2
    data[middle] = ord("#") if data[middle] != ord("#") else ord("%")
    victim.write_bytes(bytes(data))
    out, err = io.StringIO(), io.StringIO()
    assert run(["check", "--out", str(tmp_path)], stdout=out, stderr=err) == 1
    assert f"a/{relative}" in out.getvalue()
    assert FIX in err.getvalue()
