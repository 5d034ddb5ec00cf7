"""Every code a Mitos SDK raises by itself is in the catalogue (or retired, with its replacement).

Three sources: mitos-run 0.3.1's sdist from PyPI (offline, its cases skip),
and the Mitos monorepo's two SDKs (``sdk/python``, ``sdk/typescript``), whose
sites are recorded in ``monorepo_sites.json`` (CI cannot fetch the
monorepo). With ``MITOS_MONOREPO`` naming a checkout of it, the record is
checked against what the scanners read there, so a newer monorepo shows
what changed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from errcat.cli import load_model
from testkit.mitos_run import scan, scan_ts, sdist

HERE = Path(__file__).resolve().parent

CATALOGUE = HERE.parents[1] / "catalogue" / "errors.yaml"
RECORD = json.loads((HERE / "monorepo_sites.json").read_text(encoding="utf-8"))
# Each SDK folder of the monorepo and the scanner of its language.
MONOREPO_SDKS: dict[str, Callable[[Path], tuple[list[scan.Site], list[str]]]] = {
    "sdk/python": scan.scan,
    "sdk/typescript": scan_ts.scan,
}


def recorded(sdk: str) -> list[scan.Site]:
    return [scan.Site(path, line, code) for path, line, code in RECORD[sdk]]


@pytest.fixture(scope="module", params=["mitos-run", *MONOREPO_SDKS])
def sites(request: pytest.FixtureRequest) -> list[scan.Site]:
    if request.param in MONOREPO_SDKS:
        return recorded(request.param)
    tree = sdist.unpacked()
    if tree is None:
        pytest.skip(f"{sdist.NAME}=={sdist.VERSION} sdist unavailable (offline?)")
    found, unresolved = scan.scan(tree)
    assert not unresolved, f"error sites whose code the scan cannot read: {unresolved}"
    return found


def test_every_code_a_mitos_sdk_raises_is_catalogued(sites: list[scan.Site]) -> None:
    model = load_model(CATALOGUE, CATALOGUE.parents[1])
    known = {code.code for code in model.codes} | {retired.code for retired in model.retired}
    missing = sorted({f"{s.code} ({s.path}:{s.line})" for s in sites if s.code not in known})
    assert not missing, (
        "codes a Mitos SDK raises that catalogue/errors.yaml lacks:\n  " + "\n  ".join(missing)
    )


def test_its_own_codes_are_marked_sdk_local(sites: list[scan.Site]) -> None:
    """A code only a Mitos SDK raises (no server sends it) is emitted_by: sdk."""
    model = load_model(CATALOGUE, CATALOGUE.parents[1])
    by_code = {code.code: code for code in model.codes}
    server_codes = {
        "exec_failed",
        "exec_timeout",
        "not_found",
        "timeout_too_large",
        "too_many_streams",
        # The TypeScript SDK maps the Connect statuses resource_exhausted and
        # unauthenticated onto them.
        "rate_limited",
        "unauthorized",
    }
    wrong = sorted(
        {s.code for s in sites if s.code in by_code and s.code not in server_codes}
        - {c.code for c in model.codes if c.sdk_local}
    )
    assert not wrong, f"raised by a Mitos SDK itself but not emitted_by: sdk: {wrong}"


@pytest.mark.parametrize("sdk", list(MONOREPO_SDKS))
def test_the_record_is_what_the_monorepo_raises(sdk: str) -> None:
    """With MITOS_MONOREPO set, the recorded sites are those its SDK folder has now."""
    root = os.environ.get("MITOS_MONOREPO")
    if not root:
        pytest.skip("MITOS_MONOREPO names no checkout of the Mitos monorepo")
    found, unresolved = MONOREPO_SDKS[sdk](Path(root) / sdk)
    assert not unresolved, f"error sites whose code the scan cannot read: {unresolved}"
    assert found == recorded(sdk), (
        f"{sdk} has changed since {RECORD['commit']}: update monorepo_sites.json"
    )


def _probe(tmp_path: Path, package: str, name: str, source: str) -> set[str]:
    (tmp_path / package).mkdir(parents=True)
    (tmp_path / package / name).write_text(source, encoding="utf-8")
    scanner = scan_ts.scan if name.endswith(".ts") else scan.scan
    found, unresolved = scanner(tmp_path)
    assert unresolved == []
    return {s.code for s in found}


def test_the_scan_finds_the_sites(tmp_path: Path) -> None:
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
    assert _probe(tmp_path, "mitos", "probe.py", source) == {"lit_kw", "lit_pos", "from_var"}


def test_the_typescript_scan_finds_the_sites(tmp_path: Path) -> None:
    """Literal and variable codes, nested options, comments and errors.ts left out."""
    source = (
        "// new AgentRunError('m', { code: 'in_a_comment' })\n"
        'throw new AgentRunError(`a ${f({ x: 1 })}`, { cause: "(", code: "lit" });\n'
        "let sdkCode = code || 'from_var';\n"
        'if (x) sdkCode = "reassigned";\n'
        "return errorForCode(msg, { context: { connect_code: code }, code: sdkCode });\n"
        "throw new NotFoundError('gone', {\n  code: 'typed',\n});\n"
    )
    assert _probe(tmp_path, "src", "probe.ts", source) == {"lit", "from_var", "reassigned", "typed"}
    (tmp_path / "src" / "errors.ts").write_text("new AgentRunError('m', { code: 'replaced' });\n")
    assert "replaced" not in {s.code for s in scan_ts.scan(tmp_path)[0]}
