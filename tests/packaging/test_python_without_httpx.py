"""The Python SDK without its ``httpx`` extra: everything but the httpx integration works.

httpx is made unimportable in a fresh interpreter (``sys.modules["httpx"] =
None``, which is what an environment without it looks like to ``import``);
``nox -s release-check`` does the same with a wheel installed without the
extra.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import sys
    sys.modules["httpx"] = None  # as if httpx were not installed
    import mitos_errors

    err = mitos_errors.error_from_body(b'{"error":{"code":"not_found"}}', status=404, token="t0ken")
    assert isinstance(err, mitos_errors.NotFoundError), err
    assert isinstance(mitos_errors.error_for_code("internal", "boom"), mitos_errors.InternalError)
    assert mitos_errors.lookup("rate_limited") is mitos_errors.RateLimitedError
    assert mitos_errors.error_for_exit(124, timeout_s=1) is not None
    assert mitos_errors.sanitize_text("a\\u200bb") == "ab"
    try:
        mitos_errors.raise_for_status
    except ModuleNotFoundError as exc:
        print("needs", exc.name)
    """
)


def test_everything_but_the_httpx_integration_works_without_httpx() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "needs httpx"
