"""Every code mitos-run 0.3.1 raises by itself is in the catalogue (or retired, with its replacement).

The source comes from mitos-run's sdist on PyPI; offline, the test skips.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from errcat.cli import load_model
from testkit.mitos_run import scan, sdist

HERE = Path(__file__).resolve().parent

CATALOGUE = HERE.parents[1] / "catalogue" / "errors.yaml"


@pytest.fixture(scope="module")
def sites() -> list[scan.Site]:
    tree = sdist.unpacked()
    if tree is None:
        pytest.skip(f"{sdist.NAME}=={sdist.VERSION} sdist unavailable (offline?)")
    found, unresolved = scan.scan(tree)
    assert not unresolved, f"error sites whose code the scan cannot read: {unresolved}"
    return found


def test_every_code_mitos_run_raises_is_catalogued(sites: list[scan.Site]) -> None:
    model = load_model(CATALOGUE, CATALOGUE.parents[1])
    known = {code.code for code in model.codes} | {retired.code for retired in model.retired}
    missing = sorted({f"{s.code} ({s.path}:{s.line})" for s in sites if s.code not in known})
    assert not missing, (
        "codes mitos-run raises that catalogue/errors.yaml lacks:\n  " + "\n  ".join(missing)
    )


def test_its_own_codes_are_marked_sdk_local(sites: list[scan.Site]) -> None:
    """A code only mitos-run raises (no server sends it) is emitted_by: sdk."""
    model = load_model(CATALOGUE, CATALOGUE.parents[1])
    by_code = {code.code: code for code in model.codes}
    server_codes = {
        "exec_failed",
        "exec_timeout",
        "not_found",
        "timeout_too_large",
        "too_many_streams",
    }
    wrong = sorted(
        {s.code for s in sites if s.code in by_code and s.code not in server_codes}
        - {c.code for c in model.codes if c.sdk_local}
    )
    assert not wrong, f"raised by mitos-run itself but not emitted_by: sdk: {wrong}"


def test_the_scan_finds_the_sites() -> None:
    """The scanner reads literal, keyword, positional and variable codes (so it can fail)."""
    source = (
        "def f(code):\n"
        "    raise AgentRunError('m', code='lit_kw')\n"
        "def g():\n"
        "    raise AgentRunError('m', 'lit_pos')\n"
        "def h(code):\n"
        "    c = code or 'from_var'\n"
        "    raise error_for_code(c, 'm')\n"
    )
    tree = Path(__file__).parent / "_scan_probe"
    (tree / "mitos").mkdir(parents=True, exist_ok=True)
    try:
        (tree / "mitos" / "probe.py").write_text(source, encoding="utf-8")
        found, unresolved = scan.scan(tree)
    finally:
        (tree / "mitos" / "probe.py").unlink()
        (tree / "mitos").rmdir()
        tree.rmdir()
    assert {s.code for s in found} == {"lit_kw", "lit_pos", "from_var"}
    assert unresolved == []
