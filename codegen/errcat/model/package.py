"""What the generated packages say about themselves, and what a repository adds to them.

Every SDK errcat generates is a complete package (a manifest, a README, a
licence, the runtime and the generated modules). Its metadata comes from the
catalogue's ``api`` section: :class:`PackageInfo` holds the parts the other
stages do not read (``package_description``, ``license``, ``repository``), each
with the default a catalogue may rely on. ``packages.overlay`` names, per
language, the files a repository keeps in a package folder by hand (its
tests, a compatibility layer) and what they add to the manifest;
``errcat check`` holds every other file of the folder to errcat's output.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

OVERLAY_KEY = "overlay"
"""The key of ``packages`` that is no language's names: the hand-written overlay."""

PACKAGE_METADATA = ("package_description", "license", "repository")
"""The keys of ``api`` that only the packages' manifests and READMEs read."""

DEFAULT_LICENSE = "Apache-2.0"
"""The licence of a catalogue that names none (``api.license``): the licence errcat ships the text of."""


@dataclass(frozen=True)
class Overlay:
    """The hand-written part of one language's package (``packages.overlay.<key>``)."""

    files: tuple[str, ...] = ()
    """Patterns of the hand-written files, relative to the package folder (``*`` matches across folders)."""
    manifest: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    """What the files add to the package's manifest (extras, scripts...), as each target reads it."""

    def declares(self, rel: str) -> bool:
        """Whether ``rel`` (a POSIX path relative to the package folder) is a hand-written file."""
        return any(fnmatch.fnmatchcase(rel, pattern) for pattern in self.files)


NO_OVERLAY = Overlay()
"""A package errcat writes whole."""


@dataclass(frozen=True)
class PackageInfo:
    """The packages' metadata beyond their names (``api.package_description``, ``license``, ``repository``)."""

    description: str
    """One sentence on the packages (the PyPI and npm description)."""
    license: str = DEFAULT_LICENSE
    """An SPDX licence expression."""
    repository: str | None = None
    """The URL of the source repository, when the catalogue gives one."""
    overlay: Mapping[str, Overlay] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    """Each language's hand-written part, by language key (absent: errcat writes the package whole)."""

    def overlay_of(self, key: str) -> Overlay:
        """The overlay of language ``key`` (:data:`NO_OVERLAY` when it declares none)."""
        return self.overlay.get(key, NO_OVERLAY)


def build_package_info(api: Mapping[str, Any], packages: Mapping[str, Any]) -> PackageInfo:
    """The :class:`PackageInfo` of a validated catalogue's ``api`` and ``packages`` sections."""
    overlays = {
        key: Overlay(
            files=tuple(entry.get("files", ())),
            manifest=MappingProxyType({k: v for k, v in entry.items() if k != "files"}),
        )
        for key, entry in packages.get(OVERLAY_KEY, {}).items()
    }
    return PackageInfo(
        description=api.get("package_description")
        or f"Typed errors of {api['name']}, generated from its error catalogue.",
        license=api.get("license", DEFAULT_LICENSE),
        repository=api.get("repository"),
        overlay=MappingProxyType(overlays),
    )
