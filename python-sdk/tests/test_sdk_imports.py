"""Importing the package is cheap: json, re, httpx and typing load only when needed."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.strip()


def test_import_loads_neither_json_nor_re_nor_httpx_nor_typing() -> None:
    out = _run(
        """
        import sys
        import mitos_errors
        mitos_errors.RateLimitedError
        lazy = ("json", "re", "httpx", "typing", "email", "dataclasses", "enum", "__future__")
        print(sorted(m for m in lazy if m in sys.modules))
        """
    )
    assert out == "[]"


def test_import_loads_two_modules_of_the_package() -> None:
    out = _run(
        """
        import sys
        import mitos_errors
        print(sorted(m for m in sys.modules if m.startswith("mitos_errors")))
        """
    )
    assert out == "['mitos_errors', 'mitos_errors._generated']"


def test_constructing_an_error_first_loads_the_runtime() -> None:
    out = _run(
        """
        import mitos_errors
        err = mitos_errors.NotFoundError("gone", cause="sb-1")
        print(err.retryable, err.recovery.action, repr(err.context), "_fields" in dir(mitos_errors))
        """
    )
    assert out == "False rediscover {} True"


def test_building_a_clean_error_loads_neither_httpx_nor_typing() -> None:
    # json itself imports re, so re is only kept out of import time.
    out = _run(
        """
        import sys
        import mitos_errors
        err = mitos_errors.error_from_body(b'{"error": {"code": "not_found", "cause": "sb-1"}}', status=404)
        assert type(err).__name__ == "NotFoundError", err
        print(sorted(m for m in ("httpx", "typing", "email") if m in sys.modules))
        """
    )
    assert out == "[]"


def test_httpx_loads_with_the_http_helpers() -> None:
    out = _run(
        """
        import sys
        import mitos_errors
        mitos_errors.raise_for_status
        print("httpx" in sys.modules)
        """
    )
    assert out == "True"


def test_star_import_gives_every_public_name() -> None:
    out = _run(
        """
        from mitos_errors import *
        import mitos_errors
        missing = [n for n in mitos_errors.__all__ if n not in globals()]
        print(missing)
        """
    )
    assert out == "[]"


def test_unknown_attribute_is_an_attribute_error() -> None:
    import mitos_errors

    with pytest.raises(AttributeError):
        mitos_errors.no_such_name  # noqa: B018
    assert "RateLimitedError" in dir(mitos_errors)


def test_each_runtime_name_is_the_object_type_checkers_are_told_of() -> None:
    """``__getattr__`` finds each name of ``__all__`` where the ``TYPE_CHECKING`` imports say it lives."""
    import ast
    import importlib
    from pathlib import Path

    import mitos_errors
    from mitos_errors import _generated

    tree = ast.parse(Path(mitos_errors.__file__).read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    declared = {
        alias.asname or alias.name: (node.module, alias.name)
        for node in block.body
        if isinstance(node, ast.ImportFrom) and node.level == 1
        for alias in node.names
        if not alias.name.startswith("__")  # __version__: test_sdk_typing
    }
    runtime = set(mitos_errors.__all__) - set(_generated.__all__)
    assert runtime == set(declared), "the TYPE_CHECKING imports and __all__ name different things"
    package = Path(mitos_errors.__file__).parent
    for name, (module, attr) in declared.items():
        if not package.joinpath(*module.split(".")).with_suffix(".py").is_file():
            # A stub-only module (the per-code overloads): test_sdk_typing holds its
            # signatures equal to the runtime function's.
            assert callable(getattr(mitos_errors, name)), name
            continue
        home = importlib.import_module(f"mitos_errors.{module}")
        assert getattr(mitos_errors, name) is getattr(home, attr), name
