"""mitos_errors.compat has every name of mitos-run's mitos.errors and mitos._envelope.

Each of those two files must be replaceable by ``from mitos_errors.compat.<name> import *``,
so every top-level name they define or import (private ones too) is in the
compat module's ``__all__``. Read from mitos-run's sdist; skipped offline.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mitos_errors.compat import envelope, errors
from testkit.mitos_run import sdist

# A compiler directive, not a name a module exports.
NOT_NAMES = {"annotations"}


def _top_level_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names - NOT_NAMES


@pytest.mark.parametrize(
    ("original", "module"), [("errors.py", errors), ("_envelope.py", envelope)]
)
def test_compat_module_has_every_name(original: str, module: object) -> None:
    tree = sdist.unpacked()
    if tree is None:
        pytest.skip(f"{sdist.NAME}=={sdist.VERSION} sdist unavailable (offline?)")
    exported = set(getattr(module, "__all__", ()))
    missing = sorted(_top_level_names(tree / "mitos" / original) - exported)
    assert not missing, f"mitos/{original} names that {module.__name__}.__all__ lacks: {missing}"  # type: ignore[attr-defined]
    absent = sorted(name for name in exported if not hasattr(module, name))
    assert not absent, f"{module.__name__}.__all__ names it does not define: {absent}"  # type: ignore[attr-defined]
