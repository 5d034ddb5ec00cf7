"""No import cycles: in the generator (errcat) and in every language's runtime.

Each runtime is read where its record says, by the reader of its record's file
suffix (:data:`GRAPHS`), so a new language fails here until it has one.

A Python edge is every ``import`` and ``from ... import`` of the package's
own modules, wherever it is written: at module level, inside a function
(an import deferred to dodge a cycle is still the cycle) and under
``if TYPE_CHECKING:`` (a type-only cycle still ties two modules' designs
together). ``from pkg import name`` is an edge to ``pkg.name`` when that is a
module, else to ``pkg`` itself. The implicit import of a parent package's
``__init__`` is not an edge: it is an edge only where a module names it.

A TypeScript edge is every ``import ... from``, ``export ... from``, bare
``import "x"`` and ``import("x")`` of a relative specifier, type-only ones
included, resolved to the ``.ts`` file it names (``./a.js`` is ``a.ts``).

A failure names each cycle and the line of each import in it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from errcat.names.languages import LANGUAGES, Language

REPO = Path(__file__).resolve().parents[2]
# Each language's runtime as the repository's package holds it, beside its generated
# modules (the record says where errcat copies it); the generator is Python too.
PACKAGES = yaml.safe_load((REPO / "catalogue" / "errors.yaml").read_text(encoding="utf-8"))[
    "packages"
]
# Where each runtime's modules are read: the package's copies where errcat copies them as
# they are (runtime_dest), else errcat's source (the Go and Rust targets rewrite theirs).
RUNTIMES = {
    lang.key: REPO / (lang.runtime_output_dir(PACKAGES[lang.key]) or lang.runtime_dir)
    for lang in LANGUAGES
}
GENERATOR = REPO / "codegen" / "errcat"
FIX = "move what both sides need into a module of its own that imports neither"


def test_every_language_runtime_has_an_import_graph_reader() -> None:
    # A new language adds its reader to GRAPHS (below), keyed by its record's suffix.
    missing = {lang.key: lang.suffix for lang in LANGUAGES if lang.suffix not in GRAPHS}
    assert not missing, f"add an import-graph reader of {missing} modules to GRAPHS"


@pytest.mark.parametrize("lang", LANGUAGES, ids=[lang.key for lang in LANGUAGES])
def test_each_language_runtime_has_no_import_cycle(lang: Language) -> None:
    root = RUNTIMES[lang.key]
    graph = GRAPHS[lang.suffix](root)
    assert len(graph) > 1, root
    found = [describe(cycle) for cycle in cycles(graph)]
    assert not found, f"import cycles in {root.relative_to(REPO)}: {found}; {FIX}"


def test_the_generator_has_no_import_cycle() -> None:
    graph = python_graph(GENERATOR, "errcat")
    assert len(graph) > 10
    assert sum(len(edges) for edges in graph.values()) > len(graph)
    found = [describe(cycle) for cycle in cycles(graph)]
    assert not found, f"import cycles in errcat: {found}; {FIX}"


def test_typescript_runtime_has_no_import_cycle() -> None:
    root = RUNTIMES["typescript"]
    graph = typescript_graph(root)
    assert "index.ts" in graph
    assert any(edge.target.startswith("generated/") for edge in graph["index.ts"])
    found = [describe(cycle) for cycle in cycles(graph)]
    assert not found, f"import cycles in {root.relative_to(REPO)}: {found}; {FIX}"


# How the graphs are read and their cycles found.


@dataclass(frozen=True)
class Edge:
    """One import: the module that imports, the module imported, where it is written."""

    source: str
    target: str
    line: int


Graph = Mapping[str, list[Edge]]


def _module_name(path: Path, root: Path, package: str) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([package, *parts])


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module a ``from`` import names (``from ..x import y`` resolved)."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join([*base, node.module] if node.module else base)


def python_graph(root: Path, package: str) -> dict[str, list[Edge]]:
    """The import graph of the package whose ``__init__.py`` is in ``root``."""
    files = {_module_name(p, root, package): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, list[Edge]] = {name: [] for name in files}
    for module, path in files.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(node, module, is_package)
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base
                    for alias in node.names
                ]
            for target in targets:
                if target in files and target != module:
                    graph[module].append(Edge(module, target, node.lineno))
    return graph


_TS_SPECIFIER = re.compile(
    r"""^[ \t]*(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']"""  # import/export ... from "x"
    r"""|^[ \t]*import\s*["']([^"']+)["']"""  # import "x"
    r"""|\bimport\(\s*["']([^"']+)["']\s*\)""",  # import("x")
    re.MULTILINE,
)


