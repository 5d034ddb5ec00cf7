"""mitos-run 0.3.1's source distribution from PyPI, downloaded with pip and unpacked once.

Used by the catalogue-coverage test and by ``nox -s compat``. Offline (pip
cannot reach PyPI) :func:`unpacked` returns ``None`` and the callers skip.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from testkit.paths import REPO

NAME = "mitos-run"
VERSION = "0.3.1"
CACHE = REPO / ".nox" / "_cache" / "mitos-run"  # .nox/ is git-ignored


def _pip() -> list[str] | None:
    """A pip command: this interpreter's, else one on PATH."""
    probe = subprocess.run(
        [sys.executable, "-m", "pip", "--version"], capture_output=True, check=False
    )
    if probe.returncode == 0:
        return [sys.executable, "-m", "pip"]
    found = shutil.which("pip3") or shutil.which("pip")
    return [found] if found else None


def download(dest: Path) -> Path | None:
    """The sdist archive in ``dest`` (downloaded if it is not there yet), or ``None`` when pip cannot get it."""
    wanted = dest / f"mitos_run-{VERSION}.tar.gz"
    if wanted.is_file():
        return wanted
    pip = _pip()
    if pip is None:
        return None
    dest.mkdir(parents=True, exist_ok=True)
    cmd = [
        *pip,
        "download",
        "--quiet",
        "--no-deps",
        "--no-binary",
        ":all:",
        f"{NAME}=={VERSION}",
        "-d",
        str(dest),
    ]
    done = subprocess.run(cmd, capture_output=True, check=False, timeout=300)
    return wanted if done.returncode == 0 and wanted.is_file() else None


def unpacked(dest: Path = CACHE) -> Path | None:
    """The unpacked source tree (``.../mitos_run-0.3.1``), or ``None`` when the sdist is unavailable."""
    tree = dest / f"mitos_run-{VERSION}"
    if (tree / "mitos" / "errors.py").is_file():
        return tree
    archive = download(dest)
    if archive is None:
        return None
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    return tree if (tree / "mitos" / "errors.py").is_file() else None
