"""How catalogue text lands in generated Markdown (``docs/errors.md``, ``llms.txt``, READMEs,
``errcat diff`` reports): escaped for where it lands.

:func:`inline` for prose, headings and table cells (Markdown and HTML
punctuation, pipes, line breaks), :func:`wrap` for paragraphs at the
Markdown lint's width, :func:`fence` for code blocks (a fence longer than any
backtick run inside).
"""

from __future__ import annotations

import re

_MARKDOWN_PUNCTUATION_RE = re.compile(r"[\\`*\[\]<>|~#&]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
"""Characters that could start Markdown or HTML syntax; ``_`` only beside a non-word."""
_LINE_START_RE = re.compile(r"\A([0-9]*)([-+=]|(?<=[0-9])[.)])")
"""A start of text that would open a list item or underline a heading."""
_URL_RE = re.compile(r"https?://[^\s<>|`\\]*[^\s<>|`\\.,;:!?'\")\]]")
"""A web address in prose, without the punctuation that ends its sentence."""
WIDTH = 80
"""The column prose wraps at (markdownlint's MD013 in .markdownlint-cli2.jsonc)."""


def _escape(text: str) -> str:
    return _MARKDOWN_PUNCTUATION_RE.sub(lambda m: "\\" + m.group(), text)


def _line_start(text: str) -> str:
    """``text`` with a start that would open a block (a list item, an underline) escaped."""
    return _LINE_START_RE.sub(lambda m: f"{m.group(1)}\\{m.group(2)}", text)


def inline(text: str) -> str:
    """Make ``text`` one line of literal Markdown: prose, a heading or a table cell.

    Whitespace runs (line breaks included) become one space, and every
    character that could open Markdown or HTML syntax is backslash-escaped,
    so ``<!--``, ``|``, `````` ` `````` and ``*`` show as themselves. A web
    address becomes an autolink (``<https://...>``), which reads the same with
    or without GitHub's bare-link extension.
    """
    flat = " ".join(text.split())
    parts, end = [], 0
    for url in _URL_RE.finditer(flat):
        parts += [_escape(flat[end : url.start()]), f"<{url.group()}>"]
        end = url.end()
    return _line_start("".join([*parts, _escape(flat[end:])]))


def wrap(markdown: str, width: int = WIDTH) -> str:
    """Break a paragraph of Markdown into lines of at most ``width`` columns.

    Lines break only at spaces, so no escape, code span or autolink is split
    (a word longer than ``width`` keeps a line of its own), and a line that
    would open a block where it now starts (``-``, ``1.``) has that start escaped.
    """
    lines: list[str] = []
    for word in markdown.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(_line_start(word))
    return "\n".join(lines)


def cell(text: str) -> str:
    """Make ``text`` safe inside a Markdown table cell (see :func:`inline`)."""
    return inline(text)


def fence(text: str, info: str = "") -> str:
    """Wrap ``text`` in a code fence longer than any run of backticks inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{info}\n{text}\n{marks}"


def code_list(names: tuple[str, ...] | list[str]) -> str:
    """Format names as comma-separated inline code, or an em dash when empty."""
    return ", ".join(f"`{n}`" for n in names) if names else "—"
