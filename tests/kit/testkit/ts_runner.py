"""Run vectors through the TypeScript SDK: one ``node`` process for all of them.

:func:`run_direct` hands every vector to ``run_ts.cjs direct`` (``errorFromBody``)
and :func:`run_http` every request to ``run_ts.cjs http`` (``errorFromResponse``
over ``fetch``); both return results normalized to Python field names.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from testkit.paths import TS_RUNNER, node_binary, typescript_entry
from testkit.results import from_typescript
from testkit.vectors import HttpRequest, Vector

Json = Any


class NodeRunError(RuntimeError):
    """The Node runner exited non-zero or printed something that is not a result."""


def _run(mode: str, plan: dict[str, Json], timeout_s: float) -> list[dict[str, Json]]:
    proc = subprocess.run(
        [node_binary(), str(TS_RUNNER), mode],
        input=json.dumps(plan),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout_s,
        check=False,
    )
    if proc.returncode != 0:
        raise NodeRunError(
            f"node {TS_RUNNER.name} {mode} exited {proc.returncode}:\n{proc.stderr[-4000:]}"
        )
    records = []
    for line in proc.stdout.splitlines():
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise NodeRunError(
                f"node {TS_RUNNER.name} printed a line that is not JSON: {line[:200]!r}"
            ) from exc
    return records


def _case(vector: Vector) -> dict[str, Json]:
    return {
        "name": vector.name,
        "status": vector.status,
        "headers": vector.headers_dict(),
        "token": vector.token,
        "body": vector.body,
    }


def run_direct(
    vectors: Iterable[Vector], class_names: dict[str, str] | None = None, timeout_s: float = 120
) -> dict[str, dict[str, Json]]:
    """``errorFromBody`` on every vector in one Node process, keyed by vector name."""
    entry: Path = typescript_entry()
    plan = {"entry": str(entry), "cases": [_case(v) for v in vectors]}
    records = _run("direct", plan, timeout_s)
    return {r["vector"]: from_typescript(r, class_names) for r in records}


def run_http(
    base_url: str,
    requests: list[HttpRequest],
    class_names: dict[str, str] | None = None,
    timeout_s: float = 120,
    per_request_timeout_s: float = 20,
) -> dict[str, dict[str, Json]]:
    """``errorFromResponse`` over fetch for each request, keyed by its ``case``."""
    entry = typescript_entry()
    plan = {
        "entry": str(entry),
        "base_url": base_url,
        "timeout_ms": int(per_request_timeout_s * 1000),
        "concurrency": 4,
        "cases": [
            {"name": key, "path": path, "token": token, "body_read_timeout_ms": deadline_ms}
            for key, path, token, deadline_ms in requests
        ],
    }
    records = _run("http", plan, timeout_s)
    return {r["vector"]: from_typescript(r, class_names) for r in records}
