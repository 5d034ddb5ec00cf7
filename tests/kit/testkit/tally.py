"""The tally behind the session's summary line: kind -> case -> passed.

It lives in the helper package (not in conftest.py) so the tests and the
conftest hook share one module object whatever pytest's import mode.
"""

from __future__ import annotations

import pytest

TALLY = pytest.StashKey[dict[str, dict[str, bool]]]()


def record(config: pytest.Config, kind: str, case: str, passed: bool) -> None:
    """Count one judged case (``kind`` such as ``python``, ``http-parity``) for the summary."""
    config.stash.setdefault(TALLY, {}).setdefault(kind, {})[case] = passed


def count(config: pytest.Config, kind: str) -> str | None:
    """``passed/total`` for ``kind``, or ``None`` when no case of it ran."""
    cases = config.stash.get(TALLY, {}).get(kind)
    if not cases:
        return None
    return f"{sum(cases.values())}/{len(cases)}"
