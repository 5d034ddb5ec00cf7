"""The error codes the Mitos TypeScript SDK's own modules raise, found by reading their source.

The TypeScript twin of ``scan.py``: every construction of an error class of
the Mitos SDK's ``src/errors.ts`` (``new AgentRunError(...)``, a typed class,
``errorForCode(...)``) is a site, and its code is the ``code:`` member of its
options. A string literal is taken as it is; a name is resolved to the string
literals assigned to it in the same file (``let sdkCode = code ||
"internal_error"``). ``src/errors.ts`` itself, which the compat layer
replaces, is left out: its codes are the fallbacks the migration guide covers.
"""

from __future__ import annotations

import re
from pathlib import Path

from testkit.mitos_run.scan import Site, scan_files

ERROR_NAMES = (
    "AgentRunError",
    "IdleTimeoutError",
    "ExecutionDeadlineError",
    "RequestCanceledError",
    "RateLimitedError",
    "NotFoundError",
    "UnauthorizedError",
    "TimeoutTooLargeError",
)
REPLACED = frozenset({"errors.ts"})

_CALL = re.compile(r"\bnew\s+(?:" + "|".join(ERROR_NAMES) + r")\s*\(|\berrorForCode\s*\(")
_CODE = re.compile(r"""\bcode\s*:\s*(?:(["'])([^"'\\]*)\1|([A-Za-z_$][\w$]*))""")
_STRING = re.compile(r"""(["'])([^"'\\]*)\1""")
_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\w\\])//[^\n]*", re.DOTALL)


def _arguments(text: str, start: int) -> str:
    """The text from ``start`` (just past an opening parenthesis) to its closing one."""
    depth, i, quote = 1, start, ""
    while i < len(text) and depth:
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'`":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        i += 1
    return text[start : i - 1]


def _assigned(text: str, name: str) -> list[str]:
    """The string literals assigned to ``name`` anywhere in ``text``."""
    found: list[str] = []
    for m in re.finditer(rf"(?<![\w$.]){re.escape(name)}\s*=(?!=)([^;\n]*)", text):
        found += [s[1] for s in _STRING.findall(m[1])]
    return found


def _sites_in(path: Path, rel: str) -> tuple[list[Site], list[str]]:
    # A comment keeps its line breaks, so that line numbers stay right.
    text = _COMMENT.sub(lambda m: "\n" * m[0].count("\n"), path.read_text(encoding="utf-8"))
    sites: list[Site] = []
    unresolved: list[str] = []
    for call in _CALL.finditer(text):
        line = text.count("\n", 0, call.start()) + 1
        member = _CODE.search(_arguments(text, call.end()))
        codes: list[str] = []
        if member is not None:
            codes = [member[2]] if member[3] is None else _assigned(text, member[3])
        if not codes:
            unresolved.append(f"{rel}:{line}")
        sites += [Site(rel, line, code) for code in codes]
    return sites, unresolved


def scan(tree: Path) -> tuple[list[Site], list[str]]:
    """Every site under ``tree/src`` and the ``path:line`` of each whose code could not be read."""
    return scan_files(tree / "src", "*.ts", REPLACED, _sites_in)
