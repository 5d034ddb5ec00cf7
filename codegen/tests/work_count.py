"""Work counted, not timed: the Python lines an action executes.

``sys.settrace`` line events, in every module (a C scan that compares
Python objects runs their ``__eq__`` lines too), so the count of a
deterministic action is the same on any machine and under any load.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from types import FrameType
from typing import Any

Line = tuple[str, int]
"""A source line: its file and line number."""


def line_work(action: Callable[[], Any]) -> Counter[Line]:
    """How many times ``action`` executed each Python line."""
    counts: Counter[Line] = Counter()

    def tracer(frame: FrameType, event: str, arg: object) -> Any:
        if event == "line":
            counts[frame.f_code.co_filename, frame.f_lineno] += 1
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        action()
    finally:
        sys.settrace(previous)
    return counts


def work(action: Callable[[], Any]) -> int:
    """The number of Python lines executed by ``action``."""
    return sum(line_work(action).values())
