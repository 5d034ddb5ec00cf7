"""The Rust crate generated from random catalogues builds, is formatted, and passes its tests.

A handful of catalogues drawn by ``catalogue_strategies`` are generated with
``--target rust``; each crate gets an integration test written here from the
catalogue (every code parses back, carries its statuses and refines chain,
and a body holding it reads back as it; every code the writer emits reads
back as itself), then ``cargo fmt --check`` and ``cargo test`` run with one
shared target folder (a folder of the repository's one cargo target folder,
outside the clone: ``testkit.cargo``), so the dependencies build once, not once
per clone.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from catalogue_strategies import catalogues, to_yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.cli import run
from errcat.model.catalogue import build_model
from errcat.names.languages import RUST
from errcat.names.rust_names import rust_code
from errcat.render.rust.syntax import string
from testkit import cargo

REPO = Path(__file__).resolve().parents[2]
ENVELOPE = '    let body = format!("{{{{\\"error\\":{{{{\\"code\\":\\"{{}}\\"}}}}}}}}", {code});'
"""A Rust statement making the envelope of one code (``str.format`` of its literal)."""


def _cargo() -> str:
    exe = shutil.which("cargo")
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("cargo is not on PATH; install Rust (rustup)")
        pytest.skip("needs cargo")
    return exe


def _test_source(data: dict[str, Any]) -> str:
    """An integration test of the crate of ``data``, checking it against the model."""
    cat = build_model(data, source="catalogue.yaml", regenerate="x")
    crate = cat.packages[RUST.key]["crate"].replace("-", "_")
    lines = [f"use {crate}::{{envelope_bytes, error_from_body, Code, EmitInput, WireCode}};", ""]
    lines += ["#[test]", "fn the_codes_are_the_catalogues() {"]
    lines.append(f"    assert_eq!(Code::ALL.len(), {len(cat.codes)});")
    for c in cat.codes:
        name = rust_code(c.class_names[RUST.key])
        lines.append(f"    assert_eq!({string(c.code)}.parse::<Code>(), Ok({name}));")
        lines.append(f"    assert_eq!({name}.spec().http_status, Some({c.http}));")
        lines.append(f"    assert_eq!({name}.refines().len(), {len(c.chain)});")
        lines.append(ENVELOPE.format(code=string(c.code)))
        lines.append(f"    let read = error_from_body(body.as_bytes(), Some({c.http}), &[], None);")
        lines.append(f"    assert_eq!(read.code(), &WireCode::Known({name}));")
    lines.append("}")
    lines += ["", "#[test]", "fn every_emitted_code_reads_back() {", "    for code in Code::ALL {"]
    lines.append(
        "        let sent = envelope_bytes(&EmitInput { code: Some(code.as_str()), ..EmitInput::default() });"
    )
    lines.append(
        "        let read = error_from_body(sent.body.as_bytes(), Some(sent.status), &[], None);"
    )
    lines.append("        assert_eq!(read.status(), Some(sent.status));")
    lines.append("        assert!(read.code().known().is_some());")
    lines += ["    }", "}", ""]
    return "\n".join(lines)


@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
@given(data=catalogues())
def test_a_random_catalogues_crate_builds_and_passes_its_tests(
    data: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> None:
    exe = _cargo()
    out = tmp_path_factory.mktemp("crate")
    (out / "catalogue.yaml").write_text(to_yaml(data), encoding="utf-8")
    args = ["--catalogue", str(out / "catalogue.yaml"), "--out", str(out), "--target", "rust"]
    assert run(["generate", *args]) == 0
    crate = out / "rust-sdk"
    shutil.copy(REPO / "rust-sdk" / "Cargo.lock", crate / "Cargo.lock")
    (crate / "tests").mkdir()
    (crate / "tests" / "catalogue.rs").write_text(_test_source(data), encoding="utf-8")
    # A folder of its own: the drawn crates build their dependencies with other features
    # and profiles than the repository's crates, and need not wait for their builds. Each
    # crate is built once: no incremental state, and its artifacts go when it passed (only
    # the dependencies are worth keeping).
    target = cargo.target_dir() / "generated-catalogues"
    env = {**os.environ, cargo.ENV: str(target), "CARGO_INCREMENTAL": "0"}
    manifest = ["--manifest-path", str(crate / "Cargo.toml")]
    # The test written here is formatted first; the crate itself must already be.
    rustfmt = [shutil.which("rustfmt") or "rustfmt", "--edition", "2021"]
    rustfmt.append(str(crate / "tests" / "catalogue.rs"))
    subprocess.run(rustfmt, capture_output=True, env=env, timeout=120, check=True)
    for command in (["fmt", *manifest, "--check"], ["test", *manifest, "--quiet"]):
        done = subprocess.run([exe, *command], capture_output=True, text=True, env=env, timeout=900)
        assert done.returncode == 0, (
            f"cargo {command[0]}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    package = build_model(data, source="catalogue.yaml", regenerate="x").packages[RUST.key]
    clean = [exe, "clean", "--quiet", *manifest, "--package", package["crate"]]
    subprocess.run(clean, capture_output=True, env=env, timeout=120, check=True)


PATHS = st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\0"), max_size=12)
"""Values of the environment's folder variables: empty, relative or absolute."""


@given(
    chosen=st.none() | PATHS,
    xdg=st.none() | PATHS | PATHS.map(lambda p: "/" + p),
    other=st.dictionaries(st.sampled_from(["HOME_X", "PATH", "LANG"]), PATHS),
)
def test_every_cargo_build_has_one_target_folder_outside_the_clone(
    chosen: str | None, xdg: str | None, other: dict[str, str]
) -> None:
    """CARGO_TARGET_DIR wins when set; else an absolute XDG_CACHE_HOME, else ~/.cache, holds it."""
    environ = dict(other)
    if chosen is not None:
        environ[cargo.ENV] = chosen
    if xdg is not None:
        environ["XDG_CACHE_HOME"] = xdg
    target = cargo.target_dir(environ)
    if chosen:
        assert target == Path(chosen)
    elif xdg and xdg.startswith("/"):
        assert target == Path(xdg) / "errcat" / "cargo-target"
    else:
        assert target == Path.home() / ".cache" / "errcat" / "cargo-target"
    if not chosen:
        assert not target.is_relative_to(REPO), "the folder lies outside the clone"
    assert cargo.environment(environ) == {**environ, cargo.ENV: str(target)}
