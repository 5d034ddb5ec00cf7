"""The TypeScript a fixture catalogue generates compiles against the hand-written runtime.

The runtime (``ts-sdk/src``) is written once for every catalogue; these
tests put each golden catalogue's ``generated/`` in place of the real one and
type-check the whole package with the package's own strict settings.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from errcat.names.reserved import COMPAT_FOLDER

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
TS_SDK = REPO / "ts-sdk"
TSC = TS_SDK / "node_modules" / "typescript" / "bin" / "tsc"
GOLDEN = HERE / "golden"


def _tsc_or_skip() -> Path:
    if TSC.is_file() and shutil.which("node"):
        return TSC
    if os.environ.get("CI"):
        pytest.fail("TypeScript is not installed: run npm ci in ts-sdk first (nox -s tests does)")
    pytest.skip("TypeScript is not installed (npm ci in ts-sdk)")


@pytest.mark.parametrize("name", ["gateway", "minimal"])
def test_generated_typescript_compiles_with_the_runtime(name: str, tmp_path: Path) -> None:
    tsc = _tsc_or_skip()
    src = tmp_path / "src"
    shutil.copytree(TS_SDK / "src", src, ignore=shutil.ignore_patterns("generated", COMPAT_FOLDER))
    shutil.copytree(GOLDEN / name / "ts-sdk" / "src" / "generated", src / "generated")
    config = {
        "extends": (TS_SDK / "tsconfig.base.json").as_posix(),
        "compilerOptions": {"module": "NodeNext", "moduleResolution": "NodeNext", "noEmit": True},
        "include": ["src"],
    }
    (tmp_path / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    done = subprocess.run(
        ["node", str(tsc), "-p", str(tmp_path / "tsconfig.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
