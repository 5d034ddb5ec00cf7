"""Make the contract readers (here) and the conformance helpers importable."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (HERE, HERE.parent / "conformance"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
