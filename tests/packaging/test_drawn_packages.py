"""Catalogues of any API become packages that build, install, import, type-check and agree.

For catalogues drawn by the generated-catalogue strategies
(``codegen/tests/catalogue_strategies.py``, with and without the optional
sections), ``python -m errcat generate`` writes both packages, and then, as a
maintainer and a user of another API would:

* Python: ``python -m build --wheel``; the wheel installed in a fresh
  virtual environment; imported; a small consumer passes ``mypy --strict``;
* TypeScript: ``npm install`` (its ``prepare`` builds it) and ``npm pack``;
  the tarball installed in a fresh folder; loaded with ``require`` and
  ``import``; a small consumer passes ``tsc`` strict;
* both installed packages answer the same responses through the test
  kit's testees (``python -m testkit.testee``, ``testee.cjs``) with the
  catalogue's class, and the same code and texts.

Each catalogue costs about a minute, so the default run draws two;
``ERRCAT_FUZZ_EXAMPLES=N`` draws 2N. ``python tests/packaging/test_drawn_packages.py
CATALOGUE`` runs the same steps on one catalogue and prints how long each took and
what the packages weigh.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "codegen" / "tests"))
sys.path.insert(0, str(REPO / "tests" / "kit"))

from catalogue_strategies import FUZZ_SCALE, catalogues, to_yaml  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402

from errcat.cli import load_model  # noqa: E402
from errcat.model.catalogue import Catalogue  # noqa: E402
from testkit import testees  # noqa: E402

NPM = shutil.which("npm") or "npm"
UV = shutil.which("uv") or str(Path(sys.executable).parent / "uv")
QUIET = ("--no-audit", "--no-fund", "--loglevel=error")
FIELDS = ("code", "message", "cause", "remediation", "status", "context", "retryable", "origin")
"""What both packages must give alike for a response (the class is the catalogue's per language)."""

pytestmark = pytest.mark.skipif(
    shutil.which("npm") is None, reason="npm is needed to build the TypeScript package"
)


def sh(*argv: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    """Run a command; fail the test with its output when it fails."""
    done = subprocess.run(
        [str(a) for a in argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        env={**os.environ, **(env or {})},
    )
    assert done.returncode == 0, (
        f"{argv} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


def generate(catalogue: Path, out: Path) -> Catalogue:
    sh(sys.executable, "-m", "errcat", "generate", "--catalogue", catalogue, "--out", out)
    sh(sys.executable, "-m", "errcat", "check", "--catalogue", catalogue, "--out", out)
    return load_model(catalogue, out)


def python_package(cat: Catalogue, out: Path, work: Path) -> dict[str, Any]:
    """Build the wheel, install it in a fresh venv, import it, type-check a consumer."""
    module = cat.packages["python"]["module"]
    dist = work / "dist"
    sh(
        sys.executable,
        "-m",
        "build",
        "--wheel",
        "--installer",
        "uv",
        "--outdir",
        dist,
        out / "python-sdk",
    )
    (wheel,) = dist.glob("*.whl")
    venv = work / "venv"
    sh(UV, "venv", "--quiet", "--python", sys.executable, venv)
    python = venv / "bin" / "python"
    sh(UV, "pip", "install", "--quiet", "--python", python, wheel)
    sh(python, "-c", f"import {module}, sys; assert {module}.__file__.startswith(sys.prefix)")
    consumer = work / "consumer.py"
    code = cat.codes[0]
    consumer.write_text(
        f"import {module}\n"
        f"from {module} import {cat.base_class}, error_from_body, lookup\n\n\n"
        "def classify(body: bytes, status: int) -> str:\n"
        "    err = error_from_body(body, status=status)\n"
        f"    assert isinstance(err, {cat.base_class})\n"
        "    return err.code + err.remediation\n\n\n"
        f"cls: type[{cat.base_class}] = lookup({code.code!r})\n"
        f"version: str = {module}.__version__\n"
        "print(classify(b'{}', 500), cls.__name__, version)\n",
        encoding="utf-8",
    )
    sh(
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--no-incremental",
        "--python-executable",
        python,
        consumer,
        cwd=work,
    )
    sh(python, consumer, cwd=work)
    return {"python": python, "wheel": wheel}


MAX_LINE = 8192
"""The longest line a built file may have (ts-sdk/tests/dual.test.ts holds the same bound)."""


def typescript_package(cat: Catalogue, out: Path, work: Path) -> dict[str, Any]:
    """``npm install`` and ``npm pack`` the package; install the tarball in a fresh folder; load and type-check it."""
    name = cat.packages["typescript"]["package"]
    sdk = out / "ts-sdk"
    sh(NPM, "install", *QUIET, cwd=sdk)  # prepare builds it
    sh(NPM, "pack", *QUIET, "--pack-destination", work, cwd=sdk)
    (tarball,) = work.glob("*.tgz")
    project = work / "consumer"
    project.mkdir()
    (project / "package.json").write_text(
        '{"name": "consumer", "private": true, "type": "module"}\n'
    )
    sh(NPM, "install", *QUIET, tarball, cwd=project)
    entry = project / "node_modules" / name / "dist" / "cjs" / "index.js"
    # The built files are minified: every exported function and class keeps its name (but the
    # base class, the runtime's class under the catalogue's name), and every line stays short
    # (Node prints an uncaught error's source line, and a pipe cuts a long one short).
    names = (
        f"for (const [k, v] of Object.entries(m)) if (typeof v === 'function' && v.name !== k"
        f" && k !== {json.dumps(cat.base_class)}) throw new Error(`${{k}} is named ${{v.name}}`);"
    )
    sh(
        "node",
        "-e",
        f"const m = require({json.dumps(name)}); if (!m.errorFromBody) process.exit(1); {names}",
        cwd=project,
    )
    sh(
        "node",
        "--input-type=module",
        "-e",
        f"import * as m from {json.dumps(name)}; m.lookup('x'); {names}",
        cwd=project,
    )
    for built in (project / "node_modules" / name / "dist").rglob("*.js"):
        longest = max(len(line) for line in built.read_text(encoding="utf-8").splitlines())
        assert longest <= MAX_LINE, (built, longest)
    (project / "consumer.ts").write_text(
        f"import {{ {cat.base_class}, errorFromBody, lookup }} from {json.dumps(name)};\n\n"
        'const err = errorFromBody("{}", { status: 500 });\n'
        f"const isBase: boolean = err instanceof {cat.base_class};\n"
        "const text: string = err.code + err.remediation;\n"
        f"const cls: typeof {cat.base_class} = lookup({json.dumps(cat.codes[0].code)});\n"
        "console.log(isBase, text, cls.name);\n",
        encoding="utf-8",
    )
    config = {
        "compilerOptions": {
            "strict": True,
            "module": "NodeNext",
            "moduleResolution": "NodeNext",
            "target": "ES2022",
            "lib": ["ES2022", "DOM"],
            "noEmit": True,
            "exactOptionalPropertyTypes": True,
            "noUncheckedIndexedAccess": True,
            "types": [],
        },
        "files": ["consumer.ts"],
    }
    (project / "tsconfig.json").write_text(json.dumps(config))
    sh(
        "node",
        sdk / "node_modules" / "typescript" / "bin" / "tsc",
        "-p",
        project / "tsconfig.json",
        cwd=project,
    )
    return {"entry": entry, "tarball": tarball}


def requests(cat: Catalogue) -> list[dict[str, Any]]:
    """Responses to answer: an envelope of each code, an unknown code, and bodies that are not JSON."""
    out: list[dict[str, Any]] = []
    for code in cat.codes[:12]:
        envelope = {
            "error": {"code": code.code, "message": f"m {code.code}", "remediation": "do x"}
        }
        out.append({"op": "body", "status": code.http, "body": {"text": json.dumps(envelope)}})
        out.append(
            {
                "op": "body",
                "status": code.http,
                "body": {"text": json.dumps({"error": {"code": code.code}})},
            }
        )
        out.append({"op": "error_for_code", "code": code.code, "message": "local"})
    for status in (400, 404, 418, 429, 500, 503, 599):
        out.append({"op": "body", "status": status, "body": {"text": "<html>proxy</html>"}})
    out.append(
        {"op": "body", "status": 500, "body": {"text": '{"error": {"code": "not_in_it_at_all"}}'}}
    )
    return [{"id": str(i), **r} for i, r in enumerate(out)]


def python_answers(
    cat: Catalogue, python: Path, asked: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The installed Python package's answers, from the test kit's testee run in its venv."""
    module = cat.packages["python"]["module"]
    # The testee reads the SDK's base class as AgentRunError: give it the package under that name too.
    driver = (
        "import importlib, sys, types\n"
        "from testkit import testee\n"
        f"pkg = importlib.import_module({module!r})\n"
        "class Sdk(types.ModuleType):\n"
        "    def __getattr__(self, name):\n"
        "        return getattr(pkg, name)\n"
        f"sdk = Sdk({module!r})\n"
        f"sdk.AgentRunError = pkg.{cat.base_class}\n"
        "testee._sdk = lambda: sdk\n"
        "sys.exit(testee.main([]))\n"
    )
    done = subprocess.run(
        [str(python), "-c", driver],
        input="".join(json.dumps(r) + "\n" for r in asked),
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO / "tests" / "kit")},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def agree(
    cat: Catalogue,
    python: list[dict[str, Any]],
    typescript: list[dict[str, Any]],
    asked: list[dict[str, Any]],
) -> None:
    classes = {c.code: c.class_names for c in cat.codes}
    for request, py, ts in zip(asked, python, typescript, strict=True):
        assert "threw" not in py, (request, py)
        assert "threw" not in ts, (request, ts)
        assert {k: py.get(k) for k in FIELDS} == {k: ts.get(k) for k in FIELDS}, request
        names = classes.get(py["code"])
        if names is not None:
            assert (py["class"], ts["class"]) == (names["python"], names["typescript"]), request
        else:
            assert py["class"] == cat.base_class, request


def pipeline(catalogue: Path, work: Path) -> dict[str, float]:
    """Generate, build, install and check both packages of ``catalogue``; return how long each step took."""
    times: dict[str, float] = {}
    start = time.perf_counter()
    out = work / "repo"
    out.mkdir()
    shutil.copy(catalogue, out / "catalogue.yaml")
    cat = generate(out / "catalogue.yaml", out)
    times["generate"] = time.perf_counter() - start
    mark = time.perf_counter()
    py = python_package(cat, out, work / "py")
    times["python"] = time.perf_counter() - mark
    mark = time.perf_counter()
    ts = typescript_package(cat, out, work / "ts")
    times["typescript"] = time.perf_counter() - mark
    asked = requests(cat)
    with testees.NodeTestee(ts["entry"]) as node:
        typescript = node.run(asked)
    agree(cat, python_answers(cat, py["python"], asked), typescript, asked)
    times["total"] = time.perf_counter() - start
    times["wheel_kB"] = py["wheel"].stat().st_size / 1000
    times["tgz_kB"] = ts["tarball"].stat().st_size / 1000
    return times


@settings(
    max_examples=2 * FUZZ_SCALE,
    deadline=None,
    database=None,
    phases=(
        Phase.generate,
    ),  # a failing catalogue is printed as drawn: shrinking costs minutes a step
    suppress_health_check=list(HealthCheck),
)
@given(data=catalogues())
def test_a_drawn_catalogue_gives_two_installable_packages_that_agree(data: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory(prefix="errcat-packages-") as tmp:
        work = Path(tmp)
        (work / "in.yaml").write_text(to_yaml(data), encoding="utf-8")
        for folder in ("py", "ts"):
            (work / folder).mkdir()
        pipeline(work / "in.yaml", work)


def main(argv: list[str]) -> int:
    """Run the steps on one catalogue and print the time each took and the packages' sizes."""
    with tempfile.TemporaryDirectory(prefix="errcat-measure-") as tmp:
        work = Path(tmp)
        for folder in ("py", "ts"):
            (work / folder).mkdir()
        measured = pipeline(Path(argv[0]).resolve(), work)
    print(yaml.safe_dump({k: round(v, 1) for k, v in measured.items()}, sort_keys=False), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
