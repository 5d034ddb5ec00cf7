"""How far a catalogue change reaches, the version bump it needs, and the record of a diff rule."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Level(enum.IntEnum):
    """How far a change reaches, from text only (docs) to broken deployments (wire)."""

    DOCS = 0
    ADDITIVE = 1
    BEHAVIOUR = 2
    SDK = 3
    WIRE = 4

    @property
    def label(self) -> str:
        """The lower-case name printed in ``[LEVEL rule]`` and accepted by ``--fail-on``."""
        return self.name.lower()

    @property
    def bump(self) -> Bump:
        """The smallest version bump a change at this level needs."""
        if self >= Level.SDK:
            return Bump.MAJOR
        if self is Level.BEHAVIOUR:
            return Bump.MINOR
        return Bump.PATCH


class Bump(enum.IntEnum):
    """A semantic-version bump, ordered by size; ``NONE`` is the same version."""

    NONE = 0
    PATCH = 1
    MINOR = 2
    MAJOR = 3

    @property
    def label(self) -> str:
        """``major``, ``minor``, ``patch`` or ``no``, as in "a major bump"."""
        return "no" if self is Bump.NONE else self.name.lower()


@dataclass(frozen=True)
class Rule:
    """One kind of change: its level and the three texts of its report line."""

    name: str
    level: Level
    what: str
    effect: str
    fix: str
