"""Sessions that regenerate, check, lint, type-check, test and benchmark everything.

A bare ``nox`` runs what CI runs: lint, typecheck, check, tests, ts, compat, breaking and
fuzz (a small fixed budget).
``nox -s generate`` rewrites every generated file from the catalogue;
``nox -s bench`` and ``nox -s release-check`` are slow and run only when named.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent
TS_SDK = ROOT / "ts-sdk"
CATALOGUE = "catalogue/errors.yaml"
# The pinned npm checkers (tools/package-lock.json): markdownlint, attw, publint, and
# the oldest TypeScript the package supports.
TOOLS = ROOT / "tools"
OLDEST_TS = TOOLS / "node_modules" / "typescript-oldest"

nox.needs_version = ">=2024.3.2"
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["lint", "typecheck", "check", "tests", "ts", "compat", "breaking", "fuzz"]
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


def npm_ci(session: nox.Session) -> None:
    """Install ts-sdk's pinned dev dependencies, without the prepare step's build."""
    npm(session, "ci", "--ignore-scripts", "--no-audit", "--no-fund")


def npm_tools(session: nox.Session) -> None:
    """Install the pinned npm checkers of tools/package-lock.json."""
    session.run(
        "npm",
        "ci",
        "--prefix",
        str(TOOLS),
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        external=True,
    )


def tool(session: nox.Session, name: str, *args: str) -> None:
    """Run one of the checkers npm_tools installed."""
    session.run(str(TOOLS / "node_modules" / ".bin" / name), *args, external=True)


def build_ts(session: nox.Session) -> None:
    """Install ts-sdk's pinned dev dependencies and compile it (ESM, CJS, types)."""
    npm_ci(session)
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
    """Lint all Python code with ruff, and the hand-written Markdown with markdownlint."""
    session.install("ruff")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    npm_tools(session)
    tool(session, "markdownlint-cli2")  # files and rules: .markdownlint-cli2.jsonc


# pyright from PyPI, pinned (the wrapper fetches the matching npm release once).
PYRIGHT = "pyright==1.1.414"
CONSUMERS = "python-sdk/tests/typing"


@nox.session(python=PYTHON)
def typecheck(session: nox.Session) -> None:
    """Type-check with mypy --strict and pyright; hold the SDK's public types 100% complete.

    The generator, the Python SDK and the conformance and fuzz kits with mypy; a user's
    code (python-sdk/tests/typing/consumer_*.py) with both mypy --strict and
    pyright (strict); and ``pyright --verifytypes`` of the installed SDK,
    which fails below 100% (httpx's own gaps are httpx's: --ignoreexternal).
    """
    session.install("mypy", "types-PyYAML", "types-jsonschema", PYRIGHT)
    install_codegen(session)
    install_sdk(session)
    session.run("mypy", "--strict", "codegen/errcat", "python-sdk/src")
    session.run("mypy", "--strict", "tests/conformance/conformance_kit")
    session.run("mypy", "--strict", CONSUMERS)
    session.run(
        "mypy", "--strict", "tests/fuzz/fuzzkit", "tests/fuzz/run.py",
        env={"MYPYPATH": "tests/fuzz:tests/conformance"},
    )  # fmt: skip
    python = str(Path(session.bin) / "python")
    session.run(
        "pyright", "--pythonpath", python, "-p", f"{CONSUMERS}/pyrightconfig.json", CONSUMERS
    )
    verify_types(session, python, "mitos_errors")


def verify_types(session: nox.Session, python: str, package: str) -> None:
    """Fail unless ``pyright --verifytypes`` finds every public symbol of ``package`` fully typed."""
    out = session.run(
        "pyright",
        "--pythonpath",
        python,
        "--verifytypes",
        package,
        "--ignoreexternal",
        "--outputjson",
        silent=True,
        success_codes=[0, 1],
    )
    report = json.loads(str(out))
    score = report["typeCompleteness"]["completenessScore"]
    if score < 1:
        problems = [d["message"] for d in report["generalDiagnostics"]][:20]
        session.error(f"{package} type completeness is {score:.1%}, not 100%: {problems}")
    session.log(f"pyright --verifytypes {package}: 100% of the public symbols have known types")


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Run the generator, Python SDK and cross-cutting tests (conformance runs both SDKs)."""
    session.install("./codegen[test]")
    install_sdk(session)
    build_ts(session)
    session.run("pytest", "codegen/tests", "python-sdk/tests", "tests", *session.posargs)


@nox.session(venv_backend="none")
def ts(session: nox.Session) -> None:
    """Type-check, build and test the TypeScript SDK; type-check a user's code with the oldest TypeScript."""
    npm_ci(session)
    npm(session, "run", "typecheck")
    npm(session, "test")
    npm_tools(session)
    # The newest is checked by npm test (nodenext) and by release-check (every mode).
    session.run("node", "ts-sdk/scripts/check-consumer-types.mjs", str(OLDEST_TS), external=True)


