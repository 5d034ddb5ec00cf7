"""Catalogue versions: semantic versions, the bump between two, and the next one.

Only the ``MAJOR.MINOR.PATCH`` core decides a bump; a pre-release or build
suffix is kept when printing but never makes a version higher or lower.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

from errcat.evolve.rules import Bump
from errcat.metaschema import schema_text


@functools.cache
def semver_re() -> re.Pattern[str]:
    """The meta-schema's pattern of ``version``: the one definition of a catalogue version."""
    pattern: str = json.loads(schema_text())["properties"]["version"]["pattern"]
    return re.compile(pattern.removesuffix("$") + r"\Z")


@dataclass(frozen=True, order=True)
class Version:
    """The numeric core of a semantic version, with its text as written."""

    major: int
    minor: int
    patch: int
    text: str = ""

    @property
    def core(self) -> tuple[int, int, int]:
        """``(major, minor, patch)``."""
        return self.major, self.minor, self.patch

    def __str__(self) -> str:
        return self.text or f"{self.major}.{self.minor}.{self.patch}"


def parse(text: str) -> Version | None:
    """Read a semantic version; ``None`` when ``text`` is not one."""
    match = semver_re().match(text)
    if match is None:
        return None
    return Version(int(match[1]), int(match[2]), int(match[3]), text)


def bump_between(old: Version, new: Version) -> Bump | None:
    """The bump from ``old`` to ``new``; ``None`` when ``new`` is lower."""
    if new.core < old.core:
        return None
    if new.major > old.major:
        return Bump.MAJOR
    if new.minor > old.minor:
        return Bump.MINOR
    if new.patch > old.patch:
        return Bump.PATCH
    return Bump.NONE


def bumped(old: Version, bump: Bump) -> Version:
    """The smallest version after ``old`` that makes ``bump``."""
    if bump is Bump.MAJOR:
        return Version(old.major + 1, 0, 0)
    if bump is Bump.MINOR:
        return Version(old.major, old.minor + 1, 0)
    if bump is Bump.PATCH:
        return Version(old.major, old.minor, old.patch + 1)
    return Version(*old.core)
