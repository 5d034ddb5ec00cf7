"""Random inputs: every writer gives the oracle's bytes, and the bytes parse to the values written.

Hypothesis draws codes (server codes, SDK-local and unknown ones, errors that
are not catalogue errors), surfaces, hostile causes and texts, contexts
(nested objects and arrays, every kind of number, unsorted and dirty keys),
request ids and tokens. The Python writer is asked in process for each input;
the TypeScript writer gets a batch of inputs per example through the testee.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mitos_errors
from errcat.model.catalogue import Catalogue
from testkit import paths, testees
from testkit.oracle import REFERENCE
from testkit.reference_emit import EmitInput, EmitReference, json_number
from testkit.sdk_strategies import PROPERTY, hostile_text

CAT: Catalogue = REFERENCE.cat
ORACLE = EmitReference(CAT)
TOKEN = "tok_Zq9w8e7r6t5y"

keys = st.one_of(
    st.sampled_from(
        ["sandbox", "retry_after_ms", "b", "a", "Z", "10", "9", "\u00e9", "\U0001f600", "\uff61"]
    ),
    st.text(max_size=6),
)
numbers = st.one_of(
    st.integers(-(2**60), 2**60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([30, 30.5, 1e-7, 1e21, -0.0, 2**53 + 1, 0.1 + 0.2, 1e-6, 5e-324, 10**400]),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=20))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=5)),
    max_leaves=12,
)
codes = st.one_of(
    st.sampled_from([c.code for c in CAT.codes]),
    st.just("no_such_code"),
    st.none(),
)


@st.composite
def inputs(draw: st.DrawFn) -> EmitInput:
    """One writer input; its texts are hostile (secrets, markers, the token in its forms)."""
    token = draw(st.sampled_from([None, TOKEN]))
    cause, _ = draw(hostile_text(token))
    return EmitInput(
        code=draw(codes),
        surface=draw(st.sampled_from([None, "console", "public_gateway", "other"])),
        message=draw(st.none() | st.text(max_size=30)),
        remediation=draw(st.none() | st.text(max_size=30)),
        cause=cause,
        context=draw(st.dictionaries(keys, values, max_size=8)),
        request_id=draw(st.none() | st.text(max_size=20) | st.just(f"req-{TOKEN}")),
        token=token,
    )


def python_writer(given_input: EmitInput) -> dict[str, Any]:
    """What ``envelope_bytes`` sends for one input, as a vector's ``expected``."""
    i = given_input
    sent = mitos_errors.envelope_bytes(
        RuntimeError(i.cause) if i.code is None else i.code,
        surface=i.surface,
        cause=i.cause,
        context=i.context,
        request_id=i.request_id,
        token=i.token,
        message=i.message,
        remediation=i.remediation,
    )
    return {
        "status": sent.status,
        "headers": [list(h) for h in sent.headers],
        "body": sent.body.decode("latin-1"),
    }


def same_values(written: Any, given_value: Any) -> bool:
    """Whether a parsed context value is the value given, as the writer holds it (numbers as doubles)."""
    if isinstance(given_value, bool) or given_value is None:
        return written is given_value
    if isinstance(given_value, (int, float)):
        try:
            number = float(given_value)
        except OverflowError:
            number = math.inf if given_value > 0 else -math.inf
        return isinstance(written, (int, float)) and float(written) == number
    if isinstance(given_value, list):
        return isinstance(written, list) and len(written) <= len(given_value)
    if isinstance(given_value, dict):
        return isinstance(written, dict) and all(
            k in given_value and same_values(v, given_value[k]) for k, v in written.items()
        )
    return isinstance(written, str)


@PROPERTY
@given(inputs())
def test_the_python_writer_gives_the_oracles_bytes(given_input: EmitInput) -> None:
    expected = ORACLE.emit(given_input).to_json()
    assert python_writer(given_input) == expected
    body = json.loads(expected["body"])["error"]
    assert list(body) == [
        k
        for k in ("code", "message", "cause", "remediation", "context", "request_id", "refines")
        if k in body
    ]
    for key, value in body.get("context", {}).items():
        assert same_values(value, given_input.context[key]), key


@pytest.fixture(scope="module")
def node() -> Iterator[testees.NodeTestee]:
    """One TypeScript testee for every example (it answers batch after batch)."""
    if paths.skip_typescript():
        pytest.skip(f"{paths.SKIP_TS_ENV} is set")
    testees.require_typescript()
    with testees.NodeTestee() as testee:
        yield testee


@PROPERTY
@given(batch=st.lists(inputs(), min_size=5, max_size=5))
def test_the_typescript_writer_gives_the_oracles_bytes(
    node: testees.NodeTestee, batch: list[EmitInput]
) -> None:
    requests = [{"id": str(n), "op": "emit", **i.to_json()} for n, i in enumerate(batch)]
    answers = testees.answers_by_id(node.run(requests))
    for n, given_input in enumerate(batch):
        answer = dict(answers[str(n)])
        answer.pop("id")
        assert answer == ORACLE.emit(given_input).to_json(), given_input


@PROPERTY
@given(st.floats(allow_nan=False) | st.integers())
def test_a_number_reads_back_as_the_double_written(value: float) -> None:
    text = json_number(value)
    try:
        double = float(value)
    except OverflowError:
        double = math.inf if value > 0 else -math.inf
    assert float(json.loads(text)) == double
    assert text.isascii()
    assert "." not in text or "e" in text or not text.endswith("0")
