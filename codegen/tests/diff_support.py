"""Helpers the ``errcat diff`` tests share: catalogues as data, edits of them, and runs."""

from __future__ import annotations

import copy
import io
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from catalogue_strategies import minimal_code

from errcat.cli import run
from errcat.source.load import load_catalogue

HERE = Path(__file__).resolve().parent
MINIMAL = HERE / "fixtures" / "good" / "minimal.yaml"
GATEWAY = HERE / "fixtures" / "good" / "gateway.yaml"
MITOS = HERE.parents[1] / "catalogue" / "errors.yaml"

Data = dict[str, Any]
Edit = Callable[[Data], None]

Q = "codes/quota_exceeded"
"""The path of :data:`QUOTA` in :func:`base`, for edits."""

QUOTA = minimal_code(
    message="organization quota exceeded",
    cause="The organization used up a plan quota.",
    remediation="Wait for the quota window to reset, or raise the plan limit.",
    context=["retry_after_ms", "dimension"],
    class_name="QuotaError",
    recovery={
        "action": "retry_later",
        "same_arguments": "conditional",
        "guidance": "Wait for the window to reset.",
    },
    surfaces={"console": {"message": "your plan quota is used up"}},
)
"""A code no fallback or family names, so edits may remove or rename it freely."""


def load_data(path: Path) -> Data:
    """A catalogue file as plain data (through the strict loader)."""
    data: Data = load_catalogue(path).data
    return data


def base() -> Data:
    """The minimal fixture plus a code with a class name, two context fields (one bounded) and a surface."""
    data = load_data(MINIMAL)
    data["context_fields"]["dimension"] = {"type": "string", "meaning": "The quota dimension."}
    data["context_fields"]["retry_after_ms"]["minimum"] = 0
    data["codes"]["quota_exceeded"] = copy.deepcopy(QUOTA)
    return data


def dump(data: Data) -> str:
    """Catalogue data as YAML the strict loader reads back unchanged."""
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)


def edited(data: Data, *edits: Edit) -> Data:
    """A deep copy of ``data`` with ``edits`` applied in order."""
    copied = copy.deepcopy(data)
    for edit in edits:
        edit(copied)
    return copied


def _parent(data: Data, path: str) -> tuple[Any, str]:
    *keys, last = path.split("/")
    node: Any = data
    for key in keys:
        node = node[key]
    return node, last


def put(path: str, value: object) -> Edit:
    """Set the value at ``path`` (keys joined by ``/``)."""

    def edit(data: Data) -> None:
        node, last = _parent(data, path)
        node[last] = copy.deepcopy(value)

    return edit


def drop(path: str) -> Edit:
    """Remove the entry at ``path``."""

    def edit(data: Data) -> None:
        node, last = _parent(data, path)
        del node[last]

    return edit


def rename(path: str, new_key: str) -> Edit:
    """Rename the mapping entry at ``path``, keeping its place."""

    def edit(data: Data) -> None:
        node, last = _parent(data, path)
        items = [(new_key if key == last else key, value) for key, value in node.items()]
        node.clear()
        node.update(items)

    return edit


def write_pair(tmp: Path, old: Data, new: Data) -> tuple[Path, Path]:
    """Write both catalogues under ``tmp`` and return their paths."""
    old_path, new_path = tmp / "old.yaml", tmp / "new.yaml"
    old_path.write_text(dump(old), encoding="utf-8")
    new_path.write_text(dump(new), encoding="utf-8")
    return old_path, new_path


def diff(*argv: str) -> tuple[int, str, str]:
    """Run ``python -m errcat diff ARGV`` in-process: status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    status = run(["diff", *argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def git(repo: Path, *args: str) -> str:
    """Run git in ``repo`` as a test user; its output (raises when git fails)."""
    done = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()
