"""The catalogue's classes by code: which class an error of a code is, and a new one to fill.

The table is the base class's registry (``_base.CLASSES``), which the generated classes fill as
they are declared.
"""

from __future__ import annotations

from ._base import CLASSES, AgentRunError

__all__ = ["CLASSES", "lookup", "new_error"]


def lookup(code: str) -> type[AgentRunError]:
    """Return the exception class of ``code``; a code the catalogue does not know gives the base class.

    The match is exact: ``code`` is compared as given, not sanitized.
    """
    return CLASSES.get(code, AgentRunError) if type(code) is str else AgentRunError


def new_error(kind: str | None) -> AgentRunError:
    """A new, unfilled error of the class of ``kind`` (the base class for none), for ``fill``."""
    cls = CLASSES[kind] if kind is not None else AgentRunError
    return cls.__new__(cls)
