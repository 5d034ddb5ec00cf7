"""The two testees answer one protocol with one record: the same members, on every kind of request.

Every request kind of testee.cjs and testkit.testee is sent to both SDKs once;
each answer that is an error must carry exactly the members of
testkit.record (``FIELDS`` and ``EXTRAS``), label its texts alike, and agree
across the languages on every compared field; the answers that are not errors
(none, a refusal, a sanitized text) must be the same kind in both.
"""

from __future__ import annotations

from typing import Any

import pytest

from testkit import testees
from testkit.record import EXTRAS, FIELDS, texts_of
from testkit.transport_servers import closed_port

REQUESTS: list[dict[str, Any]] = [
    {
        "op": "body",
        "status": 429,
        "headers": [["Retry-After", "3"], ["x-request-id", "req-1"]],
        "token": "tok-9f8e7d6c",
        "body": {
            "text": '{"error":{"code":"rate_limited","context":{"sandbox":"sb-1 tok-9f8e7d6c"}}}'
        },
    },
    {"op": "body", "status": 502, "token": None, "body": {"base64": "PGh0bWw+"}},
    {"op": "error_for_code", "code": "not_found", "message": "gone", "status": 404},
    {"op": "construct", "class": "rate_limited", "code": None, "message": ""},
    {"op": "construct", "class": None, "code": "x_y", "message": "m", "status": 418},
    {"op": "code_for_grpc", "status": "NotFound", "channel": None},
    {"op": "error_for_exit", "exit_code": 124, "timeout_s": 5, "stdout": "partial", "stderr": ""},
    {"op": "validate_timeout", "timeout_s": 10**9},
]
NOT_ERRORS: list[tuple[dict[str, Any], str]] = [
    ({"op": "error_for_exit", "exit_code": 0}, "none"),
    ({"op": "validate_timeout", "timeout_s": 5}, "none"),
    ({"op": "code_for_grpc", "status": 5, "channel": "no-such-channel"}, "threw"),
    ({"op": "construct", "class": "rate_limited", "code": "not_found", "message": ""}, "threw"),
    ({"op": "no-such-request"}, "threw"),
    ({"op": "sanitize", "text": "Bearer abcdefghijkl", "token": None}, "text"),
]


@pytest.fixture(scope="module")
def answers() -> dict[str, list[dict[str, Any]]]:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    fetch = {"op": "fetch", "url": url, "method": "GET", "timeout_ms": 2000, "token": "t0k3n"}
    sent = [*REQUESTS, fetch, *(r for r, _ in NOT_ERRORS)]
    requests = [{"id": str(i), **r} for i, r in enumerate(sent)]
    return {lang: testees.run(lang, requests) for lang in testees.LANGUAGES}


@pytest.mark.parametrize("language", testees.LANGUAGES)
def test_every_error_answer_is_one_record(
    language: str, answers: dict[str, list[dict[str, Any]]]
) -> None:
    members = {"id", *FIELDS, *EXTRAS}
    sent = [*REQUESTS, {"op": "fetch"}]
    for index, record in enumerate(answers[language][: len(REQUESTS) + 1]):
        if not testees.applies(language, sent[index]["op"]):
            continue
        assert "threw" not in record, record
        extra = set(record) - members - {"body_sha256"}
        missing = members - set(record)
        assert (extra, missing) == (set(), set()), (index, record.get("class"))
        assert set(record["resanitized"]) == {where for where, _ in texts_of(record)}
        assert record["origin"] is not None
        assert record["lineage"][0] == record["class"]


def test_the_languages_agree_on_every_answer(answers: dict[str, list[dict[str, Any]]]) -> None:
    first, *others = testees.LANGUAGES
    python = answers[first]
    ops = [r["op"] for r in (*REQUESTS, {"op": "fetch"}, *(r for r, _ in NOT_ERRORS))]
    for lang in others:
        for op, mine, theirs in zip(ops, python, answers[lang], strict=True):
            if not testees.applies(lang, op):
                assert "class" not in theirs, (lang, op, theirs)
            elif "class" in mine:
                # A transport failure's cause is the client library's own message.
                same = [k for k in FIELDS if k != "cause" or mine["id"] != str(len(REQUESTS))]
                assert {k: mine[k] for k in same} == {k: theirs[k] for k in same}, (
                    lang,
                    mine["id"],
                )
            else:
                assert set(mine) == set(theirs), (lang, mine, theirs)
    kinds = [
        next(k for k in ("none", "threw", "text") if k in a) for a in python[-len(NOT_ERRORS) :]
    ]
    assert kinds == [kind for _, kind in NOT_ERRORS]


def test_every_language_of_the_record_has_a_testee() -> None:
    """A language the generator targets (errcat.names.languages) is tested through its testee."""
    assert set(testees.LANGUAGES) == set(testees.RUNNERS), (
        "add the new language's testee to testkit.testees.RUNNERS"
    )
