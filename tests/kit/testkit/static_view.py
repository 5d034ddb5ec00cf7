"""What type checkers are told about the package, read from its sources, and a value check against it.

The sources are parsed, never imported: a class body's annotations (those under
``if TYPE_CHECKING:`` included), the names it assigns and its properties, the
base classes each class names (followed across the package's own imports),
and the type aliases its modules declare. :func:`conforms` then says whether a
run-time value is of a declared type, for the annotation forms the package
uses; any other form fails loudly, so a new one gets support here first.
"""

from __future__ import annotations

import ast
import builtins
import collections.abc
import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mitos_errors

PACKAGE = Path(mitos_errors.__file__).resolve().parent


@dataclass
class Declared:
    """One class as type checkers see it: its attributes (type, whether on the class) and properties."""

    file: Path
    name: str
    bases: list[ast.expr]
    attrs: dict[str, tuple[ast.expr, bool, Path]] = field(default_factory=dict)
    """Each attribute: its declared type, whether it is on the class, the file declaring it."""
    properties: dict[str, tuple[ast.expr, Path]] = field(default_factory=dict)
    methods: set[str] = field(default_factory=set)


def _type_checking_body(stmt: ast.stmt) -> list[ast.stmt]:
    """The statements type checkers read from ``stmt``: an ``if TYPE_CHECKING:`` is its body."""
    if isinstance(stmt, ast.If) and ast.unparse(stmt.test) == "TYPE_CHECKING":
        return [s for inner in stmt.body for s in _type_checking_body(inner)]
    if isinstance(stmt, ast.If):
        return []  # a run-time-only branch (``else:`` of TYPE_CHECKING and the like)
    return [stmt]


def _declare(file: Path, node: ast.ClassDef) -> Declared:
    """What type checkers see of class ``node``.

    A name annotated or assigned in the class body is an attribute of the
    class (both checkers accept ``Cls.name`` for it); a ``self.name: T`` of a
    method is an instance attribute (both reject ``Cls.name``).
    """
    decl = Declared(file, node.name, list(node.bases))
    body = [s for stmt in node.body for s in _type_checking_body(stmt)]
    for stmt in body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            decl.attrs[stmt.target.id] = (_parse(stmt.annotation), True, file)
        elif isinstance(stmt, ast.Assign):
            for target in (t for t in stmt.targets if isinstance(t, ast.Name)):
                if not target.id.startswith("__") and target.id not in decl.attrs:
                    decl.attrs[target.id] = (ast.Name("object"), True, file)  # inferred
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            _method(decl, stmt, file)
    return decl


def _method(decl: Declared, fn: ast.FunctionDef | ast.AsyncFunctionDef, file: Path) -> None:
    if any(ast.unparse(d) == "property" for d in fn.decorator_list):
        if fn.returns is None:
            raise AssertionError(f"{decl.name}.{fn.name}: a property without a return type")
        decl.properties[fn.name] = (_parse(fn.returns), file)
        return
    decl.methods.add(fn.name)
    for stmt in ast.walk(fn):
        target = stmt.target if isinstance(stmt, ast.AnnAssign) else None
        if isinstance(target, ast.Attribute) and ast.unparse(target.value) == "self":
            assert isinstance(stmt, ast.AnnAssign)
            if target.attr not in decl.attrs:
                decl.attrs[target.attr] = (_parse(stmt.annotation), False, file)


def _parse(ann: ast.expr) -> ast.expr:
    """An annotation with its quoted parts parsed."""
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        return _parse(ast.parse(ann.value, mode="eval").body)
    return ann


def _head(ann: ast.expr) -> str:
    """The name an annotation starts with: ``ClassVar`` of ``ClassVar[int]``."""
    target = ann.value if isinstance(ann, ast.Subscript) else ann
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


@dataclass
class Module:
    """One source file: its classes, its TYPE_CHECKING aliases and where its imported names come from."""

    classes: dict[str, Declared] = field(default_factory=dict)
    aliases: dict[str, ast.expr] = field(default_factory=dict)
    imports: dict[str, tuple[Path, str]] = field(default_factory=dict)


def _module_file(file: Path, level: int, module: str | None) -> Path:
    base = file.parent
    for _ in range(level - 1):
        base = base.parent
    target = base.joinpath(*(module or "").split(".")) if module else base
    for candidate in (
        target.with_suffix(".pyi"),
        target.with_suffix(".py"),
        target / "__init__.py",
    ):
        if candidate.is_file():
            return candidate
    return target


def read_module(file: Path) -> Module:
    """The static view of one source file of the package."""
    out = Module()
    tree = ast.parse(file.read_text(encoding="utf-8"))
    for stmt in (s for top in tree.body for s in _type_checking_body(top)):
        if isinstance(stmt, ast.ClassDef):
            out.classes[stmt.name] = _declare(file, stmt)
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name) and isinstance(stmt.value, ast.BinOp | ast.Name):
                out.aliases[target.id] = stmt.value
        elif isinstance(stmt, ast.AnnAssign) and ast.unparse(stmt.annotation) == "TypeAlias":
            # ``Origin: TypeAlias = Literal[...]``, as the generated envelope models write it
            if isinstance(stmt.target, ast.Name) and stmt.value is not None:
                out.aliases[stmt.target.id] = stmt.value
        elif isinstance(stmt, ast.ImportFrom) and stmt.level:
            source = _module_file(file, stmt.level, stmt.module)
            for alias in stmt.names:
                if source.is_file():
                    out.imports[alias.asname or alias.name] = (source, alias.name)
                else:  # a submodule: ``from .. import _generated``
                    out.imports[alias.asname or alias.name] = (
                        _module_file(source, 1, alias.name),
                        "",
                    )
    return out


