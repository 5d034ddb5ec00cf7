"""Sessions that regenerate, check, lint, type-check, test and benchmark everything.

A bare ``nox`` runs what CI runs: lint, typecheck, check, go, rust, tests, ts, compat,
breaking and fuzz (a small fixed budget); each session ends with a line giving its wall
time and CPU time (its own and its commands'), which .ci/summarize.py tabulates.
``nox -s quick`` is the loop of a catalogue edit (about a minute): regenerate, check, then
the generator's tests and the sync tests with small property budgets.
``nox -s generate`` rewrites every generated file from the catalogue;
``nox -s bench`` and ``nox -s release-check`` are slow and run only when named.

The Python sessions share one environment (``.nox/dev``) and one build of the TypeScript
package: each is installed or built once per run, and again only when its inputs change.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import runpy
import shutil
import subprocess
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import nox
from nox.virtualenv import find_uv

ROOT = Path(__file__).resolve().parent
TS_SDK = ROOT / "ts-sdk"
CATALOGUE = "catalogue/errors.yaml"
# The pinned npm checkers (tools/package-lock.json): markdownlint, attw, publint, and
# the oldest TypeScript the package supports.
TOOLS = ROOT / "tools"
OLDEST_TS = TOOLS / "node_modules" / "typescript-oldest"

nox.needs_version = ">=2024.3.2"
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = [
    "lint",
    "typecheck",
    "check",
    "go",
    "rust",
    "tests",
    "ts",
    "compat",
    "breaking",
    "fuzz",
]
nox.options.error_on_missing_interpreters = True

# uv venvs import slowly on machines that set PYTHONDONTWRITEBYTECODE unless
# uv compiles the bytecode at install time.
os.environ.setdefault("UV_COMPILE_BYTECODE", "1")

PYTHON = "3.11"
# pyright from PyPI, pinned (the wrapper fetches the matching npm release once).
PYRIGHT = "pyright==1.1.414"

# The one environment of the Python sessions: the generator and the SDK (not editable,
# as users get them; uv rebuilds a local package at every install, so it is never stale),
# the test, lint and type-check tools. compat and bench keep their own: they add
# third-party suites and peers that must not change what the other sessions import.
DEV = ROOT / ".nox" / "dev"
DEV_REQUIREMENTS = (
    "./codegen[test]",
    "./python-sdk[test]",
    "./tests/kit",
    "pytest-xdist",
    "ruff",
    "mypy",
    "types-PyYAML",
    "types-jsonschema",
    "build",  # tests/packaging builds the packages of drawn catalogues
    PYRIGHT,
)
# pytest spreads the tests over every core (pytest-xdist); `-- -n 0` runs them in one process.
# worksteal: each worker starts with half the tests, in order, and one that runs out takes
# half of the other's queue, so both stay busy to the end (the root conftest.py puts the
# longest modules first, so none of them is what is left at the end).
PYTEST = ("pytest", "-n", "auto", "--dist", "worksteal")


_DONE: set[str] = set()  # what this nox run has done or said once

TOOK = "took"
"""The word of the line each session ends with (``nox > NAME took 12 s, 20 s of CPU``),
which .ci/summarize.py reads."""


def timed(func: Callable[[nox.Session], None]) -> Callable[[nox.Session], None]:
    """Log, when the session ends (passed, failed or skipped), its wall time and CPU time.

    The CPU time adds the session's own and that of the commands it ran and waited for: on
    a machine others share it tells how much work a session is, whatever the load.
    """

    @functools.wraps(func)
    def session(session: nox.Session) -> None:
        wall, cpu = time.perf_counter(), os.times()
        try:
            func(session)
        finally:
            now = os.times()
            used = sum(now[:4]) - sum(cpu[:4])
            took = time.perf_counter() - wall
            session.log(f"{session.name} {TOOK} {took:.0f} s, {used:.0f} s of CPU")

    return session


def dev(session: nox.Session) -> None:
    """Create or update .nox/dev, once per nox run; the sessions run its tools with `py`.

    An update adds and upgrades, never removes: delete .nox/dev to drop a package that
    DEV_REQUIREMENTS no longer names.
    """
    if "dev" in _DONE:
        return
    has_uv, uv, _ = find_uv()
    if not has_uv:
        session.error("the Python sessions need uv next to nox: pip install nox uv")
    python = DEV / "bin" / "python"
    if not python.exists():
        session.run(uv, "venv", "--quiet", "--python", PYTHON, str(DEV), external=True)
    install = (uv, "pip", "install", "--quiet", "--python", str(python))
    session.run(*install, *DEV_REQUIREMENTS, external=True)
    _DONE.add("dev")


def py(
    session: nox.Session, tool: str, *args: str, env: dict[str, str] | None = None, **kwargs: Any
) -> Any:
    """Run a tool of .nox/dev (``python``, ``pytest``, ``mypy``...), installing it first if needed.

    As in an activated environment, .nox/dev/bin comes first on PATH: what the tool starts
    by name (``python``; pyright --verifytypes looks the package up with it) is .nox/dev's.
    """
    dev(session)
    activated = {
        "VIRTUAL_ENV": str(DEV),
        "PATH": os.pathsep.join([str(DEV / "bin"), os.environ["PATH"]]),
    }
    return session.run(
        str(DEV / "bin" / tool), *args, external=True, env=activated | (env or {}), **kwargs
    )


def npm(session: nox.Session, *args: str) -> None:
    """Run npm in ts-sdk/."""
    session.run("npm", "--prefix", str(TS_SDK), *args, external=True)


def inputs_digest(root: Path, names: Iterable[str]) -> str:
    """A digest of the files ``names`` (globs under ``root``): their paths and bytes."""
    digest = hashlib.sha256()
    for path in sorted({p for name in names for p in root.glob(name) if p.is_file()}):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def stamped(session: nox.Session, stamp: Path, digest: str, what: str) -> bool:
    """Whether ``stamp`` records ``digest``: the work it stands for is done and current."""
    if not stamp.is_file() or stamp.read_text(encoding="utf-8") != digest:
        return False
    if what not in _DONE:  # said once per run
        session.log(f"{what}: up to date ({stamp.relative_to(ROOT)})")
        _DONE.add(what)
    return True


def npm_ci(session: nox.Session, where: Path = TS_SDK) -> None:
    """Install the pinned packages of ``where``/package-lock.json, no scripts, unless they are.

    ``npm ci`` empties node_modules first, so its stamp goes with it.
    """
    stamp, digest = where / "node_modules" / ".nox-npm-ci", inputs_digest(where, ["package*.json"])
    if stamped(session, stamp, digest, f"npm ci in {where.name}"):
        return
    session.run(
        "npm", "ci", "--prefix", str(where), "--ignore-scripts", "--no-audit", "--no-fund",
        external=True,
    )  # fmt: skip
    stamp.write_text(digest, encoding="utf-8")


def tool(session: nox.Session, name: str, *args: str) -> None:
    """Run one of the pinned npm checkers of tools/, installing them first if needed."""
    npm_ci(session, TOOLS)
    session.run(str(TOOLS / "node_modules" / ".bin" / name), *args, external=True)


# What `npm run build` reads: a build from the same bytes is the same build.
TS_BUILD_INPUTS = ("src/**/*.ts", "scripts/*.mjs", "tsconfig*.json", "package*.json")


def build_ts(session: nox.Session) -> None:
    """Compile ts-sdk (ESM, CJS, types) unless dist/ is the build of its current inputs.

    The build empties dist/ first, so a failed build leaves no stamp.
    """
    npm_ci(session)
    stamp, digest = TS_SDK / "dist" / ".nox-build", inputs_digest(TS_SDK, TS_BUILD_INPUTS)
    if stamped(session, stamp, digest, "ts-sdk build"):
        return
    npm(session, "run", "build")
    stamp.write_text(digest, encoding="utf-8")


@nox.session(venv_backend="none")
@timed
def generate(session: nox.Session) -> None:
    """Regenerate every artifact from catalogue/errors.yaml."""
    py(session, "python", "-m", "errcat", "generate", *session.posargs)


@nox.session(venv_backend="none")
@timed
def check(session: nox.Session) -> None:
    """Fail with a diff if any generated file differs from a fresh render."""
    py(session, "python", "-m", "errcat", "check", *session.posargs)


@nox.session(venv_backend="none")
@timed
def lint(session: nox.Session) -> None:
    """Lint all Python code with ruff, and the hand-written Markdown with markdownlint."""
    py(session, "ruff", "check", ".")
    py(session, "ruff", "format", "--check", ".")
    tool(session, "markdownlint-cli2")  # files and rules: .markdownlint-cli2.jsonc


CONSUMERS = "python-sdk/tests/typing"


@nox.session(venv_backend="none")
@timed
def typecheck(session: nox.Session) -> None:
    """Type-check with mypy --strict and pyright; hold the SDK's public types 100% complete.

    The generator, the Python SDK, the test kit and the fuzz runner with mypy; a user's
    code (python-sdk/tests/typing/consumer_*.py) with both mypy --strict and
    pyright (strict); and ``pyright --verifytypes`` of the installed SDK,
    which fails below 100% (httpx's own gaps are httpx's: --ignoreexternal).
    """
    py(session, "mypy", "--strict", "codegen/errcat", "python-sdk/src")
    py(session, "mypy", "--strict", "tests/kit/testkit", "tests/fuzz/run.py")
    py(session, "mypy", "--strict", CONSUMERS)
    python = str(DEV / "bin" / "python")
    config = f"{CONSUMERS}/pyrightconfig.json"
    py(session, "pyright", "--pythonpath", python, "-p", config, CONSUMERS)
    verify_types(session, python, "mitos_errors")


def verify_types(session: nox.Session, python: str, package: str) -> None:
    """Fail unless ``pyright --verifytypes`` finds every public symbol of ``package`` fully typed."""
    out = py(
        session,
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


@nox.session(venv_backend="none")
@timed
def tests(session: nox.Session) -> None:
    """Run the generator, Python SDK and cross-cutting tests (conformance runs both SDKs)."""
    build_ts(session)
    everything = ("codegen/tests", "python-sdk/tests", "tests")
    py(session, *PYTEST, *everything, "--durations=10", *session.posargs)


# What `quick` leaves to the full run: smaller property budgets (where a test reads one
# from the environment), the tests that measure how the generator's work grows (they trace
# every line), and the one that builds drawn catalogues' Rust crates with cargo (a minute
# or more while the cargo target folder is cold).
QUICK_BUDGETS = {"ERRCAT_DIFF_EXAMPLES": "5"}
QUICK_DESELECT = "not grows_linearly"
QUICK_IGNORE = "--ignore=codegen/tests/test_rust_crates.py"


RUST_CRATES = (ROOT / "rust-sdk", ROOT / "tests" / "rust")
"""The generated crate, then its hand-written tests (a crate depending on it by path)."""


def cargo_target() -> Path:
    """The one target folder of the repository's cargo builds (tests/kit/testkit/cargo.py).

    Read by path: nox's own Python has no test kit installed, and that module needs none.
    """
    kit = runpy.run_path(str(ROOT / "tests" / "kit" / "testkit" / "cargo.py"))
    return Path(kit["target_dir"]())


@nox.session(venv_backend="none")
@timed
def rust(session: nox.Session) -> None:
    """The Rust crate and its tests: rustfmt, clippy (every feature) and cargo test.

    Both crates build into the repository's one cargo target folder, outside the
    clone (``~/.cache/errcat/cargo-target`` unless ``CARGO_TARGET_DIR`` is set; the
    Rust testee the conformance tests run uses it too), so the dependencies and the
    heavy features (axum, tonic) are built once, not once per clone.
    """
    env = {"CARGO_TARGET_DIR": str(cargo_target())}
    for crate in RUST_CRATES:
        manifest = ("--manifest-path", str(crate / "Cargo.toml"))
        session.run("cargo", "fmt", *manifest, "--check", external=True, env=env)
        clippy = ("clippy", *manifest, "--all-features", "--all-targets", "--locked")
        session.run("cargo", *clippy, "--", "-D", "warnings", external=True, env=env)
        session.run(
            "cargo", "test", *manifest, "--all-features", "--locked", external=True, env=env
        )


@nox.session(venv_backend="none", default=False)
@timed
def quick(session: nox.Session) -> None:
    """After a catalogue edit: regenerate (a broken catalogue stops here), check, then the fast tests.

    The fast tests are the generator's own (but the growth and Rust crate builds) and the
    sync tests, with small property budgets; a bare ``nox`` runs everything before a commit.
    """
    py(session, "python", "-m", "errcat", "generate")
    py(session, "python", "-m", "errcat", "check")
    npm_ci(session)  # the generator's tests compile its TypeScript with the package's tsc
    fast = ("codegen/tests", "tests/sync", "-k", QUICK_DESELECT, QUICK_IGNORE)
    py(session, *PYTEST, *fast, *session.posargs, env=QUICK_BUDGETS)


@nox.session(venv_backend="none")
@timed
def ts(session: nox.Session) -> None:
    """Type-check, build and test the TypeScript SDK; type-check a user's code with the oldest TypeScript.

    The build type-checks src/ and the compilation of the tests type-checks them against the
    built declarations, so ``npm run typecheck`` (both at once, for editors) is not run again.
    """
    build_ts(session)
    npm(session, "run", "test:built")
    # The newest is checked by npm test (nodenext) and by release-check (every mode).
    npm_ci(session, TOOLS)
    session.run("node", "ts-sdk/scripts/check-consumer-types.mjs", str(OLDEST_TS), external=True)


GO_MODULES = ("go-sdk", "go-sdk/apierrgrpc", "tests/go")
"""The Go modules: the generated package, its gRPC module, and the hand-written Go tests."""


@nox.session(venv_backend="none")
@timed
def go(session: nox.Session) -> None:
    """gofmt, go vet and go test of the generated Go package, its gRPC module and tests/go.

    Regenerates nothing (``nox -s check`` holds the package to the catalogue). ``gofmt -l``
    must print nothing; ``go test -v`` prints one ``--- PASS``/``--- FAIL`` line per test,
    which .ci/summarize.py counts.
    """
    for module in GO_MODULES:
        with session.chdir(ROOT / module):
            unformatted = session.run("gofmt", "-l", ".", external=True, silent=True)
            if unformatted and str(unformatted).strip():
                session.error(f"gofmt -l in {module} lists files to format:\n{unformatted}")
            session.run("go", "vet", "./...", external=True)
            session.run("go", "test", "-count=1", "-v", "./...", external=True)


def catalogue_baseline(session: nox.Session) -> tuple[str | None, str]:
    """Return the revision to measure catalogue changes from, and why.

    ``-- --against REV`` picks it; otherwise errcat.evolve.baseline does (the last
    release tag, else the merge base with main), or says why there is none.
    """
    parser = argparse.ArgumentParser(prog=f"nox -s {session.name} --")
    parser.add_argument("--against", metavar="REV", help="compare with REV instead")
    args = parser.parse_args(session.posargs)
    if args.against:
        return args.against, f"{args.against}, as asked"
    where = ("python", "-m", "errcat.evolve.baseline", CATALOGUE)
    found = py(session, *where, silent=True, stderr=subprocess.DEVNULL)
    answer = json.loads(str(found))
    return answer["rev"], answer["why"]


def catalogue_diff(base: str) -> tuple[str, ...]:
    """The command (a tool of .nox/dev and its arguments) that compares the catalogue with ``base``."""
    return ("python", "-m", "errcat", "diff", "--against", base, CATALOGUE)


@nox.session(venv_backend="none")
@timed
def breaking(session: nox.Session) -> None:
    """Classify catalogue changes since the last release (or main) and print the changelog section."""
    base, why = catalogue_baseline(session)
    if base is None:
        session.skip(f"nothing to compare the catalogue with: {why}; pass -- --against REV")
    session.log(f"comparing {CATALOGUE} with {why}; the changelog section a release would get:")
    markdown = (*catalogue_diff(base), "--format", "markdown")
    py(session, *markdown, success_codes=[0, 1], stderr=subprocess.DEVNULL)
    py(session, *catalogue_diff(base))


@nox.session(venv_backend="none", default=False)
@timed
def changelog(session: nox.Session) -> None:
    """Put the changelog section of the catalogue changes since the last release into CHANGELOG.md."""
    base, why = catalogue_baseline(session)
    if base is None:
        session.error(f"nothing to compare the catalogue with: {why}; pass -- --against REV")
    session.log(f"the changes of {CATALOGUE} since {why}")
    section = Path(session.create_tmp()) / "section.md"
    with section.open("w", encoding="utf-8") as out:
        markdown = (*catalogue_diff(base), "--format", "markdown")
        py(session, *markdown, success_codes=[0, 1], stdout=out, stderr=None)
    py(session, "python", "-m", "errcat.evolve.changelog", "CHANGELOG.md", str(section))


def worst_case(session: nox.Session, *python_args: str) -> None:
    """Both SDKs on the shared pathological inputs (python-sdk/bench/worst.json), side by side."""
    growths = Path(session.create_tmp()).resolve() / "python-worst.json"
    bench_py = ("python", "python-sdk/bench/bench.py", "--worst-json", str(growths), *python_args)
    session.run(*bench_py, success_codes=[0, 1])  # worst.mjs judges both SDKs' ratios
    session.run(
        "node", str(TS_SDK / "bench" / "worst.mjs"), "--python", str(growths), external=True
    )


@nox.session(python=PYTHON, default=False)
@timed
def bench(session: nox.Session) -> None:
    """Benchmark generation and both SDKs against their floors and peers, and their worst cases (slow).

    Its own environment: the peers it compares with (python-sdk's `bench` extra) stay out of .nox/dev.
    """
    session.install("./codegen", "./python-sdk[test,bench]")
    session.run("python", "codegen/bench/bench_generate.py")
    build_ts(session)
    worst_case(session, *session.posargs)
    session.run("node", str(TS_SDK / "bench" / "bench.mjs"), external=True)
    session.run("node", str(TS_SDK / "scripts" / "bundle-size.mjs"), external=True)


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
@timed
def release_check(session: nox.Session) -> None:
    """Build every package from a clean tree, check the artifacts, install and smoke-test each, dry-run the publish."""
    session.install(*RELEASE_TOOLS)
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


# mitos-run's runtime and dev dependencies (its pyproject), and pip to fetch its sdist.
MITOS_RUN_REQUIREMENTS = (
    "pip", "httpx>=0.27.0", "websocket-client>=1.7.0", "kubernetes>=31.0.0",
    "pytest>=8.0", "pytest-asyncio>=0.24", "websockets>=12.0",
)  # fmt: skip


@nox.session(python=PYTHON)
@timed
def compat(session: nox.Session) -> None:
    """Run mitos-run 0.3.1's own tests with its error layer replaced by mitos_errors.compat.

    Its own environment: mitos-run's suite brings pytest plugins the other sessions must not load.
    The suite mostly waits (its fake servers' timeouts and teardowns), so run_suite.py spreads it
    over more pytest-xdist workers than cores. Its environment is installed without compiling the
    bytecode: the suite imports a small part of what it installs (kubernetes is most of it).
    """
    requirements = ("./python-sdk[test]", "./tests/kit", *MITOS_RUN_REQUIREMENTS, "pytest-xdist")
    session.install(*requirements, env={"UV_COMPILE_BYTECODE": "0"})
    work = Path(session.create_tmp())
    session.run("python", "tests/mitos_run/run_suite.py", str(work), *session.posargs)


@nox.session(venv_backend="none")
@timed
def fuzz(session: nox.Session) -> None:
    """Differential fuzzing: hostile responses from a seed through both SDKs; -- --cases N, --seed S (tests/fuzz)."""
    build_ts(session)
    py(session, "python", "tests/fuzz/run.py", *session.posargs)


@nox.session(python=PYTHON, name="bench-worst", default=False)
@timed
def bench_worst(session: nox.Session) -> None:
    """Only the worst-case part of bench: both SDKs on the pathological inputs at 1, 8 and 64 KiB (contract 2a)."""
    session.install("./python-sdk[test]")
    build_ts(session)
    worst_case(session, "--worst-only", *session.posargs)
