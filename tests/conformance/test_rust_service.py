"""The Rust crate's envelopes, served by axum on 127.0.0.1, read back alike by the Python and TypeScript SDKs.

``tests/rust/src/service.rs`` answers ``/emit/N`` with emit vector N through
the crate's writer and ``response_of``, and ``/error/NAME`` with an
``ApiError`` through ``IntoResponse``. Each SDK reads each response over real
HTTP (the testees' ``response`` request); both must give the same record, the
code and status the envelope says, and an internal error must not show its
original text. The service is bounded (a request cap and a lifetime) and
stopped when the test ends.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from testkit import cargo, emit_vectors, testees
from testkit.record import FIELDS
from testkit.testees import RUST_TESTEE

VECTORS = emit_vectors.load()
NAMED = ("internal", "secret-internal", "rate-limited", "not-found")
READERS = [lang for lang in testees.LANGUAGES if testees.applies(lang, "response")]
LIFETIME_S = 300


@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    exe = shutil.which("cargo")
    if exe is None:
        pytest.fail("cargo is not on PATH: install Rust to run the Rust test service")
    limit = (len(VECTORS) + len(NAMED)) * len(READERS)
    command = [exe, "run", "--quiet", "--manifest-path", str(RUST_TESTEE), "--bin", "service"]
    proc = subprocess.Popen(
        [*command, "--", "--max-requests", str(limit), "--lifetime-s", str(LIFETIME_S)],
        stdout=subprocess.PIPE,
        text=True,
        env=cargo.environment(),
    )
    try:
        assert proc.stdout is not None
        base = proc.stdout.readline().strip()
        assert base.startswith("http://127.0.0.1:"), base
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def answers(service: str, class_names: dict[str, str]) -> dict[str, dict[str, dict[str, Any]]]:
    requests = [
        {"id": v.name, "op": "response", "url": f"{service}/emit/{i}", "token": v.input.token}
        for i, v in enumerate(VECTORS)
    ]
    requests += [
        {"id": name, "op": "response", "url": f"{service}/error/{name}", "token": None}
        for name in NAMED
    ]
    return {
        lang: testees.answers_by_id(testees.run(lang, requests, class_names=class_names))
        for lang in READERS
    }


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v.name)
def test_both_sdks_read_the_crates_envelope_to_the_same_error(
    vector: emit_vectors.EmitVector, answers: dict[str, dict[str, dict[str, Any]]]
) -> None:
    written = json.loads(vector.expected.body)["error"]
    records = [answers[lang][vector.name] for lang in READERS]
    for record in records:
        assert "threw" not in record, record
        assert (record["code"], record["status"]) == (written["code"], vector.expected.status)
        assert record["message"] == written["message"]
        if "request_id" in written:
            assert record["request_id"] == written["request_id"]
    first, *others = records
    for other in others:
        assert {k: other[k] for k in FIELDS} == {k: first[k] for k in FIELDS}


def test_an_internal_error_never_shows_its_original_text(
    answers: dict[str, dict[str, dict[str, Any]]],
) -> None:
    for lang in READERS:
        secret = answers[lang]["secret-internal"]
        plain = answers[lang]["internal"]
        assert (secret["code"], secret["status"]) == ("internal", 500)
        assert "hunter2" not in json.dumps(secret)
        assert secret["cause"] == plain["cause"]  # the catalogue's, not the original's
        assert plain["request_id"] == "req-internal-1"


def test_into_response_carries_the_retry_delay_and_the_sanitized_context(
    answers: dict[str, dict[str, dict[str, Any]]],
) -> None:
    for lang in READERS:
        limited = answers[lang]["rate-limited"]
        assert (limited["code"], limited["status"], limited["retry_after_ms"]) == (
            "rate_limited",
            429,
            1500,
        )
        assert limited["cause"] == "slow down: Bearer [REDACTED]"
        assert limited["request_id"] == "req-42"
        found = answers[lang]["not-found"]
        assert found["context"] == {"sandbox": "sb-1 tok-9f8e7d6c"}
        assert found["request_id"] == "req 7 with space"  # the body's: no header for it
