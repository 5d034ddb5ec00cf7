"""How problems name values, characters and suggestions, the same way everywhere."""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from collections.abc import Iterable

_CONTROL_NAMES = {
    0x00: "NULL",
    0x07: "BELL",
    0x08: "BACKSPACE",
    0x09: "CHARACTER TABULATION",
    0x0A: "LINE FEED",
    0x0B: "LINE TABULATION",
    0x0C: "FORM FEED",
    0x0D: "CARRIAGE RETURN",
    0x1B: "ESCAPE",
    0x7F: "DELETE",
    0x85: "NEXT LINE",
}


BIDI = frozenset([*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C])
"""Bidirectional controls: they make text display unlike what it says."""
INVISIBLE = frozenset(
    [
        *range(0x200B, 0x200E),
        *range(0x2060, 0x2065),
        *(0xFEFF, 0x00AD, 0x180E, 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0),
        *range(0x180B, 0x1810),
        *range(0xFE00, 0xFE10),
        *range(0xE0100, 0xE01F0),
    ]
)
"""Characters that draw nothing (zero-width, fillers, variation selectors)."""
BLANK_LOOKING = frozenset([0x2800, 0x2062, 0x2063, 0x2064])
"""Visible characters that draw as a blank (U+2800 BRAILLE PATTERN BLANK)."""
_BLANK_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Mn", "Me"})
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def char_rule(char: str) -> str | None:
    """Say which text rule ``char`` breaks, or ``None`` if it may appear in catalogue text."""
    point = ord(char)
    if point in BIDI:
        return "bidi-control"
    category = unicodedata.category(char)
    if point in INVISIBLE or category == "Cf":
        return "invisible-character"
    if category in ("Cc", "Cs", "Zl", "Zp"):
        return "control-character"
    return None


def is_blank(text: str) -> bool:
    """True when ``text`` would show as nothing: only spaces, controls, marks and blanks."""
    return all(
        char.isspace()
        or ord(char) in INVISIBLE
        or ord(char) in BLANK_LOOKING
        or unicodedata.category(char) in _BLANK_CATEGORIES
        for char in text
    )


def _unsafe(char: str) -> bool:
    return (
        ord(char) in BIDI
        or ord(char) in INVISIBLE
        or (unicodedata.category(char) in _UNSAFE_CATEGORIES or char == "\x85")
    )


def one_line(text: str) -> str:
    """Make ``text`` safe to print as (part of) one terminal line.

    Line breaks, controls, bidi and invisible characters become escapes
    (``\\n``, ``\\u202E``), so a problem stays on its line and displays as
    what it says, whatever the catalogue holds.
    """
    if text.isascii() and text.isprintable():
        return text
    out = []
    for char in text:
        if not _unsafe(char):
            out.append(char)
        elif char in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[char])
        else:
            point = ord(char)
            out.append(f"\\u{point:04X}" if point <= 0xFFFF else f"\\U{point:08X}")
    return "".join(out)


def quoted(text: str) -> str:
    """Quote ``text`` as a JSON string (also a valid YAML double-quoted scalar)."""
    return json.dumps(text, ensure_ascii=False)


def shown(value: object) -> str:
    """Show a scalar as it would be written in the catalogue; name containers by kind."""
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, bool | int | float) or value is None:
        return json.dumps(value)
    return kind_of(value)


def kind_of(value: object) -> str:
    """Name the JSON kind of a value with its article: ``a string``, ``an integer``..."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "null"


def schema_kind(name: str) -> str:
    """Name a JSON Schema type with its article, as :func:`kind_of` names values."""
    return {
        "string": "a string",
        "integer": "an integer",
        "number": "a number",
        "boolean": "a boolean",
        "array": "a list",
        "object": "a mapping",
        "null": "null",
    }.get(name, name)


def describe_char(char: str) -> str:
    """Name a character by code point and Unicode name: ``U+202E RIGHT-TO-LEFT OVERRIDE``."""
    point = ord(char)
    name = unicodedata.name(char, "") or _CONTROL_NAMES.get(point, "")
    if not name:
        category = unicodedata.category(char)
        name = {"Cc": "control character", "Cs": "surrogate"}.get(category, "unnamed character")
    return f"U+{point:04X} {name}"


def _ascii_snake(text: str) -> str:
    """A lower snake_case ASCII spelling, dropping what has no ASCII form: ``naïve-Error`` gives ``naive_error``."""
    decomposed = unicodedata.normalize("NFKD", text)
    ascii_only = decomposed.encode("ascii", "ignore").decode("ascii")
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", ascii_only)
    snake = re.sub(r"[^a-z0-9]+", "_", spaced.lower()).strip("_")
    if not snake:
        return "code"
    return snake if snake[0].isalpha() else "e_" + snake


def snake_suggestion(text: str) -> str | None:
    """The lower snake_case ASCII name to suggest for ``text``, or ``None``.

    Accents and compatibility forms fold to ASCII (``naïve`` gives
    ``naive``), but a letter or digit with no ASCII form (a Cyrillic ``а``
    that looks like ``a``) would be dropped and the suggestion be a wrong
    name, so then nothing is suggested.
    """
    decomposed = unicodedata.normalize("NFKD", text)
    if any(not c.isascii() and unicodedata.category(c)[0] in "LN" for c in decomposed):
        return None
    return _ascii_snake(text)


def close_match(word: str, options: Iterable[str]) -> str | None:
    """Return the option ``word`` was most likely meant to be, if one is close."""
    choices = list(options)
    matches = difflib.get_close_matches(word, choices, n=1, cutoff=0.75)
    if matches:
        return matches[0]
    if len(word) >= 4:
        stems = [c for c in choices if c.startswith(word) or word.startswith(c)]
        if len(stems) == 1:
            return stems[0]
    return None


def listing(options: Iterable[str]) -> str:
    """Join options for a message: ``a, b, c``."""
    return ", ".join(options)