def catalogue_baseline(session: nox.Session) -> tuple[str | None, str]:
    """Install errcat; return the revision to measure catalogue changes from, and why.

    ``-- --against REV`` picks it; otherwise errcat.evolve.baseline does (the last
    release tag, else the merge base with main), or says why there is none.
    """
    parser = argparse.ArgumentParser(prog=f"nox -s {session.name} --")
    parser.add_argument("--against", metavar="REV", help="compare with REV instead")
    args = parser.parse_args(session.posargs)
    install_codegen(session)
    if args.against:
        return args.against, f"{args.against}, as asked"
    found = session.run(
        "python", "-m", "errcat.evolve.baseline", CATALOGUE, silent=True, stderr=subprocess.DEVNULL
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
    session.run("python", "-m", "errcat.evolve.changelog", "CHANGELOG.md", str(section))


def worst_case(session: nox.Session, *python_args: str) -> None:
    """Both SDKs on the shared pathological inputs (python-sdk/bench/worst.json), side by side."""
    growths = Path(session.create_tmp()).resolve() / "python-worst.json"
    bench_py = ("python", "python-sdk/bench/bench.py", "--worst-json", str(growths), *python_args)
    session.run(*bench_py, success_codes=[0, 1])  # worst.mjs judges both SDKs' ratios
    session.run(
        "node", str(TS_SDK / "bench" / "worst.mjs"), "--python", str(growths), external=True
    )


@nox.session(python=PYTHON, default=False)
def bench(session: nox.Session) -> None:
    """Benchmark generation and both SDKs against their floors and peers, and their worst cases (slow)."""
    install_codegen(session)
    install_sdk(session)
    session.install("mitos-run==0.3.1", "openai", "google-api-core", "requests")
    session.run("python", "codegen/bench/bench_generate.py")
    build_ts(session)
    worst_case(session, *session.posargs)
    npm(session, "run", "bench")
    npm(session, "run", "size")  # bundle sizes with esbuild: docs/benchmarks-typescript.md


# The release checkers, pinned: a new version is a deliberate change here.
RELEASE_TOOLS = ("build==1.6.1", "twine==7.0.0", "check-wheel-contents==0.6.3", "uv==0.13.9")
PYTHON_PACKAGES = ("codegen", "python-sdk")
SMOKE = ROOT / "tests" / "packaging" / "smoke.py"


def clean_tree(session: nox.Session, dest: Path) -> Path:
    """Copy the repository as a clone of the work tree has it: tracked and not-ignored files only."""
    listed = session.run(
        "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard",
        external=True, silent=True,
    )  # fmt: skip
    assert isinstance(listed, str)
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def fresh_venv(session: nox.Session, where: Path, *requirements: str) -> Path:
    """A new virtual environment holding only `requirements`; returns its python."""
    session.run("uv", "venv", "--quiet", "--python", PYTHON, str(where))
    python = where / "bin" / "python"
    session.run("uv", "pip", "install", "--quiet", "--python", str(python), *requirements)
    return python


def smoke_python(session: nox.Session, work: Path, tree: Path, dist: Path) -> None:
    """Install every Python artifact in its own environment and run its smoke test from outside the tree."""
    for artifact in sorted(dist.glob("errcat-*")):
        python = fresh_venv(session, work / f"venv-{artifact.name}", str(artifact))
        session.run(str(python), str(SMOKE), "errcat", str(tree), external=True)
    for artifact in sorted(dist.glob("mitos_errors-*")):
        python = fresh_venv(session, work / f"venv-{artifact.name}", str(artifact))
        session.run(str(python), str(SMOKE), "mitos-errors", external=True)
        python = fresh_venv(
            session,
            work / f"venv-{artifact.name}-httpx",
            f"mitos-errors[httpx] @ {artifact.as_uri()}",
        )
        session.run(str(python), str(SMOKE), "mitos-errors-httpx", external=True)


def smoke_npm(session: nox.Session, work: Path, tarball: Path) -> None:
    """Install the npm tarball into an empty project; load it with require and import."""
    project = work / "npm-consumer"
    project.mkdir()
    (project / "package.json").write_text(
        '{"name": "consumer", "version": "0.0.0", "private": true}\n'
    )
    with session.chdir(project):
        session.run("npm", "install", "--no-audit", "--no-fund", str(tarball), external=True)
        for script in ("smoke.cjs", "smoke.mjs"):
            shutil.copy2(ROOT / "tests" / "packaging" / script, project / script)
            session.run("node", script, external=True)


@nox.session(name="release-check", python=PYTHON, default=False)
def release_check(session: nox.Session) -> None:
    """Build every package from a clean tree, check the artifacts, install and smoke-test each, dry-run the publish."""
    session.install(*RELEASE_TOOLS)
    npm_tools(session)
    work = Path(session.create_tmp()).resolve() / "release-check"
    shutil.rmtree(work, ignore_errors=True)
    tree, dist = clean_tree(session, work / "tree"), work / "dist"
    for package in PYTHON_PACKAGES:
        # `build` makes the sdist, then the wheel from the unpacked sdist: each builds from its own sdist.
        session.run("python", "-m", "build", "--outdir", str(dist), str(tree / package))
    session.run("twine", "check", "--strict", *map(str, sorted(dist.iterdir())))
    session.run("check-wheel-contents", *map(str, sorted(dist.glob("*.whl"))))
    with session.chdir(tree / "ts-sdk"):
        session.run("npm", "ci", "--no-audit", "--no-fund", external=True)  # prepare builds it
        session.run("npm", "pack", "--pack-destination", str(dist), external=True)
        session.run("npm", "publish", "--dry-run", external=True)
    tarball = next(dist.glob("mitos-errors-*.tgz"))
    tool(session, "attw", str(tarball))
    tool(session, "publint", "run", "--strict", str(tarball))
    newest = tree / "ts-sdk" / "node_modules" / "typescript"
    consumer_types = tree / "ts-sdk" / "scripts" / "check-consumer-types.mjs"
    session.run("node", str(consumer_types), str(OLDEST_TS), str(newest), external=True)
    with session.chdir(work):  # outside both trees: what is imported is what was installed
        smoke_python(session, work, tree, dist)
    smoke_npm(session, work, tarball)
    session.log(f"release-check: every artifact built, checked and installed: {dist}")


@nox.session(python=PYTHON)
def compat(session: nox.Session) -> None:
    """Run mitos-run 0.3.1's own tests with its error layer replaced by mitos_errors.compat."""
    install_sdk(session)
    # mitos-run's runtime and dev dependencies (its pyproject), and pip to fetch its sdist.
    session.install("pip", "httpx>=0.27.0", "websocket-client>=1.7.0", "kubernetes>=31.0.0")
    session.install("pytest>=8.0", "pytest-asyncio>=0.24", "websockets>=12.0")
    work = Path(session.create_tmp())
    session.run("python", "tests/mitos_run/run_suite.py", str(work), *session.posargs)


@nox.session(python=PYTHON)
def fuzz(session: nox.Session) -> None:
    """Differential fuzzing: hostile responses from a seed through both SDKs; -- --cases N, --seed S (tests/fuzz)."""
    install_codegen(session)
    install_sdk(session)
    build_ts(session)
    session.run("python", "tests/fuzz/run.py", *session.posargs)


@nox.session(python=PYTHON, name="bench-worst", default=False)
def bench_worst(session: nox.Session) -> None:
    """Only the worst-case part of bench: both SDKs on the pathological inputs at 1, 8 and 64 KiB (contract 2a)."""
    install_sdk(session)
    build_ts(session)
    worst_case(session, "--worst-only", *session.posargs)
