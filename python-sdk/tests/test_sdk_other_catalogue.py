"""The hand-written runtime is catalogue-agnostic: it runs on another API's generated modules.

Renders the gateway fixture (module ``labby_errors``, base class ``ToolError``)
with the generator into a temporary directory, puts this package's
hand-written modules next to the generated ones, and uses the result.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import mitos_errors

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "codegen" / "tests" / "fixtures" / "good" / "gateway.yaml"

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("errcat") is None or not FIXTURE.exists(),
    reason="needs the errcat generator and its gateway fixture (nox -s tests installs both)",
)


@pytest.fixture(scope="module")
def labby(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("labby")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "errcat",
            "generate",
            "--catalogue",
            str(FIXTURE),
            "--out",
            str(out),
            "--target",
            "python",
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    package = out / "python-sdk" / "src" / "labby_errors"
    assert (package / "_generated" / "__init__.py").exists()
    for module in Path(mitos_errors.__file__).parent.glob("*.py"):
        shutil.copy(module, package / module.name)
    return package.parent


def _run(src: Path, code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(src), "PATH": ""},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_another_catalogue_gives_its_own_classes_and_fallbacks(labby: Path) -> None:
    out = _run(
        labby,
        """
        import sys
        import labby_errors as le
        loaded = [m for m in ("json", "re") if m in sys.modules]
        assert loaded == [], loaded
        import pickle
        err = le.error_from_body(b'{"error": {"code": "timeout", "message": "slow"}}', status=504)
        assert type(err) is le.ToolTimeoutError and isinstance(err, le.ToolError), type(err)
        assert type(err).__module__ == "labby_errors"
        bare = le.error_from_body(b"<html>", status=502)
        assert type(bare) is le.UpstreamError and bare.code == "upstream_error", bare
        unknown = le.error_from_body(b'{"error": {"code": "weird"}}', status=418)
        assert type(unknown) is le.ToolError and unknown.code == "weird"
        assert pickle.loads(pickle.dumps(err)).to_dict() == err.to_dict()
        print(le.lookup("cancelled").__name__, le.MAX_EXEC_TIMEOUT_S)
        """,
    )
    assert out == "CallCancelledError 300"


def test_a_catalogue_without_an_sdk_section_has_no_local_helpers(labby: Path) -> None:
    """The gateway catalogue declares no SDK-made codes: no helper raises another code's texts."""
    out = _run(
        labby,
        """
        import httpx
        import labby_errors as le
        from labby_errors import _generated
        helpers = ("EXEC_TIMEOUT_EXIT_CODE", "error_for_exit", "validate_timeout")
        assert [n for n in _generated.HELPERS if n in helpers] == [], _generated.HELPERS
        assert [n for n in helpers if n in le.__all__ or hasattr(le, n)] == []
        try:
            le.validate_timeout
        except AttributeError as exc:
            print(exc)
        # Transport failures are not typed: the transports pass them through unchanged.
        assert le.error_from_exception(httpx.ConnectError("refused")) is None
        """,
    )
    assert out == "module 'labby_errors' has no attribute 'validate_timeout'"
