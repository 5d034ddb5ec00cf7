"""Go source text for the places a catalogue value lands: string literals, comments, names.

One function per place, so a text from the catalogue can never end a
literal or a comment early, whatever characters it holds.
"""

from __future__ import annotations

import textwrap


def string(text: str) -> str:
    """``text`` as a Go interpreted string literal: printable ASCII as it is, the rest escaped."""
    out = ['"']
    for char in text:
        point = ord(char)
        if char in '"\\':
            out.append("\\" + char)
        elif 0x20 <= point < 0x7F:
            out.append(char)
        elif point < 0x10000:
            out.append(f"\\u{point:04x}")
        else:
            out.append(f"\\U{point:08x}")
    out.append('"')
    return "".join(out)


def strings(texts: tuple[str, ...] | list[str]) -> str:
    """A Go ``[]string`` literal of ``texts`` (``nil`` when there are none)."""
    if not texts:
        return "nil"
    return "[]string{" + ", ".join(string(t) for t in texts) + "}"


def comment(text: str, indent: str = "", width: int = 76) -> str:
    """``text`` as ``//`` comment lines (line breaks and controls of the catalogue become spaces)."""
    flat = "".join(" " if ord(c) < 0x20 or c in "\x7f\x85\u2028\u2029" else c for c in text)
    lines = textwrap.wrap(" ".join(flat.split()), width) or [""]
    return "\n".join(f"{indent}// {line}".rstrip() for line in lines)
