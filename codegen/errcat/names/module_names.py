"""The names a module defines or uses at module level, read by parsing it.

:func:`python` reads Python with :mod:`ast`; :func:`typescript` reads
TypeScript with the TypeScript compiler's own parser (run by Node from the
repository's ``ts-sdk/node_modules``); :func:`go` reads the top-level
declarations of gofmt-formatted Go. Used to derive the names a generated
class may not take (:mod:`errcat.names.reserved`), never while generating.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

TS_COMPILER = Path("ts-sdk", "node_modules", "typescript")
"""Where, under the repository root, the compiler the SDK is built with is (``npm ci`` in ``ts-sdk``)."""


class ParserMissingError(RuntimeError):
    """Node or the TypeScript compiler is not installed."""


def _python_module(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            names.add(getattr(node, "name", ""))
            pending.extend(node.decorator_list if not isinstance(node, ast.Lambda) else ())
            continue  # a function body's names are local
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                names.update(
                    c.value
                    for c in ast.walk(node.value or ast.Constant(None))
                    if isinstance(c, ast.Constant) and isinstance(c.value, str)
                )
        pending.extend(ast.iter_child_nodes(node))
    names.discard("")
    return names


def python(sources: Sequence[str], root: Path) -> list[set[str]]:
    """The names each Python module binds, exports (``__all__``) or reads at module level.

    Class bodies count (they run at module level); function bodies do not.
    ``root`` (the repository) is not needed: Python parses itself.
    """
    return [_python_module(ast.parse(source)) for source in sources]


# Top-level declarations, import bindings and export names of each source.
_TS_SCRIPT = r"""
const ts = require(process.argv[1]);
const sources = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = sources.map((text) => {
  const file = ts.createSourceFile("m.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const names = new Set();
  const bind = (name) => { if (name && ts.isIdentifier(name)) names.add(name.text); };
  for (const st of file.statements) {
    if (ts.isVariableStatement(st)) st.declarationList.declarations.forEach((d) => bind(d.name));
    else if (ts.isImportDeclaration(st) && st.importClause) {
      const c = st.importClause;
      bind(c.name);
      const b = c.namedBindings;
      if (b && ts.isNamespaceImport(b)) bind(b.name);
      if (b && ts.isNamedImports(b)) b.elements.forEach((e) => bind(e.name));
    } else if (ts.isExportDeclaration(st)) {
      const c = st.exportClause;
      if (c && ts.isNamespaceExport(c)) bind(c.name);
      if (c && ts.isNamedExports(c)) c.elements.forEach((e) => { bind(e.name); bind(e.propertyName); });
    } else if ("name" in st) bind(st.name);
  }
  return [...names].sort();
});
process.stdout.write(JSON.stringify(out));
"""


def typescript(sources: Sequence[str], root: Path) -> list[set[str]]:
    """The names each TypeScript module declares, imports or exports at its top level.

    Raises:
        ParserMissingError: Node or the TypeScript compiler (under ``root``) is not installed.
    """
    node = shutil.which("node")
    compiler = root / TS_COMPILER
    if node is None or not (compiler / "package.json").is_file():
        raise ParserMissingError("needs Node and the TypeScript compiler: run npm ci in ts-sdk")
    done = subprocess.run(
        [node, "-e", _TS_SCRIPT, str(compiler.resolve())],
        input=json.dumps(list(sources)),
        capture_output=True,
        text=True,
        check=True,
    )
    return [set(names) for names in json.loads(done.stdout)]


_RUST_ITEM = re.compile(
    r"\b(?:struct|enum|trait|type|const|static|fn|mod|union)\s+(?:r#)?([A-Za-z_][A-Za-z0-9_]*)"
)
_RUST_USE = re.compile(r"\buse\s+([^;]+);")
_RUST_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RUST_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_RUST_STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def rust(sources: Sequence[str], root: Path) -> list[set[str]]:
    """The names each Rust module declares or imports (every item, at any depth: a superset).

    Read with regular expressions over the source without its strings and comments; an
    item inside a function or an ``impl`` counts too, which only reserves more.
    ``root`` is not needed.
    """
    out = []
    for source in sources:
        text = _RUST_COMMENT.sub(" ", _RUST_STRING.sub('""', source))
        names = set(_RUST_ITEM.findall(text))
        for used in _RUST_USE.findall(text):
            names.update(
                w for w in _RUST_WORD.findall(used) if w not in ("crate", "self", "super", "as")
            )
        out.append(names)
    return out


_GO_DECL = re.compile(r"^(?:func|type|var|const) +([A-Za-z_][A-Za-z0-9_]*)", re.M)
_GO_GROUP = re.compile(r"^(?:var|const|type) \(\n(.*?)^\)", re.M | re.S)
_GO_GROUP_NAME = re.compile(r"^\t([A-Za-z_][A-Za-z0-9_]*)", re.M)


def go(sources: Sequence[str], root: Path) -> list[set[str]]:
    """The package-level names each Go source declares (functions, types, variables, constants).

    Methods are not package-level names. The sources are gofmt-formatted (the
    generator's and the runtime's are), so a declaration starts a line and a
    grouped one is one tab in. ``root`` is not needed.
    """
    out = []
    for source in sources:
        names = set(_GO_DECL.findall(source))
        for group in _GO_GROUP.findall(source):
            names.update(_GO_GROUP_NAME.findall(group))
        out.append(names)
    return out
