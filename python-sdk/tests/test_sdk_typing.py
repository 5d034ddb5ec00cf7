"""What type checkers are told is what the package has at run time.

For every public class, every attribute and property its declarations give
(:mod:`static_view` reads them from the sources, ``TYPE_CHECKING`` blocks
included): an attribute with a value in the class body, or a ``ClassVar``,
is on the class with a value of its declared type; every attribute and
property is on instances (built from generated bodies and codes) with a
value of its declared type. The per-code overloads of ``lookup`` and
``error_for_code`` (a stub-only generated module) name each code's real class
and repeat the run-time functions' signatures.
"""

from __future__ import annotations

import ast
import inspect
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, is_typeddict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testkit.static_view import PACKAGE, Declared, conforms, merged, runtime_class, static_mro

import mitos_errors
from mitos_errors._generated import catalogue

INIT = PACKAGE / "__init__.py"
OVERLOADS = PACKAGE / "_generated" / "overloads.pyi"
CODES = sorted(catalogue.SPECS)
PUBLIC = sorted(
    name
    for name in mitos_errors.__all__
    if isinstance(getattr(mitos_errors, name), type) and not is_typeddict(getattr(mitos_errors, name))
)


def declared(name: str) -> Declared:
    """Public class ``name`` as type checkers see it, its bases' declarations merged in."""
    chain = static_mro(INIT, name)
    assert chain, f"type checkers see no class {name} in the package"
    return merged(chain)


def _closing(make: Callable[[], Any]) -> Callable[[], Iterator[Any]]:
    def build() -> Iterator[Any]:
        value = make()
        yield value
        value.close()

    return build


def _errors() -> Iterator[Any]:
    yield mitos_errors.AgentRunError("m", code="not_in_the_catalogue", context={"n": 1})
    for code in CODES:
        yield mitos_errors.lookup(code)("m", cause="c", context={"sandbox": "sb", "retry_after_ms": 5})


def _specs() -> Iterator[Any]:
    for code in CODES:
        spec = mitos_errors.code_spec(code)
        assert spec is not None
        yield spec


def _recoveries() -> Iterator[Any]:
    for spec in _specs():
        yield spec.recovery


FACTORIES: dict[str, Callable[[], Iterator[Any]]] = {
    "CodeSpec": _specs,
    "Recovery": _recoveries,
    "ErrorHook": lambda: iter([mitos_errors.ErrorHook(token="t")]),
    "AsyncErrorHook": lambda: iter([mitos_errors.AsyncErrorHook()]),
    "ErrorTransport": _closing(mitos_errors.ErrorTransport),
    "AsyncErrorTransport": lambda: iter([mitos_errors.AsyncErrorTransport()]),
    "EnvelopeBytes": lambda: iter(
        [mitos_errors.envelope_bytes("rate_limited", context={"retry_after_ms": 5}, request_id="r")]
    ),
}
"""Instances of each public class that is not an error (errors come from codes and bodies)."""


def instances(name: str) -> Iterator[Any]:
    cls = getattr(mitos_errors, name)
    if issubclass(cls, mitos_errors.AgentRunError):
        return (err for err in _errors() if isinstance(err, cls))
    assert name in FACTORIES, f"{name}: add a way to build instances to FACTORIES"
    return FACTORIES[name]()


def check_instance(value: Any, decl: Declared) -> None:
    """Every attribute and property ``decl`` declares is on ``value`` with a value of its type."""
    for attr, (ann, _on_class, file) in decl.attrs.items():
        assert hasattr(value, attr), f"{decl.name}().{attr} is declared and missing"
        got = getattr(value, attr)
        assert conforms(got, ann, file), f"{decl.name}().{attr} = {got!r}, not {ast.unparse(ann)}"
    for prop, (ann, file) in decl.properties.items():
        got = getattr(value, prop)
        assert conforms(got, ann, file), f"{decl.name}().{prop} = {got!r}, not {ast.unparse(ann)}"


