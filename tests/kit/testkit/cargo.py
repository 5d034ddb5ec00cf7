"""Where every cargo build of the repository goes: one target folder outside the clone.

The Rust crate and its tests (``nox -s rust``), the Rust testee and test service
the conformance tests run, and the crates of drawn catalogues
(``codegen/tests/test_rust_crates.py``) all build into :func:`target_dir`, which
lies in the user's cache like Go's build cache: ``$CARGO_TARGET_DIR`` when it is
set (the user's choice wins), else ``$XDG_CACHE_HOME/errcat/cargo-target``, else
``~/.cache/errcat/cargo-target``. A fresh clone then reuses the dependencies an
earlier clone built (regex, axum, tonic and theirs) and compiles only its own
crates. cargo locks the folder while it builds, so two builds at once (two
clones, or two pytest workers) wait for each other rather than clash.

This module imports nothing but the standard library: the noxfile loads it by
path. ``python -m testkit.cargo`` prints the folder; deleting it reclaims the
space (the next build fills it again).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

ENV = "CARGO_TARGET_DIR"
"""The variable cargo reads its target folder from; set, it wins over :func:`target_dir`'s default."""


def target_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The one target folder of the repository's cargo builds, as the module docstring says."""
    chosen = environ.get(ENV)
    if chosen:
        return Path(chosen)
    cache = environ.get("XDG_CACHE_HOME", "")
    base = Path(cache) if os.path.isabs(cache) else Path.home() / ".cache"  # as XDG says
    return base / "errcat" / "cargo-target"


def environment(environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """``environ`` with :data:`ENV` naming :func:`target_dir`: the environment to run cargo in."""
    return {**environ, ENV: str(target_dir(environ))}


if __name__ == "__main__":
    print(target_dir())
