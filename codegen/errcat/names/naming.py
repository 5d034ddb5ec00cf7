"""The one place where generated names are derived.

A code ``rate_limited`` becomes the class ``RateLimitedError`` in both
languages unless the catalogue overrides it. The validator uses the same
functions to reject names that collide, shadow a builtin or are reserved, so
what it checks is exactly what the renderers emit.
"""

from __future__ import annotations

import importlib.resources
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from errcat.names.languages import LANGUAGES
from errcat.names.languages import language as _language


class ErrorCodeNames(Protocol):
    """What :func:`class_names_elsewhere` reads of a code (an :class:`errcat.model.codes.ErrorCode`)."""

    @property
    def code(self) -> str: ...

    @property
    def class_names(self) -> Mapping[str, str]: ...


CODE_RE = re.compile(r"[a-z][a-z0-9_]*\Z")
"""What a code must look like: lower snake_case ASCII."""

CLASS_RE = re.compile(r"[A-Z][A-Za-z0-9]*\Z")

ENVELOPE_TYPE = "ErrorEnvelope"
"""The name of the type of the whole envelope (the schema's root) in the generated SDKs."""

RUNTIME_NAMES_FILE = "reserved.json"


@cache
def runtime_names() -> frozenset[str]:
    """Every name of either SDK package that is not a generated class or derived from the catalogue.

    Read from ``errcat/names/reserved.json``, which :mod:`errcat.names.reserved`
    derives from the packages (their hand-written and generated modules). A
    class may take none of them in either language, so that class names stay
    the same in both, and neither may the base class, except that it may be
    named as a runtime's own base class.
    """
    text = (importlib.resources.files("errcat.names") / RUNTIME_NAMES_FILE).read_text(
        encoding="utf-8"
    )
    data: dict[str, list[str]] = json.loads(text)
    return frozenset(name for names in data.values() for name in names)


@dataclass(frozen=True)
class ClassNameChoice:
    """One language's class name of a code, and the catalogue keys that decide it."""

    name: str
    keys: tuple[str, ...]
    """Under ``codes.<code>``: ``()`` when derived from the code, ``("class_name",)``
    or ``("class_name", "<language>")`` when set."""


def class_names(code: str, override: object) -> dict[str, ClassNameChoice]:
    """Resolve the class name of ``code`` in every language of :data:`LANGUAGES`.

    ``override`` is the code's ``class_name``: a string names the class in
    every language whose classes share names (:attr:`Language.shared_class_name`),
    a mapping per language; a language it does not name gets its own derived
    name (:attr:`Language.derive_class_name`, else :func:`class_name_for`). The one place class names are decided:
    the model and the validator both call it.
    """
    out: dict[str, ClassNameChoice] = {}
    for lang in LANGUAGES:
        if isinstance(override, str) and lang.shared_class_name:
            out[lang.key] = ClassNameChoice(override, ("class_name",))
        elif isinstance(override, dict) and isinstance(override.get(lang.key), str):
            out[lang.key] = ClassNameChoice(override[lang.key], ("class_name", lang.key))
        else:
            derive = lang.derive_class_name or class_name_for
            out[lang.key] = ClassNameChoice(derive(code), ())
    return out


def class_name_for(code: str) -> str:
    """Derive the exception class name of a code, the same in both languages.

    ``rate_limited`` gives ``RateLimitedError``; a code already ending in
    ``_error`` does not get a second suffix (``internal_error`` gives
    ``InternalError``). Digits are kept (``http2_reset`` gives
    ``Http2ResetError``).
    """
    words = [part for part in re.split(r"[^A-Za-z0-9]+", code) if part]
    pascal = "".join(word[:1].upper() + word[1:] for word in words)
    if not pascal:
        return "Error"
    if pascal[0].isdigit():
        pascal = "E" + pascal
    return pascal if pascal.endswith("Error") else pascal + "Error"


def known_type_name(base_class: str) -> str:
    """The TypeScript union of every generated class (``KnownAgentRunError``)."""
    return f"Known{base_class}"


def base_type_names(base_class: str) -> tuple[str, ...]:
    """The names the generated SDKs derive from the base class: its known union, and
    TypeScript's types of its constructor's options and its JSON form (``AgentRunErrorInit``,
    ``AgentRunErrorJSON``)."""
    return (known_type_name(base_class), f"{base_class}Init", f"{base_class}JSON")


def context_type_name(python_class: str) -> str:
    """The envelope type of a code's context, from its class (``RateLimitedContext``)."""
    return f"{python_class.removesuffix('Error')}Context"


def context_field_type_name(field: str) -> str:
    """The envelope type of a context field's value, as the Python envelope names it (``RetryAfterMs``)."""
    return "".join(part[:1].upper() + part[1:] for part in field.split("_"))


def fold(name: str) -> str:
    """Fold a code or class name for collision checks: case and separators ignored."""
    return re.sub(r"[^0-9a-z]", "", name.casefold())


def class_problem(language: str, name: str, base_class: str) -> str | None:
    """Say why ``name`` cannot be a generated class in ``language``, or ``None`` if it can.

    ``base_class`` is the catalogue's: no class may take it, nor the names
    derived from it (:func:`base_type_names`).
    """
    lang = _language(language)
    if not CLASS_RE.match(name):
        return f"{name!r} is not a PascalCase ASCII identifier"
    if name in lang.keywords:
        return f"{name!r} is {lang.keyword_kind}"
    if name in lang.globals:
        return f"{name!r} would shadow {lang.global_kind} of that name"
    if name in (base_class, *base_type_names(base_class)) or name in runtime_names():
        return f"{name!r} is already a name of the SDK runtime"
    return None


def base_class_problem(language: str, name: str) -> str | None:
    """Say why ``name`` cannot be the base class in ``language``, or ``None`` if it can.

    It may be a runtime's own base class name (the runtime's class, under
    its own name), and no other name of either package.
    """
    if name in {lang.runtime_base for lang in LANGUAGES}:
        return None
    return class_problem(language, name, "")


def class_names_elsewhere(codes: Iterable[ErrorCodeNames], language: str) -> list[tuple[str, str]]:
    """The class names the other SDK languages give a code where ``language`` names it otherwise.

    Each pair is (name, code), sorted by name. An error crossing from one SDK to another
    as its dict (``to_dict()`` / ``toJSON()``) names its class in the language it was made in;
    this is how the reading SDK finds that class's code. A name ``language`` itself gives
    a class is left out (its own classes answer first), and so is a name two codes share
    elsewhere (it would say nothing).
    """
    own = {code.class_names[language] for code in codes if language in code.class_names}
    found: dict[str, set[str]] = {}
    for code in codes:
        for lang, name in code.class_names.items():
            if lang != language and name not in own:
                found.setdefault(name, set()).add(code.code)
    return sorted((name, next(iter(c))) for name, c in found.items() if len(c) == 1)
