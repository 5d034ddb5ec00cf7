"""Where things are: the repository, the catalogue, the vectors, node and the built TS SDK.

The repository is the one this kit's source lives in (an editable install), else
``$ERRCAT_REPO``, else the nearest folder above the working directory that holds
``catalogue/errors.yaml`` and ``tests/kit`` (a plain ``pip install ./tests/kit``
run from the repository, as nox does).

The TypeScript parts need ``node`` and a built ``ts-sdk`` (``npm ci && npm run
build``). When either is missing, :func:`typescript_entry` raises
:class:`TypeScriptUnavailableError` with the command that fixes it; tests turn
that into a failure, never a silent skip, unless ``ERRCAT_SKIP_TS=1`` is set.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path


def _repository() -> Path:
    """The repository root, found as the module docstring says; raises ``RuntimeError`` when none is."""

    def is_root(path: Path) -> bool:
        return (path / "catalogue" / "errors.yaml").is_file() and (path / "tests" / "kit").is_dir()

    source = Path(__file__).resolve().parents[3]
    if is_root(source):
        return source
    if os.environ.get("ERRCAT_REPO"):
        return Path(os.environ["ERRCAT_REPO"]).resolve()
    here = Path.cwd().resolve()
    for path in (here, *here.parents):
        if is_root(path):
            return path
    raise RuntimeError(
        "cannot find the repository (catalogue/errors.yaml and tests/kit): run from inside it"
        " or set ERRCAT_REPO"
    )


REPO = _repository()
CATALOGUE = REPO / "catalogue" / "errors.yaml"
CONFORMANCE = REPO / "tests" / "conformance"
VECTORS_DIR = CONFORMANCE / "vectors"
GENERATED_VECTORS = VECTORS_DIR / "generated.json"
VECTOR_SCHEMA = CONFORMANCE / "vector.schema.json"
EMIT_VECTORS = VECTORS_DIR / "emit.json"
EMIT_SCHEMA = CONFORMANCE / "emit.schema.json"
TS_SDK = REPO / "ts-sdk"

SKIP_TS_ENV = "ERRCAT_SKIP_TS"
BUILD_HINT = "cd ts-sdk && npm ci && npm run build"


class TypeScriptUnavailableError(RuntimeError):
    """Node or the compiled TypeScript SDK cannot be found."""


def skip_typescript() -> bool:
    """True when the caller asked to leave the TypeScript side out (local quick runs)."""
    return os.environ.get(SKIP_TS_ENV, "") == "1"


def node_binary() -> str:
    """The path of ``node``; raises :class:`TypeScriptUnavailableError` when it is not installed."""
    found = shutil.which("node")
    if not found:
        raise TypeScriptUnavailableError(
            f"node is not on PATH; install Node 18+ (or set {SKIP_TS_ENV}=1 for a Python-only run)"
        )
    return found


def typescript_entry() -> Path:
    """The compiled CommonJS entry of ``@mitos/errors``, as ``ts-sdk/package.json`` names it.

    Raises:
        TypeScriptUnavailableError: no package.json, no CommonJS entry in it, or the
            entry was not built.
    """
    manifest = TS_SDK / "package.json"
    if not manifest.is_file():
        raise TypeScriptUnavailableError(f"{manifest} does not exist")
    data = json.loads(manifest.read_text(encoding="utf-8"))
    relative: str | None = None
    exports = data.get("exports")
    if isinstance(exports, dict):
        root = exports.get(".", exports)
        if isinstance(root, dict):
            require = root.get("require")
            if isinstance(require, dict):
                relative = require.get("default") or require.get("node")
            elif isinstance(require, str):
                relative = require
    if relative is None and isinstance(data.get("main"), str):
        relative = data["main"]
    if relative is None:
        raise TypeScriptUnavailableError(
            f"{manifest} names no CommonJS entry (exports.require or main)"
        )
    entry = (TS_SDK / relative).resolve()
    if not entry.is_file():
        raise TypeScriptUnavailableError(
            f"the TypeScript SDK is not built: {entry} is missing; run `{BUILD_HINT}`"
        )
    return entry
