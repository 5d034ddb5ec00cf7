"""docs/guide.md's commands, run as written, in order, in an empty folder.

Every ``sh`` block of the guide is one step (``text`` blocks, installing
errcat and publishing, are not run): each runs with ``bash -e`` in the same
folder, with the Python that runs this test first on the path (it has errcat
and ``build``), so the guide's ``python -m errcat ...`` is the errcat under test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "docs" / "guide.md"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def shell_blocks(markdown: str) -> list[str]:
    """The text of every fenced block whose info string is ``sh``, in order."""
    return [body for info, body in BLOCK.findall(markdown) if info == "sh"]


def test_the_block_reader_takes_sh_blocks_only() -> None:
    text = "a\n```sh\necho 1\n```\n```text\nno\n```\n```sh\ncd x\necho 2\n```\n"
    assert shell_blocks(text) == ["echo 1\n", "cd x\necho 2\n"]


def test_the_guide_walks_from_init_to_two_installed_packages(tmp_path: Path) -> None:
    if shutil.which("npm") is None or shutil.which("git") is None:
        pytest.skip("the guide needs npm and git")
    has_init = subprocess.run(
        [sys.executable, "-m", "errcat", "init", "--help"], capture_output=True, check=False
    )
    if has_init.returncode != 0:
        pytest.skip("this errcat has no `init` command yet (it comes with the catalogue formats)")
    blocks = shell_blocks(GUIDE.read_text(encoding="utf-8"))
    assert len(blocks) >= 6, "the guide lost its commands"
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "GIT_AUTHOR_NAME": "guide",
        "GIT_AUTHOR_EMAIL": "guide@example.com",
        "GIT_COMMITTER_NAME": "guide",
        "GIT_COMMITTER_EMAIL": "guide@example.com",
    }
    outputs = []
    for number, block in enumerate(blocks, 1):
        done = subprocess.run(
            ["bash", "-e", "-c", block],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        assert done.returncode == 0, (
            f"docs/guide.md, sh block {number}:\n{block}\n"
            f"exit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        )
        outputs.append(done.stdout)
    assert (tmp_path / "python-sdk" / "pyproject.toml").is_file()
    assert (tmp_path / "try-typescript" / "node_modules" / "payments-errors").is_dir()
    # The two packages print the same code for the same response.
    codes = [line for o in outputs for line in o.splitlines() if re.fullmatch(r"[a-z_]+", line)]
    assert len(codes) == 2, outputs
    assert codes[0] == codes[1], codes
