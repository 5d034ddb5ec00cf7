"""How a text lands in Rust source: string literals, doc comments, identifiers.

One function per place a text lands, so no template escapes anything itself.
"""

from __future__ import annotations

import re

from errcat.names.rust_names import RUST_KEYWORDS

_NOT_RAW = frozenset({"crate", "self", "Self", "super"})
"""Keywords that cannot be raw identifiers: they get a trailing ``_`` instead."""


def string(text: str) -> str:
    """``text`` as a Rust string literal of printable ASCII (every other character as ``\\u{..}``)."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            out.append(f"\\u{{{ord(ch):x}}}")
    return '"' + "".join(out) + '"'


def strings(texts: tuple[str, ...] | list[str]) -> str:
    """A ``&[&str]`` literal."""
    return "&[" + ", ".join(string(t) for t in texts) + "]"


def doc(text: str) -> str:
    """Prose for a ``///`` comment: one line, reStructuredText ``literals`` as Markdown `code`."""
    one = re.sub(r"\s+", " ", text.replace("``", "`")).strip()
    return "".join(ch if ch >= " " else " " for ch in one)


def snake(name: str) -> str:
    """A snake_case name as an identifier: a keyword as a raw identifier (``r#type``), or ``self_``."""
    if name in _NOT_RAW:
        return name + "_"
    return f"r#{name}" if name in RUST_KEYWORDS else name


def comment(text: str) -> str:
    """A header line for a ``//`` comment (the header lines are already one line each)."""
    return text
