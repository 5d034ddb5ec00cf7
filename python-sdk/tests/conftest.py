"""Outside this repository (the tests of the sdist) the test kit is not installed.

The tests that import it (they hold the SDK to the contract's reference, or read
the repository) are then left out; the rest run on their own.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

HERE = Path(__file__).resolve().parent

collect_ignore = (
    []
    if importlib.util.find_spec("testkit") is not None
    else [p.name for p in HERE.glob("test_*.py") if "testkit" in p.read_text(encoding="utf-8")]
)