def _ts_file(importer: Path, specifier: str) -> Path | None:
    if not specifier.startswith("."):
        return None  # a package, not a file of this tree
    base = (importer.parent / specifier).resolve()
    stem = base.with_suffix("") if base.suffix in (".js", ".ts", ".mjs", ".cjs") else base
    for candidate in (stem.with_suffix(".ts"), stem / "index.ts"):
        if candidate.is_file():
            return candidate
    return None


def typescript_graph(root: Path) -> dict[str, list[Edge]]:
    """The import graph of the ``.ts`` files under ``root``, keyed by path relative to it."""
    root = root.resolve()
    files = sorted(root.rglob("*.ts"))
    graph: dict[str, list[Edge]] = {p.relative_to(root).as_posix(): [] for p in files}
    for path in files:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(root).as_posix()
        for match in _TS_SPECIFIER.finditer(text):
            specifier = next(group for group in match.groups() if group is not None)
            target = _ts_file(path, specifier)
            if target is not None and target.is_relative_to(root):
                line = text.count("\n", 0, match.start(0)) + 1
                graph[name].append(Edge(name, target.relative_to(root).as_posix(), line))
    return graph


def cycles(graph: Graph) -> list[list[Edge]]:
    """One cycle of each strongly connected group of modules, as the edges that close it.

    Empty when the graph is acyclic. Each cycle starts at its smallest module name.
    """
    found = []
    for group in _strong_components(graph):
        start = min(group)
        path = _path_back(graph, start, set(group))
        if path:
            found.append(path)
    return sorted(found, key=lambda path: path[0].source)


def _strong_components(graph: Graph) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph`` (iterative, so deep graphs are fine)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            edges = graph.get(node, [])
            if position < len(edges):
                work.append((node, position + 1))
                target = edges[position].target
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                groups.append(group)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return groups


def _path_back(graph: Graph, start: str, group: set[str]) -> list[Edge]:
    """The shortest chain of imports from ``start`` back to itself within ``group``."""
    previous: dict[str, Edge] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for edge in graph.get(node, []):
                if edge.target not in group:
                    continue
                if edge.target == start:
                    chain = [edge]
                    while chain[0].source != start:
                        chain.insert(0, previous[chain[0].source])
                    return chain
                if edge.target not in previous:
                    previous[edge.target] = edge
                    following.append(edge.target)
        frontier = following
    return []


def describe(cycle: list[Edge]) -> str:
    """``a -> b (a:12) -> a (b:3)``: the modules of a cycle and the lines that import them."""
    steps = " -> ".join(f"{edge.target} ({edge.source}:{edge.line})" for edge in cycle)
    return f"{cycle[0].source} -> {steps}"


# The graph readers and the cycle finder, on generated trees.


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_python_cycles_through_deferred_and_type_only_imports_are_found(tmp_path: Path) -> None:
    root = _write(
        tmp_path / "pkg",
        {
            "__init__.py": "",
            "a.py": "from pkg.sub import b\n",
            "sub/__init__.py": "",
            "sub/b.py": "def f():\n    from .. import c\n",
            "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n",
            "d.py": "import os\nfrom pkg import a\n",
        },
    )
    found = cycles(python_graph(root, "pkg"))
    assert [describe(cycle) for cycle in found] == [
        "pkg.a -> pkg.sub.b (pkg.a:1) -> pkg.c (pkg.sub.b:2) -> pkg.a (pkg.c:3)"
    ]


def test_python_tree_without_cycle_passes(tmp_path: Path) -> None:
    root = _write(
        tmp_path / "pkg",
        {
            "__init__.py": "",
            "a.py": "from pkg import b\n",
            "b.py": "import json\nfrom . import c\n",
            "c.py": "",
        },
    )
    graph = python_graph(root, "pkg")
    assert graph["pkg.a"] == [Edge("pkg.a", "pkg.b", 1)]
    assert graph["pkg.b"] == [Edge("pkg.b", "pkg.c", 2)]
    assert cycles(graph) == []


