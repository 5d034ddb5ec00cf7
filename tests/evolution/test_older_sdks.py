"""Older SDKs understand finer codes: both SDKs, generated for real, answered by a newer catalogue.

Both SDKs are generated from the current catalogue into a temporary directory
(the "older" SDKs, as users have them installed), and again from a newer
catalogue that adds codes refining current ones (two levels deep, one under
an SDK-local code) and one plain new code. Envelopes written as a server
built from the newer catalogue sends them (``error.refines`` holding each
code's chain) go through all four: the older SDKs must raise the class of the
nearest code of the chain they know, keep the code and texts as sent, and
classify as that class; the newer ones raise each code's own class, which
the classes of its chain catch; and the two languages agree on every field.
The newer Python package is also type-checked with mypy --strict, through a
user's ``except`` of a refined class.
"""

from __future__ import annotations

import base64
import copy
import importlib.util
import io
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from catalogue_strategies import to_yaml

from errcat.cli import load_model, run
from errcat.model.catalogue import Catalogue, ErrorCode
from errcat.source.load import load_catalogue
from testkit import testees
from testkit.record import FIELDS
from testkit.reference_emit import EmitInput, EmitReference

REPO = Path(__file__).resolve().parents[2]
CATALOGUE = REPO / "catalogue" / "errors.yaml"
TS_SDK = REPO / "ts-sdk"
TSC = TS_SDK / "node_modules" / "typescript" / "bin" / "tsc"
RUNTIME = REPO / "python-sdk" / "src" / "mitos_errors"


