"""Both SDKs run every vector in process, and give the same bytes.

``test_python_sdk`` and ``test_typescript_sdk`` judge each SDK's result
against the vector (its ``expect``, its invariants and the checks every
error must pass, conformance_kit/expect.py). ``test_parity`` compares the two
results field by field as canonical JSON and fails at the first byte that
differs, naming the vector.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance_kit.expect import problems
from conformance_kit.py_runner import body_sha256
from conformance_kit.results import compare
from conformance_kit.tally import record
from conformance_kit.vectors import Vector, load_all
from errcat.model.catalogue import Catalogue

DIRECT = [v for v in load_all() if v.direct]
Results = dict[str, dict[str, Any]]


def _judge(
    request: pytest.FixtureRequest,
    kind: str,
    vector: Vector,
    result: dict[str, Any],
    cat: Catalogue,
) -> None:
    found = problems(vector, result, cat)
    record(request.config, kind, vector.name, not found)
    assert not found, f"{kind} SDK fails vector {vector.name} ({vector.source}):\n  " + "\n  ".join(
        found
    )


@pytest.mark.parametrize("vector", DIRECT, ids=lambda v: v.name)
def test_python_sdk(
    request: pytest.FixtureRequest, vector: Vector, python_results: Results, catalogue: Catalogue
) -> None:
    _judge(request, "python", vector, python_results[vector.name], catalogue)


@pytest.mark.parametrize("vector", DIRECT, ids=lambda v: v.name)
def test_typescript_sdk(
    request: pytest.FixtureRequest,
    vector: Vector,
    typescript_results: Results,
    catalogue: Catalogue,
) -> None:
    _judge(request, "typescript", vector, typescript_results[vector.name], catalogue)


@pytest.mark.parametrize("vector", DIRECT, ids=lambda v: v.name)
def test_parity(
    request: pytest.FixtureRequest,
    vector: Vector,
    python_results: Results,
    typescript_results: Results,
) -> None:
    python, typescript = python_results[vector.name], typescript_results[vector.name]
    want = body_sha256(vector)
    if want is not None and typescript.get("body_sha256") not in (None, want):
        pytest.fail(f"the runners expanded the body of {vector.name} differently", pytrace=False)
    why = compare(vector, python, typescript)
    record(request.config, "parity", vector.name, why is None)
    assert why is None, f"python and typescript differ on vector {vector.name}: {why}"