def test_typescript_cycles_through_export_from_and_type_imports_are_found(tmp_path: Path) -> None:
    root = _write(
        tmp_path / "src",
        {
            "index.ts": 'export { a } from "./a.js";\n',
            "a.ts": 'import {\n  b,\n  type B,\n} from "./lib/b.js";\nexport const a = b;\n',
            "lib/b.ts": '// import { x } from "../index.js";\nimport type { I } from "../index.js";\n'
            "export const b = 1;\nexport type B = I;\n",
            "lib/c.ts": 'import "node:fs";\nconst m = import("./b.js");\n',
        },
    )
    graph = typescript_graph(root)
    assert [e.target for e in graph["lib/c.ts"]] == ["lib/b.ts"]
    found = cycles(graph)
    assert [describe(cycle) for cycle in found] == [
        "a.ts -> lib/b.ts (a.ts:1) -> index.ts (lib/b.ts:2) -> a.ts (index.ts:1)"
    ]


_RUST_PATH = re.compile(r"\bcrate::([a-z_][a-z0-9_]*)")


def rust_graph(root: Path) -> dict[str, list[Edge]]:
    """The graph of the Rust runtime's modules (one per ``.rs`` file): each ``crate::m`` a module names.

    Only the hand-written modules are nodes; the generated ones (``crate::code``...) are not here.
    """
    files = {p.stem: p for p in sorted(root.glob("*.rs"))}
    graph: dict[str, list[Edge]] = {name: [] for name in files}
    for name, path in files.items():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for target in _RUST_PATH.findall(line):
                if target in files and target != name:
                    graph[name].append(Edge(name, target, number))
    return graph


def test_rust_runtime_has_no_import_cycle() -> None:
    root = RUNTIMES["rust"]
    graph = rust_graph(root)
    assert "error" in graph
    assert any(edge.target == "sanitize" for edge in graph["read"])
    found = [describe(cycle) for cycle in cycles(graph)]
    assert not found, f"import cycles in {root.relative_to(REPO)}: {found}; {FIX}"


_GO_IMPORT = re.compile(r'^\s*(?:[A-Za-z_][A-Za-z0-9_]* )?"([^"]+)"$', re.MULTILINE)
# The import path the Go runtime's sub-packages name the runtime with (errcat replaces it).
GO_RUNTIME_MODULE = "errcat.invalid/module"


def go_graph(root: Path) -> dict[str, list[Edge]]:
    """The import graph of the Go packages under ``root`` (a folder each), keyed by folder.

    An edge is an import of the runtime's own module path (``GO_RUNTIME_MODULE``
    and a folder under it); Go refuses a cycle of packages, so this guards the
    folders' layering the way the other readers do.
    """
    root = root.resolve()
    folders = sorted({p.parent for p in root.rglob("*.go")})
    graph: dict[str, list[Edge]] = {f.relative_to(root).as_posix(): [] for f in folders}
    for path in sorted(root.rglob("*.go")):
        source = path.read_text(encoding="utf-8")
        name = path.parent.relative_to(root).as_posix()
        for match in _GO_IMPORT.finditer(source):
            spec = match.group(1)
            if spec == GO_RUNTIME_MODULE or spec.startswith(GO_RUNTIME_MODULE + "/"):
                target = spec.removeprefix(GO_RUNTIME_MODULE).strip("/") or "."
                line = source.count("\n", 0, match.start()) + 1
                graph[name].append(Edge(name, target, line))
    return graph


def test_go_runtime_has_no_import_cycle() -> None:
    root = RUNTIMES["go"]
    graph = go_graph(root)
    assert [edge.target for edge in graph.get("grpc", [])] == ["."], graph
    found = [describe(cycle) for cycle in cycles(graph)]
    assert not found, f"import cycles in {root.relative_to(REPO)}: {found}; {FIX}"


GRAPHS: dict[str, Callable[[Path], Graph]] = {
    ".py": lambda root: python_graph(root, root.name),
    ".ts": typescript_graph,
    ".rs": rust_graph,
    ".go": go_graph,
}
"""The import-graph reader of each language's runtime, keyed by its record's file suffix."""
