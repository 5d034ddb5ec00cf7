"""Both SDKs' testees on the same fuzz cases: Python in process, TypeScript in one long-lived ``node``.

A result is a record (:mod:`testkit.record`: the public fields, the text
forms, and ``before``/``after``, the clock read around the call), or
``{"threw": ...}``.
"""

from __future__ import annotations

from typing import Any

from testkit.fuzz.cases import Case, body_of, request
from testkit.testee import PythonTestee
from testkit.testees import NodeTestee

Result = dict[str, Any]
_PYTHON: list[PythonTestee] = []


def run_python(case: Case, body: bytes | str) -> Result:
    """``mitos_errors.error_from_body`` on one case, through the Python testee."""
    if not _PYTHON:
        _PYTHON.append(PythonTestee())
    return _PYTHON[0].answer(request(case, body))


def run_both(node: NodeTestee, cases: list[Case]) -> list[tuple[Result, Result]]:
    """Every case through both SDKs; Node works on the batch while Python does."""
    rendered = [body_of(c) for c in cases]
    node.send([request(c, b) for c, b in zip(cases, rendered, strict=True)])
    python = [run_python(c, b) for c, b in zip(cases, rendered, strict=True)]
    return list(zip(python, node.receive(len(cases)), strict=True))
