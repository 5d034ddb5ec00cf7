"""Importing the package is cheap: json, re, httpx and typing load only when needed."""

from __future__ import annotations

import keyword
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st
from testkit import exports_block


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


def test_import_loads_three_modules_of_the_package() -> None:
    out = _run(
        """
        import sys
        import mitos_errors
        print(sorted(m for m in sys.modules if m.startswith("mitos_errors")))
        """
    )
    assert out == "['mitos_errors', 'mitos_errors._base', 'mitos_errors._generated']"


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


def test_the_type_checkers_export_block_is_written_from_the_table() -> None:
    """The ``if TYPE_CHECKING:`` block after ``_EXPORTS`` is the one :mod:`exports_block` writes from it."""
    now, fresh = exports_block.current()
    assert now == fresh, f"the export block of __init__.py is stale: run {exports_block.COMMAND}"


@given(
    st.dictionaries(
        # A runtime name is an identifier, never a keyword (``as`` cannot be imported).
        st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,12}", fullmatch=True).filter(
            lambda name: not keyword.iskeyword(name)
        ),
        st.sampled_from(["._a", "._b.c", "._b.c:Other", "._generated.overloads"]),
        min_size=1,
        max_size=12,
    ),
    st.sets(st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True), max_size=3),
)
def test_the_written_block_imports_and_exports_each_name_of_the_table(
    table: dict[str, str], stub: set[str]
) -> None:
    import ast

    tree = ast.parse(exports_block.block(table, stub))
    node = tree.body[0]
    assert isinstance(node, ast.If)
    imported = {
        alias.asname or alias.name: (f".{imp.module}", alias.name)
        for imp in node.body
        if isinstance(imp, ast.ImportFrom)
        for alias in imp.names
    }
    for name, where in table.items():
        module, _, attribute = where.partition(":")
        expected = exports_block.STUB_MODULE if name in stub else module
        assert imported[name] == (expected, attribute or name)
    assert set(imported) == set(table)
    listed = next(n for n in node.body if isinstance(n, ast.Assign))
    assert ast.literal_eval(listed.value) == sorted(table, key=exports_block._sort_key)


def test_each_runtime_name_is_the_object_type_checkers_are_told_of() -> None:
    """``__getattr__`` gives each name of ``_EXPORTS`` (and of the catalogue's ``HELPERS``) from the
    module its type-checking import names."""
    import importlib

    import mitos_errors
    from mitos_errors import _generated

    assert mitos_errors.__all__ == [*mitos_errors._EXPORTS, *_generated.HELPERS, *_generated.__all__]
    for name, where in {**mitos_errors._EXPORTS, **_generated.HELPERS}.items():
        # A name of the per-code overloads stub is typed there; test_sdk_typing holds
        # its signatures equal to the run-time function's, which is the one checked here.
        module, _, attr = where.partition(":")
        home = importlib.import_module(module, "mitos_errors")
        assert getattr(mitos_errors, name) is getattr(home, attr or name), name
