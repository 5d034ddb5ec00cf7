"""Write the package ``__init__``'s export block for type checkers from its ``_EXPORTS`` table.

``_EXPORTS`` (name to defining module) is the one list of the runtime's names
beside the classes; the ``if TYPE_CHECKING:`` statement after it imports each
name where type checkers should find it and lists them in ``__all__``. A name
the generated per-code stub (``_generated/overloads.pyi``) declares is
imported from it, so ``lookup("not_found")`` is typed as that code's class.
Rewrite the block after changing the table, from the repository root::

    python -m testkit.exports_block
    python -m errcat generate

``test_sdk_imports`` fails when the block is not the one this writes.
"""

from __future__ import annotations

import ast
import sys

from testkit.paths import REPO

PACKAGE = REPO / "python-sdk" / "src" / "mitos_errors"  # where the generated stub is read
INIT = REPO / "codegen" / "errcat" / "render" / "python" / "runtime" / "__init__.py"
"""The runtime's ``__init__`` (errcat copies it into every package): the block is written there."""
STUB_MODULE = "._generated.overloads"
COMMAND = "python -m testkit.exports_block"
LINE_LENGTH = 110  # python-sdk/pyproject.toml [tool.ruff]
_INDENT = " " * 4


def _exports(tree: ast.Module) -> tuple[dict[str, str], ast.If]:
    """The ``_EXPORTS`` table of ``tree`` and the ``if TYPE_CHECKING:`` statement right after it."""
    for i, node in enumerate(tree.body):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "_EXPORTS" for t in node.targets
        ):
            block = tree.body[i + 1]
            if not (isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"):
                raise ValueError(f"{INIT}:{block.lineno}: no `if TYPE_CHECKING:` after _EXPORTS")
            table: dict[str, str] = ast.literal_eval(node.value)
            return table, block
    raise ValueError(f"{INIT}: no _EXPORTS table")


def _stub_names() -> set[str]:
    """The names the per-code overloads stub defines."""
    path = PACKAGE.joinpath(*STUB_MODULE.lstrip(".").split(".")).with_suffix(".pyi")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def _sort_key(name: str) -> tuple[int, str]:
    """Constants, then classes, then the rest (the order ruff's isort and RUF022 keep)."""
    return (0 if name.isupper() else 1 if name[:1].isupper() else 2, name)


def _import(module: str, names: list[str]) -> list[str]:
    """One ``from module import ...`` statement, on one line when it fits."""
    line = f"{_INDENT}from {module} import {', '.join(names)}"
    if len(line) <= LINE_LENGTH:
        return [line]
    return [
        f"{_INDENT}from {module} import (",
        *(f"{_INDENT * 2}{n}," for n in names),
        f"{_INDENT})",
    ]


def block(table: dict[str, str], stub_names: set[str]) -> str:
    """The ``if TYPE_CHECKING:`` statement that tells type checkers what ``table`` says."""
    plain: dict[str, list[str]] = {}
    aliased: list[tuple[str, str, str]] = []
    for name, where in table.items():
        module, _, attribute = where.partition(":")
        if name in stub_names:
            module = STUB_MODULE
        if attribute:
            aliased.append((module, attribute, name))
        else:
            plain.setdefault(module, []).append(name)
    statements: list[tuple[str, list[str]]] = [
        (module, _import(module, sorted(names, key=_sort_key))) for module, names in plain.items()
    ]
    statements += [(m, [f"{_INDENT}from {m} import {a} as {n}"]) for m, a, n in aliased]
    lines = ["if TYPE_CHECKING:"]
    for _, text in sorted(statements, key=lambda s: (s[0], "as" in s[1][0])):
        lines += text
    lines += ["", f"{_INDENT}__all__ = ["]
    lines += [f'{_INDENT * 2}"{name}",' for name in sorted(table, key=_sort_key)]
    lines += [f"{_INDENT}]", "else:", f"{_INDENT}__all__ = list(_EXPORTS)"]
    return "\n".join(lines) + "\n"


def current() -> tuple[str, str]:
    """The block in ``__init__.py`` now, and the block its table gives."""
    text = INIT.read_text(encoding="utf-8")
    table, node = _exports(ast.parse(text))
    lines = text.splitlines(keepends=True)
    now = "".join(lines[node.lineno - 1 : node.end_lineno])
    return now, block(table, _stub_names())


def main() -> int:
    """Rewrite the block in place; print whether it changed."""
    text = INIT.read_text(encoding="utf-8")
    now, fresh = current()
    if now == fresh:
        print(f"{INIT.name}: the export block is up to date")
        return 0
    INIT.write_text(text.replace(now, fresh, 1), encoding="utf-8")
    print(f"{INIT.name}: rewrote the export block from _EXPORTS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