def test_the_public_classes_are_all_read() -> None:
    assert {"AgentRunError", "NotFoundError", "CodeSpec", "Recovery", "ErrorHook"} <= set(PUBLIC)
    assert len(PUBLIC) >= len(CODES) + 1


@pytest.mark.parametrize("name", PUBLIC)
def test_what_the_class_declares_is_on_the_class(name: str) -> None:
    cls = getattr(mitos_errors, name)
    decl = declared(name)
    for attr, (ann, on_class, file) in decl.attrs.items():
        if on_class:
            assert attr in dir(cls), f"{name}.{attr} is declared on the class and missing at run time"
            got = getattr(cls, attr)
            assert conforms(got, ann, file), f"{name}.{attr} = {got!r}, not {ast.unparse(ann)}"
    for prop in decl.properties:
        assert isinstance(inspect.getattr_static(cls, prop), property), f"{name}.{prop} is not a property"
    for method in decl.methods:
        assert callable(getattr(cls, method)), f"{name}.{method} is declared and not callable"


@pytest.mark.parametrize("name", PUBLIC)
def test_what_the_class_declares_is_on_its_instances(name: str) -> None:
    decl = declared(name)
    built = list(instances(name))
    assert built, f"no instance of {name} was built"
    for value in built:
        check_instance(value, decl)


def test_a_generated_class_has_its_code_on_the_class_and_on_instances() -> None:
    for code in CODES:
        cls = mitos_errors.lookup(code)
        assert cls.code == cls.catalogue_code == code
        assert "code" in declared(cls.__name__).attrs
    assert mitos_errors.NotFoundError.code == "not_found"


def test_type_checkers_call_the_base_class_by_its_run_time_name() -> None:
    decl = declared("AgentRunError")
    assert decl.name == mitos_errors.AgentRunError.__name__ == catalogue.BASE_CLASS
    assert runtime_class(decl.file, decl.name) is mitos_errors.AgentRunError
    # One name: the class type checkers find is the hand-written one, in its own module.
    assert decl.file.name == "_base.py"


@settings(max_examples=150, deadline=None)
@given(
    code=st.one_of(st.sampled_from(CODES), st.text(max_size=12)),
    message=st.one_of(st.text(max_size=30), st.integers(), st.none()),
    context=st.dictionaries(
        st.sampled_from(["sandbox", "retry_after_ms", "op", "x"]),
        st.one_of(st.text(max_size=8), st.integers(-5, 10**6), st.floats(), st.booleans(), st.none()),
        max_size=4,
    ),
    status=st.one_of(st.none(), st.integers(100, 599)),
)
def test_an_error_from_any_body_has_what_its_class_declares(
    code: str, message: object, context: dict[str, object], status: int | None
) -> None:
    body = json.dumps({"error": {"code": code, "message": message, "context": context}}).encode()
    for err in (
        mitos_errors.error_from_body(body, status=status),
        mitos_errors.error_for_code(code, str(message), context=context, status=status),
    ):
        check_instance(err, declared(type(err).__name__))


def _overloads(name: str) -> list[ast.FunctionDef]:
    tree = ast.parse(OVERLOADS.read_text(encoding="utf-8"))
    found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    assert found, f"{OVERLOADS.name} declares no {name}"
    return found


def _shape(fn: ast.FunctionDef) -> list[tuple[str, str, object]]:
    """Each parameter's name, kind and default, as ``inspect`` would give them."""
    args = fn.args
    out: list[tuple[str, str, object]] = []
    positional = args.posonlyargs + args.args
    defaults = [inspect.Parameter.empty] * (len(positional) - len(args.defaults)) + [
        ast.literal_eval(d) for d in args.defaults
    ]
    out += [(a.arg, "POSITIONAL_OR_KEYWORD", d) for a, d in zip(positional, defaults, strict=True)]
    kw_defaults = [inspect.Parameter.empty if d is None else ast.literal_eval(d) for d in args.kw_defaults]
    out += [(a.arg, "KEYWORD_ONLY", d) for a, d in zip(args.kwonlyargs, kw_defaults, strict=True)]
    return out