def _code(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    entry = copy.deepcopy(base)
    entry.pop("class_name", None)
    entry.pop("surfaces", None)
    entry.update(changes)
    return entry


def newer_catalogue() -> dict[str, Any]:
    """The current catalogue plus refined codes and a plain new code, as a newer server has it."""
    data: dict[str, Any] = load_catalogue(CATALOGUE).data
    codes = data["codes"]
    idle, quota, unavailable, internal = (
        codes[c] for c in ("idle_timeout", "quota_exceeded", "unavailable", "internal")
    )
    codes["sandbox_reaped"] = _code(
        idle,
        message="sandbox reaped by the scheduler",
        cause="The scheduler reaped the idle sandbox to reclaim its node.",
        refines="idle_timeout",
    )
    codes["sandbox_reaped_by_policy"] = _code(
        idle,
        message="sandbox reaped by an organization policy",
        cause="An organization policy reaped the idle sandbox early.",
        http=404,
        grpc="NotFound",
        refines="sandbox_reaped",
    )
    codes["quota_window_exhausted"] = _code(
        quota,
        message="quota window exhausted",
        cause="The organization used up its quota for the current window.",
        refines="quota_exceeded",
    )
    codes["pool_drained"] = _code(
        unavailable,
        emitted_by="server",
        message="warm pool drained",
        cause="The warm pool has no sandbox left to hand out.",
        refines="unavailable",
    )
    codes["snapshot_corrupt"] = _code(
        internal, message="snapshot corrupt", cause="The sandbox snapshot failed its checksum."
    )
    if "version" in data:  # new codes are additive: a minor release
        major, minor, _patch = data["version"].split("-")[0].split(".")
        data["version"] = f"{major}.{int(minor) + 1}.0"
    return data


NEW_CODES = (
    "sandbox_reaped",
    "sandbox_reaped_by_policy",
    "quota_window_exhausted",
    "pool_drained",
    "snapshot_corrupt",
)


def envelope(entry: ErrorCode) -> dict[str, Any]:
    """The testee request of what a server built from the newer catalogue sends for ``entry``, its chain included."""
    error: dict[str, Any] = {
        "code": entry.code,
        "message": f"{entry.message} (as sent)",
        "remediation": entry.remediation,
        "context": {f.name: f.example_value for f in entry.context},
    }
    if entry.chain:
        error["refines"] = list(entry.chain)
    body = {"base64": base64.b64encode(json.dumps({"error": error}).encode()).decode("ascii")}
    return {"id": entry.code, "op": "body", "status": entry.http, "body": body, "token": None}


def _generate(catalogue: Path, out: Path) -> None:
    err = io.StringIO()
    argv = ["generate", "--catalogue", str(catalogue), "--out", str(out)]
    status = run([*argv, "--target", "python", "--target", "typescript"], stderr=err)
    assert status == 0, err.getvalue()
    package = out / "python-sdk" / "src" / "mitos_errors"
    for module in RUNTIME.glob("*.py"):
        shutil.copy(module, package / module.name)
    (package / "py.typed").touch()
    src = out / "ts" / "src"
    shutil.copytree(TS_SDK / "src", src, ignore=shutil.ignore_patterns("generated"))
    shutil.copytree(out / "ts-sdk" / "src" / "generated", src / "generated")


@pytest.fixture(scope="module")
def sdks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if not (TSC.is_file() and shutil.which("node")):
        pytest.fail("TypeScript is not installed: run npm ci in ts-sdk first (nox -s tests does)")
    root = tmp_path_factory.mktemp("evolution")
    newer = root / "newer.yaml"
    newer.write_text(to_yaml(newer_catalogue()), encoding="utf-8")
    _generate(CATALOGUE, root / "old")
    _generate(newer, root / "new")
    config = {
        "extends": (TS_SDK / "tsconfig.base.json").as_posix(),
        "compilerOptions": {
            "module": "NodeNext",
            "moduleResolution": "NodeNext",
            "rootDir": ".",
            "outDir": "build",
        },
        "include": ["old/ts/src", "new/ts/src"],
    }
    (root / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    # ES modules, as the package's own ESM build is (NodeNext reads the nearest package.json).
    (root / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    done = subprocess.run(
        ["node", str(TSC), "-p", str(root / "tsconfig.json")],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    return {
        "root": root,
        "old": load_model(CATALOGUE, REPO),
        "new": load_model(newer, root),
        "newer_path": newer,
    }


def results(sdks: dict[str, Any], side: str) -> dict[str, list[dict[str, Any]]]:
    new: Catalogue = sdks["new"]
    requests = [envelope(new.code(code)) for code in NEW_CODES]
    root: Path = sdks["root"]
    python = testees.python_subprocess(root / side / "python-sdk" / "src", requests)
    typescript = testees.node_entry(root / "build" / side / "ts" / "src" / "index.js", requests)
    for record in python:
        assert record.get("revives") is True, (
            f"the pickled error does not come back equal: {record}"
        )
    return {"python": python, "typescript": typescript}


def same_fields(record: dict[str, Any]) -> dict[str, Any]:
    """The fields both languages must give alike (class names may differ by language)."""
    return {k: record.get(k) for k in FIELDS if k != "class"}


def nearest_known(old: Catalogue, entry: ErrorCode) -> ErrorCode | None:
    known = {c.code: c for c in old.codes}
    return next((known[c] for c in entry.chain if c in known), None)


def test_older_sdks_raise_the_nearest_class_they_know_keep_the_code_and_agree(
    sdks: dict[str, Any],
) -> None:
    old: Catalogue = sdks["old"]
    new: Catalogue = sdks["new"]
    got = results(sdks, "old")
    for index, code in enumerate(NEW_CODES):
        entry = new.code(code)
        nearest = nearest_known(old, entry)
        py, ts = got["python"][index], got["typescript"][index]
        if code == "snapshot_corrupt":
            assert nearest is None
        else:
            assert nearest is not None, code
        for lang, result, name in (
            ("python", py, nearest.class_names["python"] if nearest else old.base_class),
            ("typescript", ts, nearest.class_names["typescript"] if nearest else old.base_class),
        ):
            assert result["class"] == name, (lang, code, result["class"])
            assert result["code"] == code, (lang, result["code"])
            assert result["message"] == f"{entry.message} (as sent)"
            assert result["remediation"] == entry.remediation
            if nearest is not None:
                assert result["retryable"] == nearest.retryable, (lang, code)
                assert result["recovery"]["action"] == nearest.recovery.action, (lang, code)
                assert result["http_status"] == nearest.http, (lang, code)
                # Where the server sent no cause, the known class's catalogue cause.
                assert result["cause"] == nearest.cause, (lang, code)
            else:
                assert result["retryable"] == old.unknown.retryable
                assert result["http_status"] is None
        assert same_fields(py) == same_fields(ts), code


def test_newer_sdks_raise_each_code_s_own_class_which_its_chain_s_classes_catch(
    sdks: dict[str, Any],
) -> None:
    new: Catalogue = sdks["new"]
    got = results(sdks, "new")
    for index, code in enumerate(NEW_CODES):
        entry = new.code(code)
        py, ts = got["python"][index], got["typescript"][index]
        assert (py["class"], ts["class"]) == (
            entry.class_names["python"],
            entry.class_names["typescript"],
        ), code
        want_py = [
            entry.class_names["python"],
            *(new.code(c).class_names["python"] for c in entry.chain),
        ]
        want_ts = [
            entry.class_names["typescript"],
            *(new.code(c).class_names["typescript"] for c in entry.chain),
        ]
        assert py["lineage"] == [*want_py, new.base_class], code
        assert ts["lineage"] == [*want_ts, new.base_class], code
        assert (py["retryable"], py["cause"]) == (entry.retryable, entry.cause)
        assert same_fields(py) == same_fields(ts), code


def test_newer_sdks_send_each_refined_code_with_its_chain(sdks: dict[str, Any]) -> None:
    """A server on the newer SDKs (envelope_bytes, envelopeBytes) sends the oracle's bytes, chain included."""
    new: Catalogue = sdks["new"]
    root: Path = sdks["root"]
    inputs = [EmitInput(code, cause="refined", context={"sandbox": "sb-7"}) for code in NEW_CODES]
    requests = [{"id": given.code, "op": "emit", **given.to_json()} for given in inputs]
    python = testees.python_subprocess(root / "new" / "python-sdk" / "src", requests)
    typescript = testees.node_entry(root / "build" / "new" / "ts" / "src" / "index.js", requests)
    for given, py, ts in zip(inputs, python, typescript, strict=True):
        want = {"id": given.code, **EmitReference(new).emit(given).to_json()}
        assert py == want, given.code
        assert ts == want, given.code
        chain = json.loads(want["body"])["error"].get("refines", [])
        assert chain == list(new.code(str(given.code)).chain), given.code


CONSUMER = """
from typing import Literal, assert_type

from mitos_errors import IdleTimeoutError, SandboxReapedError, error_for_code, lookup


def reaped() -> None:
    try:
        raise error_for_code("sandbox_reaped_by_policy", "reaped")
    except IdleTimeoutError as err:
        assert_type(
            err.code, Literal["idle_timeout", "sandbox_reaped", "sandbox_reaped_by_policy"]
        )
        if isinstance(err, SandboxReapedError):
            assert_type(err.code, Literal["sandbox_reaped", "sandbox_reaped_by_policy"])


assert_type(lookup("sandbox_reaped"), type[SandboxReapedError])
assert_type(error_for_code("sandbox_reaped", "x"), SandboxReapedError)
assert_type(SandboxReapedError.http_status, Literal[410, 404])
"""


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="needs mypy")
def test_the_newer_python_package_type_checks_with_refined_classes(
    sdks: dict[str, Any],
) -> None:
    root: Path = sdks["root"]
    consumer = root / "consumer.py"
    consumer.write_text(textwrap.dedent(CONSUMER), encoding="utf-8")
    src = root / "new" / "python-sdk" / "src"
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(consumer)],
        capture_output=True,
        text=True,
        check=False,
        cwd=root,
        env={"MYPYPATH": str(src), "PATH": ""},
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:]


def test_errcat_diff_calls_the_newer_catalogue_additive(sdks: dict[str, Any]) -> None:
    out, err = io.StringIO(), io.StringIO()
    status = run(["diff", str(CATALOGUE), str(sdks["newer_path"])], stdout=out, stderr=err)
    lines = out.getvalue().splitlines()
    assert status == 0, out.getvalue() + err.getvalue()
    refined = [line for line in lines if "[additive refined-code-added]" in line]
    plain = [line for line in lines if "[additive code-added]" in line]
    assert (len(refined), len(plain)) == (4, 1), lines
    assert any("sandbox_reaped, idle_timeout" in line for line in refined), refined
