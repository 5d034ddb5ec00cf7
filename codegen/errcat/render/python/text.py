"""Python source text for the generated modules: deterministic literals and wrapped docstrings."""

from __future__ import annotations

import textwrap

from errcat.render import environment

WIDTH = 99
"""The line length the generated modules are wrapped to."""

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def py_str(text: str) -> str:
    """A deterministic double-quoted Python literal of ``text``.

    A raw literal is used when ``text`` has backslashes and a raw literal can
    hold it unchanged (regular expressions read better that way). Characters
    that are not printable are escaped, so the file is plain readable UTF-8.
    """
    printable = all(ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF for ch in text)
    if "\\" in text and printable and '"' not in text and not text.endswith("\\"):
        return f'r"{text}"'
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF:
            out.append(ch)
        elif ord(ch) <= 0xFF:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return '"' + "".join(out) + '"'


def docstring(paragraphs: list[str], indent: int) -> str:
    """A triple-quoted docstring of ``paragraphs``, wrapped, indented by ``indent`` spaces.

    Each paragraph is collapsed onto words and wrapped at :data:`WIDTH`; a
    paragraph starting with two spaces is kept as preformatted lines.
    """
    pad = " " * indent
    lines: list[str] = []
    for i, para in enumerate(paragraphs):
        if i:
            lines.append("")
        if para.startswith("  "):
            lines.extend(para[2:].splitlines())
            continue
        lines.extend(
            textwrap.wrap(
                " ".join(para.split()),
                width=WIDTH - indent,
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    text = "\n".join(f"{pad}{line}" if line else "" for line in lines)
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"').lstrip(" ")
    closing = f"\n{pad}" if len(lines) > 1 else ""
    if text.endswith('"'):
        text += " "
    return f'"""{text}{closing}"""'


def prose(template: str, cat: object, *, indent: int = 0, **values: object) -> str:
    """The docstring of a prose template (no header): its paragraphs, split at blank lines, wrapped."""
    text = environment().get_template(template).render(cat=cat, **values)
    return docstring(text.strip("\n").split("\n\n"), indent=indent)