_MODULES: dict[Path, Module] = {}


def module(file: Path) -> Module:
    """The (cached) static view of ``file``."""
    if file not in _MODULES:
        _MODULES[file] = read_module(file)
    return _MODULES[file]


def find(file: Path, name: str) -> tuple[Path, str, Declared | ast.expr | None]:
    """What ``name`` means in ``file`` for a type checker: a class, an alias, or ``None`` (not ours)."""
    for _ in range(20):  # follows re-exports and aliases; the package has no longer chains
        mod = module(file)
        if name in mod.classes:
            return file, name, mod.classes[name]
        if name in mod.aliases:
            target = mod.aliases[name]
            if isinstance(target, ast.Name):
                name = target.id
                continue
            return file, name, target
        if name in mod.imports:
            file, name = mod.imports[name]
            continue
        if "*" in mod.imports:  # ``from ._generated import *``
            star, _ = mod.imports["*"]
            if find(star, name)[2] is not None:
                file = star
                continue
        return file, name, None
    raise AssertionError(f"{name}: an import cycle")


def static_mro(file: Path, name: str) -> list[Declared]:
    """The classes (of this package) type checkers see in class ``name``'s MRO, itself first."""
    _, _, found = find(file, name)
    if not isinstance(found, Declared):
        return []
    chain = [found]
    for base in found.bases:
        if isinstance(base, ast.Name):
            for decl in static_mro(found.file, base.id):
                if decl not in chain:
                    chain.append(decl)
    return chain


def merged(chain: list[Declared]) -> Declared:
    """The attributes and properties of an MRO, the most derived declaration winning."""
    out = Declared(chain[0].file, chain[0].name, chain[0].bases)
    for decl in reversed(chain):
        for attr in decl.attrs:
            out.properties.pop(attr, None)
        for prop in decl.properties:
            out.attrs.pop(prop, None)
        out.attrs |= decl.attrs
        out.properties |= decl.properties
        out.methods |= decl.methods
    return out


_BUILTIN_TYPES = {
    name: getattr(builtins, name) for name in ("str", "int", "float", "bool", "bytes", "object")
}
_CONTAINERS: dict[str, type[Any]] = {
    "tuple": tuple,
    "list": list,
    "dict": dict,
    "Mapping": collections.abc.Mapping,
    "Sequence": collections.abc.Sequence,
}


def conforms(value: Any, ann: ast.expr, file: Path) -> bool:
    """Whether ``value`` is of the type ``ann`` declares (read in ``file``)."""
    ann = _parse(ann)
    if isinstance(ann, ast.Constant) and ann.value is None:
        return value is None
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
        return conforms(value, ann.left, file) or conforms(value, ann.right, file)
    if isinstance(ann, ast.Subscript):
        return _subscript(value, ann, file)
    if isinstance(ann, ast.Name):
        if ann.id == "Any":
            return True
        if ann.id == "float":
            return type(value) in (int, float)
        if ann.id in _BUILTIN_TYPES:
            return isinstance(value, _BUILTIN_TYPES[ann.id])
        return _named(value, ann.id, file)
    raise AssertionError(f"annotation form not supported here: {ast.unparse(ann)}")


def _named(value: Any, name: str, file: Path) -> bool:
    where, own, found = find(file, name)
    if isinstance(found, Declared):
        return isinstance(value, runtime_class(where, own))
    if isinstance(found, ast.expr):
        return conforms(value, found, where)
    raise AssertionError(f"{name}: not a type the package declares")


def _subscript(value: Any, ann: ast.Subscript, file: Path) -> bool:
    head = _head(ann)
    args = list(ann.slice.elts) if isinstance(ann.slice, ast.Tuple) else [ann.slice]
    if head in {"ClassVar", "Final"}:
        return conforms(value, args[0], file)
    if head == "Literal":
        literals = [ast.literal_eval(a) for a in args]
        return any(type(value) is type(lit) and value == lit for lit in literals)
    if head == "type":
        expected = args[0]
        if not isinstance(value, type) or not isinstance(expected, ast.Name):
            return False
        where, own, _ = find(file, expected.id)
        return issubclass(value, runtime_class(where, own))
    if head in _CONTAINERS:
        if not isinstance(value, _CONTAINERS[head]):
            return False
        if head in {"dict", "Mapping"}:
            key, val = args
            return all(conforms(k, key, file) and conforms(v, val, file) for k, v in value.items())
        if head == "tuple" and len(args) == 2 and isinstance(args[1], ast.Constant):
            return all(conforms(item, args[0], file) for item in value)
        if head == "tuple":
            return len(value) == len(args) and all(
                map(lambda v, a: conforms(v, a, file), value, args)
            )
        return all(conforms(item, args[0], file) for item in value)
    raise AssertionError(f"annotation form not supported here: {ast.unparse(ann)}")


def runtime_class(file: Path, name: str) -> type:
    """The run-time class that class ``name`` of ``file`` stands for."""
    parts = list(file.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    value = getattr(importlib.import_module(".".join(parts)), name)
    assert isinstance(value, type), f"{file}: {name} is not a class at run time"
    return value
