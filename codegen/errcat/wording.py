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


def ascii_snake(text: str) -> str:
    """Suggest a lower snake_case ASCII spelling: ``naïve-Error`` gives ``naive_error``."""
    decomposed = unicodedata.normalize("NFKD", text)
    ascii_only = decomposed.encode("ascii", "ignore").decode("ascii")
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", ascii_only)
    snake = re.sub(r"[^a-z0-9]+", "_", spaced.lower()).strip("_")
    if not snake:
        return "code"
    return snake if snake[0].isalpha() else "e_" + snake


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
