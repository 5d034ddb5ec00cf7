"""How a text is written into generated TypeScript: one function per place it lands.

* :func:`string_literal`: inside a double-quoted string literal;
* :func:`json_literal`: a JSON text, as a single-quoted string literal;
* :func:`doc_text`: inside a ``/** ... */`` doc comment;
* :func:`line_comment`: after ``//``;
* :func:`property_key`: as an object key or interface member name;
* :func:`identifier`: as a declared name (a class, a type); only names the
  validator accepted get there, so anything else is a generator bug.

The generated files hold no template literals, so a backtick or ``${`` only
ever lands in one of the places above. Every function is total: any Python
string (lone surrogates, line and paragraph separators, bidi controls)
gives text that stays in its place and encodes as UTF-8.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

# Categories written as escapes (in literals) or as U+XXXX (in comments):
# controls, format characters (bidi controls among them), surrogates,
# private-use and unassigned code points, and the line and paragraph
# separators, which end a line in JavaScript source.
_HIDDEN = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
_LITERAL_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
}
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")


def _hidden(char: str) -> bool:
    return unicodedata.category(char) in _HIDDEN


def string_literal(text: str) -> str:
    """``text`` as a double-quoted TypeScript string literal that means exactly ``text``.

    Printable characters are kept as they are (the file stays readable);
    quotes, backslashes and every character of :data:`_HIDDEN` are escaped.
    """
    out = []
    for char in text:
        if char in _LITERAL_ESCAPES:
            out.append(_LITERAL_ESCAPES[char])
        elif _hidden(char):
            out.append(f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\u{{{ord(char):x}}}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def json_literal(value: Any) -> str:
    """``value`` as JSON text (compact, keys in their order) in a single-quoted string literal.

    ``JSON.parse`` of the literal gives ``value`` back. The JSON keeps
    printable characters as they are and escapes what JSON must (quotes,
    backslashes, controls); the literal then escapes its own quote, every
    backslash, and every character of :data:`_HIDDEN` left in the text
    (the line and paragraph separators among them), which ``JSON.parse``
    reads back as the character.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    out = []
    for char in text:
        if char in "'\\":
            out.append("\\" + char)
        elif _hidden(char):
            out.append(f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\u{{{ord(char):x}}}")
        else:
            out.append(char)
    return "'" + "".join(out) + "'"


def literal(value: Any) -> str:
    """A JSON scalar (string, integer, boolean, null) as a TypeScript literal.

    Raises:
        ValueError: ``value`` is of another type.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return string_literal(value)
    if isinstance(value, int):
        return str(value)
    raise ValueError(f"unsupported literal {value!r}")


def _visible(text: str) -> str:
    return "".join(f"U+{ord(c):04X}" if _hidden(c) else c for c in text)


def doc_text(text: str) -> str:
    """``text`` as one line of prose inside a ``/** ... */`` comment.

    Whitespace runs (line breaks among them) become one space, ``*/`` cannot
    close the comment, and hidden characters are shown as ``U+XXXX``.
    """
    return _visible(" ".join(text.split())).replace("*/", "*\\/")


def line_comment(text: str) -> str:
    """``text`` as the rest of a ``//`` comment: one line, hidden characters shown as ``U+XXXX``."""
    return _visible(text)


def property_key(name: str) -> str:
    """``name`` as an object key or member name: bare when it is an ASCII identifier."""
    return name if _IDENTIFIER.match(name) else string_literal(name)


def identifier(name: str) -> str:
    """``name`` as a declared TypeScript name.

    Raises:
        ValueError: ``name`` is not an ASCII identifier (the validator lets none through).
    """
    if not _IDENTIFIER.match(name):
        raise ValueError(f"{name!r} is not a TypeScript identifier")
    return name


def string_array(items: tuple[str, ...]) -> str:
    """An array literal of string literals."""
    return "[" + ", ".join(string_literal(item) for item in items) + "]"


# -- the names the TypeScript target declares --------------------------------------

TS_CLASS_MAP_TYPE = "ErrorClassOf"
"""The generated TypeScript interface from each code to its class (``errors.ts``)."""


def ts_spec_constant(code: str) -> str:
    """The constant of a code's spec in the TypeScript catalogue (``RATE_LIMITED_SPEC``)."""
    return f"{code.upper()}_SPEC"


def ts_texts_constant(code: str) -> str:
    """The constant of a code's texts in the TypeScript catalogue (``RATE_LIMITED_TEXTS``).

    No other constant of the catalogue ends in ``_TEXTS`` (specs end in
    ``_SPEC``), so no two codes' constants share a name.
    """
    return f"{code.upper()}_TEXTS"


def ts_identifier(code: str) -> str:
    """The camelCase form of a snake_case key (``retry_after_ms`` gives ``retryAfterMs``)."""
    head, *rest = code.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)
