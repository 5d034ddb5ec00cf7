"""The import benchmark of ``bench.py``: ``import mitos_errors`` against floors of as many plain classes.

Each import is timed with ``-X importtime`` in a fresh interpreter, from
compiled bytecode, with the package copied beside two floors: one module of
plain exception classes, and a package of the same layout (a base class in
``__init__``, the classes in a ``_generated`` subpackage).
"""

from __future__ import annotations

import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import mitos_errors
from mitos_errors._generated import catalogue

Row = tuple[str, str, str, str]


def _import_us(python: str, module: str, path: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(path), "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run(
        [python, "-X", "importtime", "-c", f"import {module}"],
        capture_output=True,
        text=True,
        env=env,
        cwd=path,
        check=True,
    ).stderr
    for line in out.splitlines():
        parts = [p.strip() for p in line.removeprefix("import time:").split("|")]
        if len(parts) == 3 and parts[2] == module:
            return float(parts[1])
    raise RuntimeError(f"no importtime line for {module}:\n{out}")


def bench_import(runs: int) -> list[Row]:
    """``import mitos_errors`` against a floor module of as many plain exception classes."""
    classes = 1 + len(catalogue.SPECS)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(Path(mitos_errors.__file__).parent, root / "mitos_errors")
        lines = [
            '"""Floor: plain exception classes, no imports."""',
            "",
            "",
            "class Base(Exception):",
            '    """Base."""',
        ]
        for i in range(classes - 1):
            lines += ["", "", f"class Error{i}(Base):", f'    """Error {i}."""']
        (root / "floor_errors.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
        # A floor with the same layout: a package whose __init__ holds the base
        # class and a generated subpackage whose __init__ holds the classes.
        layout = root / "floor_layout"
        (layout / "_generated").mkdir(parents=True)
        (layout / "__init__.py").write_text(
            "class Base(Exception):\n    pass\n\n\nfrom ._generated import *  # noqa: E402, F403\n",
            encoding="utf-8",
        )
        body = ["from .. import Base", "", "", "class Root(Base):", '    """Root."""']
        for i in range(classes - 1):
            body += ["", "", f"class Error{i}(Root):", f'    """Error {i}."""']
        (layout / "_generated" / "__init__.py").write_text("\n".join(body) + "\n", encoding="utf-8")
        compileall.compile_dir(root, quiet=1)
        samples: dict[str, list[float]] = {"mitos_errors": [], "floor_errors": [], "floor_layout": []}
        for _ in range(runs):
            for module, values in samples.items():
                values.append(_import_us(sys.executable, module, root))
    ours = statistics.median(samples["mitos_errors"])
    floor = statistics.median(samples["floor_errors"])
    layout_floor = statistics.median(samples["floor_layout"])
    return [
        (f"import ({classes} classes)", "floor module, plain classes", f"{floor:8.0f}", "1.00x"),
        ("", "same layout, plain classes", f"{layout_floor:8.0f}", f"{layout_floor / floor:.2f}x"),
        ("", "import mitos_errors", f"{ours:8.0f}", f"{ours / floor:.2f}x  (target <= 2.5x)"),
    ]
