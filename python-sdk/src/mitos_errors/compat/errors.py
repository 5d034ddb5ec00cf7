"""Every name of mitos-run's ``mitos.errors``, backed by the catalogue's classes.

``from mitos_errors.compat.errors import *`` gives the same names; the
classes are mitos_errors' own, so ``except AgentRunError`` catches every
catalogue error, and a typed class accepts only its own code.
"""

from __future__ import annotations

from typing import Any, Optional

from .. import (
    AgentRunError,
    ExecutionDeadlineError,
    IdleTimeoutError,
    NotFoundError,
    RateLimitedError,
    RequestCanceledError,
    TimeoutTooLargeError,
    UnauthorizedError,
    error_for_code,
)
from .._generated import CLASSES

__all__ = [
    "_CODE_TO_CLASS",
    "AgentRunError",
    "Any",
    "ExecutionDeadlineError",
    "IdleTimeoutError",
    "NotFoundError",
    "Optional",
    "RateLimitedError",
    "RequestCanceledError",
    "TimeoutTooLargeError",
    "UnauthorizedError",
    "error_for_code",
]

# mitos-run's table held 7 codes; this one holds every catalogue code.
_CODE_TO_CLASS: dict[str, type[AgentRunError]] = dict(CLASSES)
