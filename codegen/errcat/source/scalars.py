"""How the loader reads a plain (unquoted) YAML scalar, and which ones it refuses.

YAML 1.1 and 1.2 tools disagree on many plain scalars: ``no`` is the boolean
false to one and the text ``no`` to another, ``0400`` is 256 or 400, ``1:30``
is 90 or text. A catalogue must mean the same thing to every tool that reads
it, so the loader accepts only the forms every reader agrees on: decimal
integers without a leading zero, plain decimal floats, ``true``/``false`` and
text. Everything ambiguous is a problem with a concrete fix.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from errcat.wording import quoted

MAX_SAFE_INTEGER = 2**53 - 1
"""The largest integer every reader (JavaScript included) holds exactly."""

INT_RE = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
FLOAT_RE = re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+(?:[eE][-+]?[0-9]+)?\Z")

NULLS = frozenset({"", "~", "null", "Null", "NULL"})
YAML11_BOOLEANS: dict[str, bool] = {
    **dict.fromkeys(["y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "True", "TRUE"], True),
    **dict.fromkeys(["n", "N", "no", "No", "NO", "off", "Off", "OFF", "False", "FALSE"], False),
}
"""Plain scalars some YAML tool reads as a boolean, other than ``true``/``false``."""

_SPECIAL_FLOAT_RE = re.compile(r"[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)\Z")
_HEX_RE = re.compile(r"([-+]?)0[xX]([0-9a-fA-F_]+)\Z")
_OCTAL_RE = re.compile(r"([-+]?)0[oO]([0-7_]+)\Z")
_BINARY_RE = re.compile(r"([-+]?)0[bB]([01_]+)\Z")
_SEXAGESIMAL_RE = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?\Z")
_LEADING_ZERO_RE = re.compile(r"([-+]?)0([0-9_]+)\Z")
_OTHER_NUMBER_RE = re.compile(
    r"[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)?\Z"
)

Scalar = str | int | float | bool
"""A value the loader produces for a scalar node."""


@dataclass(frozen=True)
class Refusal:
    """Why a plain scalar is refused: the rule, what is wrong, and the fix."""

    rule: str
    message: str
    fix: str


@dataclass(frozen=True)
class Resolved:
    """A plain scalar read as a value, or refused."""

    value: Scalar | None
    refusal: Refusal | None = None


def _either(number: str, text: str) -> str:
    return f"write {number} if it is a number, or quote it ({quoted(text)}) if it is text"


def _based(sign: str, digits: str, base: int, kind: str, text: str) -> Refusal:
    value = int(sign + digits.replace("_", ""), base)
    return Refusal(
        "ambiguous-number",
        f"{text} is a {kind} number ({value}); YAML tools disagree on such numbers",
        _either(str(value), text),
    )


def _sexagesimal(text: str) -> int | float:
    sign = -1 if text.startswith("-") else 1
    total: int | float = 0
    for part in text.lstrip("+-").replace("_", "").split(":"):
        total = total * 60 + (float(part) if "." in part else int(part))
    return sign * total


def _number_refusal(text: str) -> Refusal | None:
    """Return why a number-like plain scalar is ambiguous, or ``None`` if it is not one."""
    for regex, base, kind in (
        (_HEX_RE, 16, "hexadecimal"),
        (_OCTAL_RE, 8, "octal"),
        (_BINARY_RE, 2, "binary"),
    ):
        match = regex.match(text)
        if match:
            return _based(match.group(1), match.group(2), base, kind, text)
    if _SEXAGESIMAL_RE.match(text):
        value = _sexagesimal(text)
        return Refusal(
            "ambiguous-number",
            f"{text} is read by YAML 1.1 tools as the base-60 number {value}, by others as text",
            f"quote it ({quoted(text)}) if it is text, or write {value} if it is a number",
        )
    match = _LEADING_ZERO_RE.match(text)
    if match:
        digits = match.group(2).replace("_", "")
        decimal = str(int(match.group(1) + digits))
        if set(digits) <= set("01234567"):
            octal = str(int(match.group(1) + digits, 8))
            what = (
                f"YAML 1.1 reads it as the octal number {octal}, YAML 1.2 as {decimal}"
                if octal != decimal
                else "YAML 1.1 tools read it as an octal number"
            )
        else:
            what = "YAML tools disagree on how to read it"
        return Refusal(
            "ambiguous-number", f"{text} has a leading zero: {what}", _either(decimal, text)
        )
    if _OTHER_NUMBER_RE.match(text):
        cleaned = text.replace("_", "")
        number = float(cleaned) if any(c in cleaned for c in ".eE") else int(cleaned)
        if not math.isfinite(number):
            raise OverflowError(text)
        return Refusal(
            "ambiguous-number",
            f"{text} is not a plain decimal number; YAML tools disagree on how to read it",
            _either(str(number), text),
        )
    return None


def _decimal(text: str) -> Resolved:
    """Read a plain decimal integer or float that JSON and JavaScript carry exactly."""
    if INT_RE.match(text):
        digits = text.lstrip("-")
        if len(digits) <= 16 and int(digits) <= MAX_SAFE_INTEGER:
            return Resolved(int(text))
        what = "an integer too large for JavaScript to read exactly (above 2^53 - 1)"
    else:
        value = float(text)
        if math.isfinite(value):
            return Resolved(value)
        what = "a number too large for a double"
    shown = text if len(text) <= 24 else text[:24] + "..."
    return Resolved(
        None,
        Refusal("number-too-large", f"{shown} is {what}", "write a smaller number, or quote it"),
    )


def resolve_plain(text: str) -> Resolved:
    """Read a plain scalar as the catalogue loader does.

    Args:
        text: the scalar exactly as written, without quotes.

    Returns:
        The value (``int``, ``float``, ``bool`` or ``str``), or a refusal for
        nulls and for the YAML 1.1 forms that tools read differently.
    """
    if text in NULLS:
        shown = "the value is empty" if text == "" else f"the value {text} is null"
        return Resolved(
            None,
            Refusal(
                "null-value",
                f"{shown}; a catalogue has no null values",
                "give it a value, or remove the key",
            ),
        )
    if text in ("true", "false"):
        return Resolved(text == "true")
    if text in YAML11_BOOLEANS:
        word = "true" if YAML11_BOOLEANS[text] else "false"
        return Resolved(
            None,
            Refusal(
                "yaml11-boolean",
                f"{text} is read as the boolean {word} by YAML 1.1 tools and as text by others",
                f"write {word} if it is a boolean, or quote it ({quoted(text)}) if it is text",
            ),
        )
    if INT_RE.match(text) or FLOAT_RE.match(text):
        return _decimal(text)
    if _SPECIAL_FLOAT_RE.match(text):
        return Resolved(
            None,
            Refusal(
                "special-float",
                f"{text} is a special floating-point value, which JSON cannot carry",
                f"write a finite number, or quote it ({quoted(text)}) if it is text",
            ),
        )
    try:
        refusal = _number_refusal(text)
    except (ValueError, OverflowError):  # too many digits to convert
        refusal = Refusal(
            "ambiguous-number",
            f"{text[:24]}... is not a plain decimal number",
            "write a plain decimal number, or quote it if it is text",
        )
    if refusal is not None:
        return Resolved(None, refusal)
    return Resolved(text)