def _runtime_shape(fn: Callable[..., Any]) -> list[tuple[str, str, object]]:
    return [(p.name, p.kind.name, p.default) for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("name", ["lookup", "error_for_code"])
def test_the_overloads_repeat_the_run_time_signature(name: str) -> None:
    runtime = getattr(mitos_errors, name)
    wanted = _runtime_shape(runtime)
    annotations = {p.name: p.annotation for p in inspect.signature(runtime).parameters.values()}
    for fn in _overloads(name):
        assert _shape(fn) == wanted, f"an overload of {name} differs from the run-time signature"
        for arg in fn.args.args[1:] + fn.args.kwonlyargs:
            assert ast.unparse(arg.annotation) == annotations[arg.arg] if arg.annotation else False
    fallback = _overloads(name)[-1]
    assert ast.unparse(fallback.args.args[0].annotation) == "str"
    assert ast.unparse(fallback.returns) in {f"type[{catalogue.BASE_CLASS}]", catalogue.BASE_CLASS}


def _per_code(name: str) -> dict[str, str]:
    """Each code an overload of ``name`` takes, with the class it returns."""
    out: dict[str, str] = {}
    for fn in _overloads(name)[:-1]:
        code = fn.args.args[0].annotation
        assert isinstance(code, ast.Subscript) and ast.unparse(code.value) == "Literal"
        returns = ast.unparse(fn.returns)
        out[ast.literal_eval(code.slice)] = returns.removeprefix("type[").removesuffix("]")
    return out


def test_lookup_overloads_name_the_class_lookup_returns() -> None:
    per_code = _per_code("lookup")
    assert sorted(per_code) == CODES
    generated = PACKAGE / "_generated" / "__init__.py"
    for code, cls in per_code.items():
        assert mitos_errors.lookup(code) is runtime_class(generated, cls), code


def test_error_for_code_overloads_name_the_class_of_the_error() -> None:
    per_code = _per_code("error_for_code")
    assert sorted(per_code) == CODES
    for code, cls in per_code.items():
        assert type(mitos_errors.error_for_code(code, "m")).__name__ == cls, code


def test_the_stub_only_module_is_not_importable_at_run_time() -> None:
    assert not Path(OVERLOADS).with_suffix(".py").exists()
    with pytest.raises(ImportError):
        __import__("mitos_errors._generated.overloads")


CONSUMERS = sorted((Path(__file__).parent / "typing").glob("consumer_*.py"))


@pytest.mark.parametrize("path", CONSUMERS, ids=lambda p: p.name)
def test_the_consumer_files_hold_at_run_time(path: Path) -> None:
    """``nox -s typecheck`` checks their types with mypy and pyright; here their asserts run."""
    import runpy

    runpy.run_path(str(path), run_name="consumer")


def test_there_are_consumer_files() -> None:
    assert len(CONSUMERS) >= 2


def test_the_version_is_the_generated_one_and_loads_on_first_use() -> None:
    from mitos_errors._generated import version

    assert mitos_errors.__version__ == version.__version__
    assert "__version__" in dir(mitos_errors)
    source = INIT.read_text(encoding="utf-8")
    assert "__version__ =" not in source, "the version is written once, in _generated/version.py"


def test_without_httpx_the_http_helpers_say_which_extra_to_install() -> None:
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['httpx'] = None\n"
        "import mitos_errors\n"
        "assert type(mitos_errors.error_from_body(b'{}', status=404)).__name__ == 'NotFoundError'\n"
        "try:\n    mitos_errors.raise_for_status\n"
        "except ModuleNotFoundError as err:\n    print(err.name, '|', err)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    name, message = done.stdout.strip().split(" | ")
    assert name == "httpx"
    assert f"pip install '{catalogue.DISTRIBUTION}[httpx]'" in message
