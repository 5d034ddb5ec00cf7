"""Both SDKs' public APIs on the same cases: Python in process, TypeScript in one long-lived ``node``.

A result is a dict of the public fields under the Python names, the string
forms (``str``, ``json``; Python's ``repr``, TypeScript's ``stack``), and
``before``/``after``, the clock (ms since the epoch) read around the call, or
``{"threw": ...}``.
"""

from __future__ import annotations

import json
import subprocess
import time
import traceback
from pathlib import Path
from typing import IO, Any

import mitos_errors
from testkit.fuzz.cases import Case, body_of, wire
from testkit.paths import REPO

Result = dict[str, Any]
WORKER = REPO / "tests" / "fuzz" / "ts_worker.cjs"


def _describe(err: Any) -> Result:
    recovery = err.recovery
    cls = type(err)
    return {
        "class": cls.__name__,
        "code": err.code,
        "message": err.message,
        "cause": err.cause,
        "remediation": err.remediation,
        "status": err.status,
        "context": dict(err.context),
        "retryable": err.retryable,
        "retry_after_ms": err.retry_after_ms,
        "request_id": err.request_id,
        "recovery": {
            "action": recovery.action,
            "same_arguments": recovery.same_arguments,
            "guidance": recovery.guidance,
        },
        "side_effects": err.side_effects,
        "is_auth_failure": err.is_auth_failure,
        "is_cancelled": err.is_cancelled,
        "http_status": cls.http_status,
        "grpc_status": cls.grpc_status,
        "base_instance": isinstance(err, mitos_errors.AgentRunError),
        "str": str(err),
        "json": err.to_json(),
        "repr": repr(err),
    }


def run_python(case: Case, body: bytes | str) -> Result:
    """``mitos_errors.error_from_body`` on one case."""
    try:
        before = int(time.time() * 1000)
        err = mitos_errors.error_from_body(
            body, status=case["status"], headers=dict(case["headers"]), token=case["token"]
        )
        after = int(time.time() * 1000)
        return {**_describe(err), "before": before, "after": after}
    except Exception as exc:  # reported as a finding, never raised
        return {"threw": "".join(traceback.format_exception(exc))}


class NodeWorker:
    """One ``node`` process running tests/fuzz/ts_worker.cjs over the built ts-sdk."""

    def __init__(self, entry: Path, node: str = "node") -> None:
        self._proc = subprocess.Popen(
            [node, str(WORKER), str(entry)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="surrogatepass",
            bufsize=1 << 20,
        )

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        assert self._proc.stdin is not None
        assert self._proc.stdout is not None
        return self._proc.stdin, self._proc.stdout

    def send(self, wires: list[dict[str, Any]]) -> None:
        """Hand the worker one batch (it starts at once; :meth:`receive` collects it)."""
        stdin, _ = self._pipes()
        stdin.write(json.dumps(wires) + "\n")
        stdin.flush()

    def receive(self) -> list[Result]:
        """The results of the batch last sent, in order."""
        _, stdout = self._pipes()
        line = stdout.readline()
        if not line:
            raise RuntimeError(f"the node worker exited (status {self._proc.wait()})")
        results: list[Result] = json.loads(line)
        return results

    def run(self, cases: list[Case]) -> list[Result]:
        """Send and receive one batch."""
        self.send([wire(c, body_of(c)) for c in cases])
        return self.receive()

    def close(self) -> None:
        """End the worker (closing its input ends its loop) and wait for it."""
        stdin, _ = self._pipes()
        stdin.close()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


def run_both(worker: NodeWorker, cases: list[Case]) -> list[tuple[Result, Result]]:
    """Every case through both SDKs; Node works on the batch while Python does."""
    rendered = [body_of(c) for c in cases]
    worker.send([wire(c, b) for c, b in zip(cases, rendered, strict=True)])
    python = [run_python(c, b) for c, b in zip(cases, rendered, strict=True)]
    return list(zip(python, worker.receive(), strict=True))
