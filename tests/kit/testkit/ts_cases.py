"""Run cases through the compiled TypeScript SDK with a ``run_cases.cjs`` runner, in one node process."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from testkit import paths


def run_ts_cases(script: Path, cases: list[Any]) -> list[dict[str, Any]]:
    """One record per case, in order, from ``node script <entry>`` given the cases as JSON.

    Skips when the TypeScript side is left out of the run (``ERRCAT_SKIP_TS=1``) and fails,
    never skips, when node or the built SDK is missing.
    """
    if paths.skip_typescript():
        pytest.skip(f"{paths.SKIP_TS_ENV}=1: the TypeScript SDK is left out of this run")
    try:
        node, entry = paths.node_binary(), paths.typescript_entry()
    except paths.TypeScriptUnavailableError as exc:
        pytest.fail(str(exc), pytrace=False)
    proc = subprocess.run(
        [node, str(script), str(entry)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, f"{script.name} failed: {proc.stderr[-2000:]}"
    records = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert len(records) == len(cases)
    return records
