"""Every writer of the envelope sends every emit vector's bytes, and every SDK reads them back alike.

Each SDK's writer (``envelope_bytes``, ``envelopeBytes``) answers the ``emit``
request of the one testee protocol for every vector of
``conformance/vectors/emit.json``; its status, headers and body must be the
vector's, byte for byte. Then every SDK reads every body back
(``error_from_body`` with the written status and headers and the request's
token): the records agree with each other and with the oracle
(``testkit.reference``), and the texts written arrive as written. The Go and
Rust writers run the same vectors in their own test suites.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from errcat.model.catalogue import Catalogue
from testkit import emit_vectors, testees
from testkit.emit_vectors import EmitVector
from testkit.reference import Reference
from testkit.results import canonical, first_difference
from testkit.tally import record

VECTORS = emit_vectors.load()
Answers = dict[str, dict[str, dict[str, Any]]]
ORACLE_FIELDS = ("code", "message", "cause", "remediation", "status", "context", "request_id")


def emit_request(vector: EmitVector) -> dict[str, Any]:
    """The testee's ``emit`` request of a vector: its input, as is."""
    return {"id": vector.name, "op": "emit", **vector.input.to_json()}


def read_request(vector: EmitVector) -> dict[str, Any]:
    """The testee's ``body`` request that reads the vector's bytes back, with the request's token."""
    expected = vector.expected
    return {
        "id": vector.name,
        "op": "body",
        "status": expected.status,
        "headers": [list(h) for h in expected.headers],
        "token": vector.input.token,
        "body": {"text": expected.body},
    }


@pytest.fixture(scope="module")
def written() -> Answers:
    """Each language's answer to every vector's ``emit`` request."""
    requests = [emit_request(v) for v in VECTORS]
    return {lang: testees.answers_by_id(testees.run(lang, requests)) for lang in testees.LANGUAGES}


@pytest.fixture(scope="module")
def read_back(class_names: dict[str, str]) -> Answers:
    """Each language's record of every vector's body, class names as Python's."""
    requests = [read_request(v) for v in VECTORS]
    return {
        lang: testees.answers_by_id(testees.run(lang, requests, class_names=class_names))
        for lang in testees.LANGUAGES
    }


@pytest.mark.parametrize("language", testees.LANGUAGES)
@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v.name)
def test_the_writer_sends_the_vector(
    request: pytest.FixtureRequest, language: str, vector: EmitVector, written: Answers
) -> None:
    answer = dict(written[language][vector.name])
    answer.pop("id", None)
    expected = vector.expected.to_json()
    passed = answer == expected
    record(request.config, f"emit-{language}", vector.name, passed)
    if not passed and "body" in answer:
        at = first_difference(answer["body"].encode("latin-1"), expected["body"].encode())
        pytest.fail(
            f"{language} writes {vector.name} differently (body from byte {at}):\n"
            f"  got      {json.dumps(answer)[:600]}\n  expected {json.dumps(expected)[:600]}",
            pytrace=False,
        )
    assert passed, f"{language} answers {vector.name} with {answer}"


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v.name)
def test_every_sdk_reads_the_bytes_back_to_the_same_error(
    request: pytest.FixtureRequest, vector: EmitVector, read_back: Answers, catalogue: Catalogue
) -> None:
    records = {lang: read_back[lang][vector.name] for lang in testees.LANGUAGES}
    first, *others = testees.LANGUAGES
    for lang in others:
        left, right = canonical(records[first]), canonical(records[lang])
        assert left == right, (
            f"{first} and {lang} read {vector.name} differently from byte"
            f" {first_difference(left, right)}:\n  {left[:600]!r}\n  {right[:600]!r}"
        )
    expected = vector.expected
    oracle = Reference(catalogue).error_from_body(
        expected.body, status=expected.status, headers=expected.headers, token=vector.input.token
    )
    mine = records[first]
    assert {k: mine[k] for k in ORACLE_FIELDS} == {k: oracle[k] for k in ORACLE_FIELDS}
    assert mine["retry_after_ms"] == oracle["retry_after_ms"]
    # What the writer wrote arrives as written: a reader's sanitizer changes none of it.
    sent = json.loads(expected.body)["error"]
    for name in ("code", "message", "cause", "remediation", "request_id"):
        if name in sent:
            assert mine[name] == sent[name], f"{name} of {vector.name} changes when read"
    record(request.config, "emit-parity", vector.name, True)
