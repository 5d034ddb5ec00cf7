"""Smoke tests of an installed Python artifact, run by ``nox -s release-check``.

Each runs in a fresh environment holding only the artifact under test (a
wheel or an sdist) and what it depends on, from a directory outside the
source tree, so what is imported is what was installed::

    python smoke.py errcat TREE           # TREE: the clean tree the artifact was built from
    python smoke.py mitos-errors          # installed without extras: no httpx
    python smoke.py mitos-errors-httpx    # installed with the httpx extra

It prints one line per check and exits 1 at the first that fails.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.resources
import importlib.util
import subprocess
import sys
from pathlib import Path

RATE_LIMITED = (
    b'{"error":{"code":"rate_limited","message":"slow down","context":{"retry_after_ms":1200}}}'
)


def ok(what: str) -> None:
    print(f"ok: {what}")


def fail(what: str) -> None:
    print(f"FAILED: {what}")
    raise SystemExit(1)


def check_errcat(tree: Path) -> None:
    """The installed generator validates the catalogue and finds every generated file of the tree current."""
    errcat = importlib.import_module("errcat")
    if Path(errcat.__file__).resolve().is_relative_to(tree.resolve()):
        fail(f"errcat imported from the source tree ({errcat.__file__}), not the install")
    shipped = importlib.resources.files("errcat") / "catalogue.schema.json"
    if shipped.read_bytes() != (tree / "schemas" / "catalogue.schema.json").read_bytes():
        fail("the packaged meta-schema differs from schemas/catalogue.schema.json")
    ok("the wheel ships the meta-schema of schemas/")
    for args in (["validate"], ["check"]):
        done = subprocess.run([sys.executable, "-m", "errcat", *args], cwd=tree, check=False)
        if done.returncode != 0:
            fail(f"errcat {args[0]} exited {done.returncode}")
        ok(f"errcat {args[0]} of the tree's catalogue")
    if importlib.metadata.metadata("errcat")["License-Expression"] != "Apache-2.0":
        fail("errcat's metadata has no Apache-2.0 License-Expression")
    ok("License-Expression: Apache-2.0")


def check_sdk(with_httpx: bool) -> None:
    """error_from_body works with the standard library alone; the httpx helpers need the extra."""
    import mitos_errors

    err = mitos_errors.error_from_body(RATE_LIMITED, status=429, token="tok3n")
    if not isinstance(err, mitos_errors.RateLimitedError) or err.retry_after_ms != 1200:
        fail(f"error_from_body gave {err!r}")
    ok("error_from_body gives RateLimitedError with its retry delay")
    if importlib.metadata.version("mitos-errors") != mitos_errors.__version__:
        fail("the distribution's version is not mitos_errors.__version__")
    ok(f"version {mitos_errors.__version__}")
    if with_httpx:
        import httpx

        response = httpx.Response(
            429, content=RATE_LIMITED, request=httpx.Request("GET", "http://127.0.0.1/")
        )
        try:
            mitos_errors.raise_for_status(response)
        except mitos_errors.RateLimitedError:
            ok("raise_for_status raises RateLimitedError from an httpx.Response")
        else:
            fail("raise_for_status did not raise")
        return
    if importlib.util.find_spec("httpx") is not None:
        fail("httpx is installed without the httpx extra")
    ok("installed without httpx")
    try:
        mitos_errors.raise_for_status  # noqa: B018  (the lazy import is the point)
    except ModuleNotFoundError as exc:
        if exc.name != "httpx":
            fail(f"raise_for_status without httpx raised {exc!r}")
        ok("raise_for_status without httpx raises ModuleNotFoundError for httpx")
    else:
        fail("raise_for_status loaded without httpx")


def main(argv: list[str]) -> None:
    if len(argv) == 2 and argv[0] == "errcat":
        check_errcat(Path(argv[1]))
    elif argv in (["mitos-errors"], ["mitos-errors-httpx"]):
        check_sdk(with_httpx=argv[0].endswith("httpx"))
    else:
        print(__doc__, file=sys.stderr)
        raise SystemExit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
