"""The contract of an SDK target: the parts every language's generated SDK is made of.

A language's target lives in ``errcat/render/<key>/target.py`` as ``TARGET``,
an instance of a subclass of :class:`SdkTarget` that implements every part of
:data:`PARTS`; its facts (where its files go, its package names, its reserved
words...) are its :class:`~errcat.names.languages.Language` record. Each part
returns its files, keyed by POSIX path relative to the output root; a part a
language has no file for returns ``{}`` and says why.
"""

from __future__ import annotations

import abc
import importlib
from typing import ClassVar

from errcat.model.catalogue import Catalogue
from errcat.names.languages import Language

PARTS: tuple[str, ...] = (
    "errors",
    "catalogue_data",
    "sanitizer_rules",
    "envelope_types",
    "package_files",
)
"""The parts of a generated SDK, in render order: each a method of :class:`SdkTarget`."""


class SdkTarget(abc.ABC):
    """One SDK language's renderer: one method per part of the generated SDK."""

    language: ClassVar[Language]
    """The record of the language this target renders."""

    def output_dir(self, cat: Catalogue) -> str:
        """The folder the generated files go in, for ``cat``'s package names."""
        return self.language.output_dir(cat.packages[self.language.key])

    @abc.abstractmethod
    def errors(self, cat: Catalogue) -> dict[str, str]:
        """The error declarations: the base class under the catalogue's name, one class per code."""

    @abc.abstractmethod
    def catalogue_data(self, cat: Catalogue) -> dict[str, str]:
        """The catalogue as data the runtime reads: per-code specs and texts, fallback, limits, gRPC map."""

    @abc.abstractmethod
    def sanitizer_rules(self, cat: Catalogue) -> dict[str, str]:
        """The sanitizer's character table, secret and injection patterns, and their triggers."""

    @abc.abstractmethod
    def envelope_types(self, cat: Catalogue) -> dict[str, str]:
        """The types of the wire envelope, from the generated JSON Schema."""

    @abc.abstractmethod
    def package_files(self, cat: Catalogue) -> dict[str, str]:
        """What the package itself needs beside the errors (its version file...)."""

    def render(self, cat: Catalogue) -> dict[str, str]:
        """Every file of every part.

        Raises:
            ValueError: two parts render the same path (a target bug).
        """
        files: dict[str, str] = {}
        for part in PARTS:
            rendered: dict[str, str] = getattr(self, part)(cat)
            for path in rendered:
                if path in files:
                    raise ValueError(f"{self.language.key}: two parts render {path}")
            files |= rendered
        return files


def missing_parts(target: type[SdkTarget]) -> list[str]:
    """The parts of :data:`PARTS` that ``target`` leaves unimplemented."""
    return [part for part in PARTS if part in getattr(target, "__abstractmethods__", ())]


def sdk_target(language: Language) -> SdkTarget:
    """The ``TARGET`` of ``errcat/render/<key>/target.py``.

    Raises:
        TypeError: it is not an :class:`SdkTarget` of ``language``.
    """
    module = importlib.import_module(f"errcat.render.{language.key}.target")
    target = getattr(module, "TARGET", None)
    if not isinstance(target, SdkTarget) or target.language is not language:
        raise TypeError(f"{module.__name__}.TARGET is not the SdkTarget of {language.key}")
    return target
