"""The TypeScript package as a new user gets it from a clone of this repository.

Each test copies ts-sdk/ as a fresh clone has it (the files git tracks or
would track: no node_modules/, no dist/) into a temporary directory, then:

* installs it into another project by path, as the README says, and as a
  ``file:`` dependency copied with ``--install-links``: npm's ``prepare``
  step installs the pinned build tools and builds it, and the installed
  package loads with ``require`` and ``import``;
* packs it unbuilt: ``npm pack`` must fail, naming the fix, and write no
  tarball.

They need npm and the registry (or npm's cache: ``--prefer-offline``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NPM = shutil.which("npm")
pytestmark = pytest.mark.skipif(NPM is None, reason="npm is not installed")

HERE = Path(__file__).resolve().parent
SMOKE_SCRIPTS = {"smoke.cjs": "cjs RateLimitedError", "smoke.mjs": "esm NotFoundError"}


def npm(args: list[str], cwd: Path, *, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run npm quietly (no audit, fund or update notices; the cache first)."""
    assert NPM is not None
    env = {
        **os.environ,
        "npm_config_audit": "false",
        "npm_config_fund": "false",
        "npm_config_update_notifier": "false",
        "npm_config_prefer_offline": "true",
    }
    done = subprocess.run(
        [NPM, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    if check and done.returncode != 0:
        pytest.fail(f"npm {' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


def fresh_clone_of_ts_sdk(dest: Path) -> Path:
    """Copy ts-sdk/ as a clone has it: the files git tracks or would track (no build, no node_modules)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "ts-sdk"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():  # a tracked file deleted in the work tree is not in a clone either
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    package = dest / "ts-sdk"
    assert not (package / "dist").exists()
    assert not (package / "node_modules").exists()
    return package


def consumer(root: Path, name: str) -> Path:
    """An empty project with the smoke scripts (the ones ``nox -s release-check`` runs)."""
    project = root / name
    project.mkdir()
    (project / "package.json").write_text(
        json.dumps({"name": name, "version": "0.0.0", "private": True})
    )
    for script in SMOKE_SCRIPTS:
        shutil.copy2(HERE / script, project / script)
    return project


def run_smoke(project: Path) -> None:
    node = shutil.which("node")
    assert node is not None
    for script, expected in SMOKE_SCRIPTS.items():
        done = subprocess.run(
            [node, script], cwd=project, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == expected


def test_installing_a_fresh_clone_by_path_builds_it(tmp_path: Path) -> None:
    package = fresh_clone_of_ts_sdk(tmp_path / "clone")

    linked = consumer(tmp_path, "linked")
    npm(["install", str(package)], linked)  # the README's command
    manifest = json.loads((linked / "package.json").read_text())
    assert manifest["dependencies"]["@mitos/errors"].startswith("file:")
    assert (package / "dist" / "esm" / "index.js").is_file(), "prepare built the package in place"
    run_smoke(linked)

    copied = consumer(tmp_path, "copied")
    npm(["install", "--install-links", str(package)], copied)
    installed = copied / "node_modules" / "@mitos" / "errors"
    assert not installed.is_symlink(), "--install-links installs a copy"
    assert (installed / "LICENSE").is_file()
    assert not (installed / "src").exists(), "only the build ships"
    run_smoke(copied)


def test_packing_an_unbuilt_tree_fails_and_writes_no_tarball(tmp_path: Path) -> None:
    package = fresh_clone_of_ts_sdk(tmp_path / "clone")
    done = npm(["pack", "--pack-destination", str(tmp_path)], package, check=False)
    assert done.returncode != 0, done.stdout
    assert "was not built" in done.stderr
    assert "dist/esm/index.js" in done.stderr
    assert list(tmp_path.glob("*.tgz")) == []
    assert list(package.glob("*.tgz")) == []
