"""The error codes mitos-run's own modules raise, found by reading their source.

Every call of an error class of ``mitos.errors`` (or ``error_for_code``) is a
site; its code is the ``code`` argument. A literal is taken as it is; a
variable is resolved to the string literals assigned to it in the same
function (``sdk_code = code or "internal_error"``). The two modules the
compat layer replaces (errors.py, _envelope.py) are left out: their codes are
the fallbacks the migration guide covers.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

ERROR_NAMES = frozenset(
    {
        "AgentRunError",
        "error_for_code",
        "IdleTimeoutError",
        "ExecutionDeadlineError",
        "RequestCanceledError",
        "RateLimitedError",
        "NotFoundError",
        "UnauthorizedError",
        "TimeoutTooLargeError",
    }
)
REPLACED = frozenset({"errors.py", "_envelope.py"})


@dataclass(frozen=True)
class Site:
    """One place that raises a code."""

    path: str
    line: int
    code: str


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _code_argument(call: ast.Call, name: str) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "code":
            return keyword.value
    position = 0 if name == "error_for_code" else 1
    return call.args[position] if len(call.args) > position else None


def _literals(node: ast.AST) -> list[str]:
    """The string literals an expression can evaluate to (``a or "x"`` gives ``x``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.BoolOp):
        return [text for value in node.values for text in _literals(value)]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def _assigned(scope: ast.AST, name: str) -> list[str]:
    found: list[str] = []
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            found += _literals(node.value)
    return found


def _sites_in(path: Path, rel: str) -> tuple[list[Site], list[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    sites: list[Site] = []
    unresolved: list[str] = []
    scopes = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    for scope in [tree, *scopes]:
        body = scope.body if isinstance(scope, ast.Module) else [scope]
        for node in (n for part in body for n in ast.walk(part)):
            if not isinstance(node, ast.Call) or _called_name(node) not in ERROR_NAMES:
                continue
            if isinstance(scope, ast.Module) and any(node in list(ast.walk(s)) for s in scopes):
                continue  # counted with its function
            arg = _code_argument(node, _called_name(node) or "")
            codes = _literals(arg) if arg is not None else []
            if not codes and isinstance(arg, ast.Name):
                codes = _assigned(scope, arg.id)
            if not codes:
                unresolved.append(f"{rel}:{node.lineno}")
            sites += [Site(rel, node.lineno, code) for code in codes]
    return sites, unresolved


def scan(tree: Path) -> tuple[list[Site], list[str]]:
    """Every site under ``tree/mitos`` and the ``path:line`` of each whose code could not be read."""
    return scan_files(tree / "mitos", "*.py", REPLACED, _sites_in)


def scan_files(
    root: Path,
    pattern: str,
    replaced: Collection[str],
    sites_in: Callable[[Path, str], tuple[list[Site], list[str]]],
) -> tuple[list[Site], list[str]]:
    """The sites ``sites_in`` finds in each file under ``root`` that matches ``pattern``
    (skipping the ``replaced`` paths, relative to ``root``), sorted, and the unread ones."""
    sites: list[Site] = []
    unresolved: list[str] = []
    for path in sorted(root.rglob(pattern)):
        rel = path.relative_to(root).as_posix()
        if rel in replaced:
            continue
        found, missed = sites_in(path, rel)
        sites += found
        unresolved += missed
    return sorted(set(sites), key=lambda s: (s.path, s.line, s.code)), unresolved
