"""Work counted, not timed: the Python lines an action executes.

``sys.settrace`` line events, in every module (a C scan that compares
Python objects runs their ``__eq__`` lines too), so the count of a
deterministic action is the same on any machine and under any load.
Hypothesis's own lines are left out: it runs a callback on every garbage
collection, whose count follows the collector, not the action.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Callable
from types import FrameType
from typing import Any

HYPOTHESIS = f"{os.sep}hypothesis{os.sep}"
"""What the path of a Hypothesis module holds."""

Line = tuple[str, int]
"""A source line: its file and line number."""


def line_work(action: Callable[[], Any]) -> Counter[Line]:
    """How many times ``action`` executed each Python line."""
    counts: Counter[Line] = Counter()

    def tracer(frame: FrameType, event: str, arg: object) -> Any:
        if event == "line":
            counts[frame.f_code.co_filename, frame.f_lineno] += 1
        return tracer

    def calls(frame: FrameType, event: str, arg: object) -> Any:
        return None if HYPOTHESIS in frame.f_code.co_filename else tracer(frame, event, arg)

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        action()
    finally:
        sys.settrace(previous)
    return counts


def work(action: Callable[[], Any]) -> int:
    """The number of Python lines executed by ``action``."""
    return sum(line_work(action).values())
