"""The character-level checks of a catalogue, before any YAML is parsed.

A byte order mark, invalid UTF-8, characters YAML refuses and tabs outside
quoted strings are reported here with their exact line and column. The text
handed on to the parser has them blanked, offsets unchanged, so one run still
reports everything else too.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

import yaml

from errcat.problems import Problem
from errcat.source.document import Mark

_BOM = b"\xef\xbb\xbf"
_BREAK_RE = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")
"""Line breaks as YAML counts them."""
_NOT_PRINTABLE_RE = re.compile(
    "[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
"""Characters YAML does not allow in a stream at all (tab is checked apart)."""


def _add(problems: list[Problem], file: str, mark: Mark, rule: str, message: str, fix: str) -> None:
    problems.append(Problem(file, mark[0], mark[1], rule, message, fix))


class Lines:
    """Turns character offsets into 1-based (line, column), breaking lines as YAML does."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in _BREAK_RE.finditer(text)]

    def at(self, index: int) -> Mark:
        """The 1-based (line, column) of the character at ``index``."""
        low, high = 0, len(self.starts) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if self.starts[middle] <= index:
                low = middle
            else:
                high = middle - 1
        return low + 1, index - self.starts[low] + 1


def decode(raw: bytes, file: str, problems: list[Problem]) -> str:
    """Decode UTF-8, reporting a byte order mark and the first invalid byte.

    Args:
        raw: the file's bytes.
        file: the path shown in problems.
        problems: where to append what is found.

    Returns:
        The text; invalid bytes become U+FFFD so the rest can still be checked.
    """
    if raw.startswith(_BOM):
        _add(
            problems,
            file,
            (1, 1),
            "bom",
            "the file starts with a UTF-8 byte order mark",
            "save the file as UTF-8 without a byte order mark (BOM)",
        )
        raw = raw[len(_BOM) :]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        start = err.start
        line_start = raw.rfind(b"\n", 0, start) + 1
        column = len(raw[line_start:start].decode("utf-8", "replace")) + 1
        _add(
            problems,
            file,
            (raw.count(b"\n", 0, start) + 1, column),
            "invalid-utf8",
            f"byte 0x{raw[start]:02X} is not valid UTF-8 ({err.reason})",
            "save the file as UTF-8 (re-type the character at this position)",
        )
        return raw.decode("utf-8", "replace")


def clean(text: str, lines: Lines, file: str, problems: list[Problem], loader: type[Any]) -> str:
    """Report characters YAML refuses and tabs outside quoted strings.

    Args:
        text: the decoded catalogue.
        lines: the line index of ``text``.
        file: the path shown in problems.
        problems: where to append what is found.
        loader: the PyYAML loader class whose scanner finds the quoted strings.

    Returns:
        The text with those characters turned into spaces (offsets unchanged),
        so the rest of the file can still be parsed and checked.
    """
    chars = list(text)
    for match in _NOT_PRINTABLE_RE.finditer(text):
        _add(
            problems,
            file,
            lines.at(match.start()),
            "control-character",
            f"the control character U+{ord(match.group()):04X} is not allowed in YAML",
            "delete the character",
        )
        chars[match.start()] = " "
    tabs = [i for i, char in enumerate(chars) if char == "\t"]
    if not tabs:
        return "".join(chars)
    spans = _quoted_spans(chars, loader)
    starts = [start for start, _end in spans]
    reported_lines: set[int] = set()
    for index in tabs:
        inside = bisect.bisect_left(starts, index) - 1
        if inside >= 0 and index < spans[inside][1]:
            continue
        chars[index] = " "
        line, column = lines.at(index)
        if line not in reported_lines:
            reported_lines.add(line)
            _add(
                problems,
                file,
                (line, column),
                "tab",
                "a tab character outside a quoted string; YAML indentation must use spaces",
                "replace the tab with spaces",
            )
    return "".join(chars)


def _quoted_spans(chars: list[str], loader: type[Any]) -> list[tuple[int, int]]:
    """Offsets of quoted scalars, from one scan of the text with every tab blanked.

    A tab inside a quoted scalar and the space that replaces it scan alike, so
    the spans are those of the original text; a tab outside one would stop the
    scanner, and blanking them all first keeps the scan to one pass.
    """
    work = "".join(chars).replace("\t", " ")
    spans: list[tuple[int, int]] = []
    try:
        for token in yaml.scan(work, Loader=loader):
            if isinstance(token, yaml.ScalarToken) and token.style in ("'", '"'):
                spans.append((token.start_mark.index, token.end_mark.index))
    except yaml.MarkedYAMLError:
        pass  # the parser reports the syntax error; tabs past it count as outside
    return spans
