"""The refines walk (docs/sdk-contract.md section 1, step 5).

A code this SDK does not know, sent with the chain of codes it refines
(``error.refines``, nearest first), gets the class of the first code of the
chain the catalogue knows, keeps the code as sent, and pickles.
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from testkit.sdk_strategies import PROPERTY, hostile_text

from mitos_errors import (
    AgentRunError,
    IdleTimeoutError,
    NotFoundError,
    RateLimitedError,
    code_spec,
    error_from_body,
    lookup,
)
from mitos_errors._generated import catalogue

KNOWN = sorted(catalogue.SPECS)


def expected_class(chain: Any) -> type[AgentRunError]:
    """The model of the walk: the first of the first 16 entries that is a string naming a code."""
    if not isinstance(chain, list):
        return AgentRunError
    found = [e for e in chain[: catalogue.REFINES_MAX] if isinstance(e, str) and e in KNOWN]
    return lookup(found[0]) if found else AgentRunError


ENTRY = st.one_of(
    st.sampled_from(KNOWN),
    st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True).filter(lambda c: c not in KNOWN),
    hostile_text(None).map(lambda pair: pair[0]),
    st.sampled_from([None, 7, True, {}, ["idle_timeout"], {"code": "not_found"}, "__proto__", "x" * 5000]),
)
CHAIN = st.one_of(
    st.lists(ENTRY, max_size=24),
    st.sampled_from(["idle_timeout", 5, None, {"0": "not_found", "length": 1}]),
)


@PROPERTY
@given(
    code=st.from_regex(r"zz_[a-z0-9_]{1,20}", fullmatch=True),
    chain=CHAIN,
    status=st.integers(400, 599),
)
def test_an_unknown_code_gets_the_class_of_the_first_known_code_of_its_chain(
    code: str, chain: Any, status: int
) -> None:
    body = json.dumps({"error": {"code": code, "refines": chain}}, ensure_ascii=False)
    err = error_from_body(body.encode("utf-8", "surrogatepass"), status=status)
    cls = expected_class(chain)
    assert type(err) is cls
    assert err.code == code
    assert pickle.loads(pickle.dumps(err)).to_dict() == err.to_dict()
    if cls is not AgentRunError:
        spec = code_spec(cls.catalogue_code or "")
        assert spec is not None
        assert (err.retryable, err.recovery, err.side_effects) == (
            spec.retryable,
            spec.recovery,
            spec.side_effects,
        )
        assert (err.message, err.remediation) == (spec.message, spec.remediation)
        assert err.spec is None  # the spec is of the code, which this catalogue does not define


def test_a_known_code_ignores_the_chain_and_the_chain_is_read_nearest_first() -> None:
    known = error_from_body(b'{"error":{"code":"rate_limited","refines":["idle_timeout"]}}', status=429)
    assert type(known) is RateLimitedError
    walked = error_from_body(
        b'{"error":{"code":"sandbox_reaped","refines":["sandbox_gone","idle_timeout","not_found"]}}',
        status=410,
    )
    assert type(walked) is IdleTimeoutError and not isinstance(walked, NotFoundError)
    assert walked.code == "sandbox_reaped"


def test_a_generated_class_takes_a_code_the_catalogue_does_not_know_and_no_other() -> None:
    finer = IdleTimeoutError("reaped", code="sandbox_reaped")
    assert finer.code == "sandbox_reaped"
    spec = code_spec("idle_timeout")
    assert spec is not None and finer.cause == spec.cause and finer.retryable == spec.retryable
    again = pickle.loads(pickle.dumps(finer))
    assert type(again) is IdleTimeoutError and again.to_dict() == finer.to_dict()
    for bad in ("not_found", "not\u200b_found", "\u200b", 7):
        with pytest.raises(ValueError, match="has code 'idle_timeout'"):
            IdleTimeoutError("x", code=bad)  # type: ignore[arg-type]
    assert IdleTimeoutError("x", code="idle_timeout").code == "idle_timeout"
