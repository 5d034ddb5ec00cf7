"""Both SDKs answer every vector in process, and give the same bytes.

``test_sdk`` judges each SDK's record (one per language of the language
record) against the vector (its ``expect``, its invariants and the checks every
error must pass, testkit/expect.py). ``test_parity`` compares the two
results field by field as canonical JSON and fails at the first byte that
differs, naming the vector.
"""

from __future__ import annotations

from typing import Any

import pytest

from errcat.model.catalogue import Catalogue
from testkit import testees
from testkit.expect import problems
from testkit.results import compare
from testkit.runs import Runs
from testkit.tally import record
from testkit.vectors import Vector, load_all

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


@pytest.mark.parametrize("language", testees.LANGUAGES)
@pytest.mark.parametrize("vector", DIRECT, ids=lambda v: v.name)
def test_sdk(
    request: pytest.FixtureRequest, language: str, vector: Vector, runs: Runs, catalogue: Catalogue
) -> None:
    testees.skip_unless_applies(language, (vector.call or {}).get("op"))
    _judge(request, language, vector, runs.direct(language)[vector.name], catalogue)


@pytest.mark.parametrize("language", testees.LANGUAGES[1:])
@pytest.mark.parametrize("vector", DIRECT, ids=lambda v: v.name)
def test_parity(request: pytest.FixtureRequest, language: str, vector: Vector, runs: Runs) -> None:
    """Each SDK gives the first one's record (Python's), byte for byte."""
    testees.skip_unless_applies(language, (vector.call or {}).get("op"))
    first = testees.LANGUAGES[0]
    python, other = runs.direct(first)[vector.name], runs.direct(language)[vector.name]
    if python.get("body_sha256") != other.get("body_sha256"):
        pytest.fail(f"the testees expanded the body of {vector.name} differently", pytrace=False)
    why = compare(vector, python, other)
    record(request.config, "parity", vector.name, why is None)
    assert why is None, f"{first} and {language} differ on vector {vector.name}: {why}"
