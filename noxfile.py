"""Sessions that regenerate, check, lint, type-check, test and benchmark everything.

A bare ``nox`` runs what CI runs: lint, typecheck, check, tests and ts.
``nox -s generate`` rewrites every generated file from the catalogue.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
TS_SDK = ROOT / "ts-sdk"
CATALOGUE = "catalogue/errors.yaml"

nox.needs_version = ">=2024.3.2"
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["lint", "typecheck", "check", "tests", "ts"]
nox.options.error_on_missing_interpreters = True

# uv venvs import slowly on machines that set PYTHONDONTWRITEBYTECODE unless
# uv compiles the bytecode at install time.
os.environ.setdefault("UV_COMPILE_BYTECODE", "1")

PYTHON = "3.11"


def install_codegen(session: nox.Session) -> None:
    """Install the generator (errcat) and its dependencies."""
    session.install("./codegen")


def install_sdk(session: nox.Session) -> None:
    """Install the Python SDK with its test dependencies (not editable, as users get it)."""
    session.install("./python-sdk[test]")


def npm(session: nox.Session, *args: str) -> None:
    """Run npm in ts-sdk/."""
    session.run("npm", "--prefix", str(TS_SDK), *args, external=True)


def build_ts(session: nox.Session) -> None:
    """Install ts-sdk's pinned dev dependencies and compile it (ESM, CJS, types)."""
    npm(session, "ci", "--no-audit", "--no-fund")
    npm(session, "run", "build")


@nox.session(python=PYTHON)
def generate(session: nox.Session) -> None:
    """Regenerate every artifact from catalogue/errors.yaml."""
    install_codegen(session)
    session.run("python", "-m", "errcat", "generate", *session.posargs)


@nox.session(python=PYTHON)
def check(session: nox.Session) -> None:
    """Fail with a diff if any generated file differs from a fresh render."""
    install_codegen(session)
    session.run("python", "-m", "errcat", "check", *session.posargs)


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """Lint all Python code with ruff."""
    session.install("ruff")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session(python=PYTHON)
def typecheck(session: nox.Session) -> None:
    """Type-check the generator, the Python SDK and the conformance kit with mypy --strict."""
    session.install("mypy", "types-PyYAML", "types-jsonschema")
    install_codegen(session)
    install_sdk(session)
    session.run("mypy", "--strict", "codegen/errcat", "python-sdk/src")
    session.run("mypy", "--strict", "tests/conformance/conformance_kit")


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Run the generator, Python SDK and cross-cutting tests (conformance runs both SDKs)."""
    install_codegen(session)
    install_sdk(session)
    session.install("pytest", "hypothesis")
    build_ts(session)
    session.run("pytest", "codegen/tests", "python-sdk/tests", "tests", *session.posargs)


@nox.session(venv_backend="none")
def ts(session: nox.Session) -> None:
    """Type-check, build and test the TypeScript SDK with node --test."""
    npm(session, "ci", "--no-audit", "--no-fund")
    npm(session, "run", "typecheck")
    npm(session, "test")


def catalogue_baseline(session: nox.Session) -> tuple[str | None, str]:
    """Install errcat; return the revision to measure catalogue changes from, and why.

    ``-- --against REV`` picks it; otherwise errcat.baseline does (the last
    release tag, else the merge base with main), or says why there is none.
    """
    parser = argparse.ArgumentParser(prog=f"nox -s {session.name} --")
    parser.add_argument("--against", metavar="REV", help="compare with REV instead")
    args = parser.parse_args(session.posargs)
    install_codegen(session)
    if args.against:
        return args.against, f"{args.against}, as asked"
    found = session.run(
        "python", "-m", "errcat.baseline", CATALOGUE, silent=True, stderr=subprocess.DEVNULL
    )
    answer = json.loads(str(found))
    return answer["rev"], answer["why"]


def catalogue_diff(base: str) -> tuple[str, ...]:
    """The command that compares the catalogue with ``base``."""
    return ("python", "-m", "errcat", "diff", "--against", base, CATALOGUE)


@nox.session(python=PYTHON)
def breaking(session: nox.Session) -> None:
    """Classify catalogue changes since the last release (or main) and print the changelog section."""
    base, why = catalogue_baseline(session)
    if base is None:
        session.skip(f"nothing to compare the catalogue with: {why}; pass -- --against REV")
    session.log(f"comparing {CATALOGUE} with {why}; the changelog section a release would get:")
    markdown = (*catalogue_diff(base), "--format", "markdown")
    session.run(*markdown, success_codes=[0, 1], stderr=subprocess.DEVNULL)
    session.run(*catalogue_diff(base))


@nox.session(python=PYTHON, default=False)
def changelog(session: nox.Session) -> None:
    """Put the changelog section of the catalogue changes since the last release into CHANGELOG.md."""
    base, why = catalogue_baseline(session)
    if base is None:
        session.error(f"nothing to compare the catalogue with: {why}; pass -- --against REV")
    session.log(f"the changes of {CATALOGUE} since {why}")
    section = Path(session.create_tmp()) / "section.md"
    with section.open("w", encoding="utf-8") as out:
        markdown = (*catalogue_diff(base), "--format", "markdown")
        session.run(*markdown, success_codes=[0, 1], stdout=out, stderr=None)
    session.run("python", "-m", "errcat.changelog", "CHANGELOG.md", str(section))


@nox.session(python=PYTHON, default=False)
def bench(session: nox.Session) -> None:
    """Benchmark generation and both SDKs against their floors and peers (slow)."""
    install_codegen(session)
    install_sdk(session)
    session.install("mitos-run==0.3.1", "openai", "google-api-core", "requests")
    session.run("python", "codegen/bench/bench_generate.py")
    session.run("python", "python-sdk/bench/bench.py", *session.posargs)
    npm(session, "ci", "--no-audit", "--no-fund")
    npm(session, "run", "bench")


@nox.session(python=False, name="bench-worst")
def bench_worst(session: nox.Session) -> None:
    """Worst-case time of the TypeScript SDK: pathological bodies at 1, 8 and 64 KiB (contract 2a)."""
    build_ts(session)
    session.run("node", str(TS_SDK / "bench" / "worst.mjs"), *session.posargs, external=True)
