"""An error's dict made by one SDK is the same error in every other SDK, and back again.

Errors of every class (by code, by constructor with a finer code, unknown
codes, hostile bodies and texts) are made by one SDK; the JSON form of each
(``to_json()`` / ``JSON.stringify``, the ``json`` member of its record) is
handed to every SDK's ``error_from_dict`` / ``errorFromJSON`` (the ``from_dict``
request), whose record must equal the first one field by field; that error's
JSON form is handed back to the first SDK, which must give the first record
again.
"""

from __future__ import annotations

import json
from functools import cache
from itertools import permutations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.cli import load_model
from testkit import paths, testees
from testkit.record import FIELDS, Record
from testkit.sdk_strategies import hostile_body, hostile_text, tokens

PAIRS = list(
    permutations([lang for lang in testees.LANGUAGES if testees.applies(lang, "from_dict")], 2)
)


@cache
def _catalogue() -> Any:
    return load_model(paths.CATALOGUE, paths.REPO)


def _codes() -> list[str]:
    return [code.code for code in _catalogue().codes]


def _class_names() -> dict[str, str]:
    return testees.typescript_class_names(_catalogue())


def _ask(language: str, requests: list[dict[str, Any]]) -> list[Record]:
    numbered = [{"id": str(i), **r} for i, r in enumerate(requests)]
    return testees.run(language, numbered, class_names=_class_names())


def _fields(record: Record) -> dict[str, Any]:
    assert "threw" not in record, record
    return {name: record[name] for name in FIELDS}


def _round_trip(start: str, other: str, sources: list[dict[str, Any]]) -> None:
    made = _ask(start, sources)
    there = _ask(other, [{"op": "from_dict", "dict": json.loads(r["forms"]["json"])} for r in made])
    back = _ask(start, [{"op": "from_dict", "dict": json.loads(r["forms"]["json"])} for r in there])
    for source, first, crossed, returned in zip(sources, made, there, back, strict=True):
        assert _fields(crossed) == _fields(first), (source, other)
        assert _fields(returned) == _fields(first), (source, start)


def _every_class() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for code in _codes():
        out.append({"op": "error_for_code", "code": code, "message": "", "status": None})
        out.append(
            {
                "op": "construct",
                "class": code,
                "code": f"{code}.finer_one",
                "message": "m",
                "status": 418,
            }
        )
    out += [
        {
            "op": "error_for_code",
            "code": "no_such_code",
            "message": "m",
            "cause": "c",
            "status": 429,
        },
        {"op": "error_for_code", "code": "\u200b", "message": "m", "status": 503},
        {"op": "construct", "class": None, "code": "x_y", "message": "m", "status": 418},
        {
            "op": "body",
            "status": 429,
            "headers": [["Retry-After", "7"], ["x-request-id", "req-7"]],
            "token": "tok-1234abcd",
            "body": {
                "text": '{"error":{"code":"rate_limited.per_key","refines":["rate_limited"],'
                '"message":"slow tok-1234abcd","context":{"n":1.5,"flag":true,"none":null}}}'
            },
        },
    ]
    return out


@pytest.mark.parametrize(("start", "other"), PAIRS)
def test_every_class_crosses_to_the_other_sdk_and_back(start: str, other: str) -> None:
    _round_trip(start, other, _every_class())


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_hostile_errors_cross_every_pair_of_sdks_and_back(data: st.DataObject) -> None:
    sources: list[dict[str, Any]] = []
    for _ in range(20):
        token = data.draw(st.one_of(st.none(), tokens))
        text = data.draw(hostile_text(token))[0]
        body, _ = data.draw(hostile_body(token))
        code = data.draw(st.sampled_from([*_codes(), text]))
        sources.append(
            {"op": "error_for_code", "code": code, "message": text, "cause": text, "status": 500}
        )
        sources.append(
            {
                "op": "body",
                "status": 429,
                "token": token,
                "body": {"text": body.decode("utf-8", "replace")},
            }
        )
    for start, other in PAIRS:
        _round_trip(start, other, sources)
