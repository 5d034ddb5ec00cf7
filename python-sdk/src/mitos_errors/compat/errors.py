"""Every name of mitos-run's ``mitos.errors``, backed by the catalogue's classes.

``from mitos_errors.compat.errors import *`` gives the same names; the
classes are mitos_errors' own, so ``except AgentRunError`` catches every
catalogue error, and a typed class accepts only its own code.

The class names are read from the generated classes of mitos-run's seven
codes, not written here: the catalogue is the one place class names come
from (and its generator keeps them off every name written in this package).
"""

from __future__ import annotations

from typing import Any, Optional

from .. import error_for_code
from .._base import CLASSES, AgentRunError

# The codes of mitos-run 0.3.1's typed classes.
_MITOS_RUN_CODES = (
    "idle_timeout",
    "exec_timeout",
    "canceled",
    "rate_limited",
    "not_found",
    "unauthorized",
    "timeout_too_large",
)
_TYPED: list[type[AgentRunError]] = [AgentRunError]
_TYPED += [CLASSES[code] for code in _MITOS_RUN_CODES]
_CLASSES = {cls.__name__: cls for cls in _TYPED}
globals().update(_CLASSES)

# mitos-run's table held 7 codes; this one holds every catalogue code.
_CODE_TO_CLASS: dict[str, type[AgentRunError]] = dict(CLASSES)

__all__ = ["_CODE_TO_CLASS", "Any", "Optional", "error_for_code"]
__all__ += list(_CLASSES)
