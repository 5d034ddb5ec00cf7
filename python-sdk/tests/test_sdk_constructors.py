"""The public constructors describe their own class (docs/sdk-contract.md section 3).

A generated class's constructor has its own spec (also for a finer code); the
base class's has the catch-all's texts (none) and classification, whatever
``code`` and ``status`` it is given. Only ``error_for_code`` looks a code up.
Arguments are generated: codes known, unknown, hostile and catalogue codes
hidden by invisible characters; statuses; texts left out, hostile or another
code's catalogue text.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from testkit.sdk_strategies import PROPERTY, hostile_text, with_invisible

from mitos_errors import AgentRunError, error_for_code, lookup, sanitize_text
from mitos_errors._generated import catalogue
from mitos_errors._spec import CATCH_ALL, SPECS

CODES = sorted(SPECS)
catalogue_code = st.sampled_from(CODES)
code = st.one_of(
    catalogue_code,
    catalogue_code.flatmap(with_invisible),
    st.sampled_from(["made_up", "rate_limited_burst", "", "\u200b", "__proto__", "toString"]),
    hostile_text(None).map(lambda found: found[0]),
)
status = st.one_of(st.none(), st.sampled_from(sorted(catalogue.FALLBACK_BY_STATUS)), st.integers(100, 599))
text = st.one_of(
    st.just(""),
    st.sampled_from(sorted({s.cause for s in SPECS.values()})),
    hostile_text(None).map(lambda found: found[0]),
)
texts = st.fixed_dictionaries({"message": text, "cause": text, "remediation": text})


def shown(err: AgentRunError) -> dict[str, Any]:
    """What an error shows: its class, fields and classification."""
    data = err.to_dict()
    data["class"] = type(err)
    del data["type"], data["context"], data["request_id"], data["retry_after_ms"]
    return data


def expected(
    cls: type[AgentRunError], given: dict[str, str], code: str, status: int | None
) -> dict[str, Any]:
    """The rule: the code as given (sanitized), the status as given, each text given or else the
    class's (none for the base class), and the class's classification."""
    spec = SPECS.get(cls.catalogue_code) if cls.catalogue_code is not None else None
    kind = spec if spec is not None else CATCH_ALL

    def text_of(name: str) -> str:
        return sanitize_text(given[name]) or (getattr(spec, name) if spec is not None else "")

    return {
        "class": cls,
        "code": code,
        "message": text_of("message"),
        "cause": text_of("cause"),
        "remediation": text_of("remediation"),
        "status": status,
        "retryable": kind.retryable,
        "is_auth_failure": kind.is_auth_failure,
        "is_cancelled": kind.is_cancelled,
        "recovery": kind.recovery.to_dict(),
        "side_effects": kind.side_effects,
        "origin": kind.origin,
    }


@PROPERTY
@given(code, status, texts)
def test_the_base_class_describes_itself_whatever_code_and_status(
    given_code: str, given_status: int | None, given: dict[str, str]
) -> None:
    err = AgentRunError(given["message"], given_code, given["cause"], given["remediation"], given_status)
    assert shown(err) == expected(AgentRunError, given, sanitize_text(given_code), given_status)


@PROPERTY
@given(catalogue_code, st.none() | code, status, texts)
def test_a_generated_class_has_its_own_spec_for_its_code_or_a_finer_one(
    own: str, given_code: str | None, given_status: int | None, given: dict[str, str]
) -> None:
    cls = lookup(own)
    other = given_code is not None and given_code != own
    clean = sanitize_text(given_code) if other else own

    def make() -> AgentRunError:
        return cls(given["message"], given_code, given["cause"], given["remediation"], given_status)

    if other and (not clean or clean in SPECS):
        with pytest.raises(ValueError):
            make()
        return
    assert shown(make()) == expected(cls, given, clean, given_status)


@PROPERTY
@given(catalogue_code, status)
def test_error_for_code_is_the_way_to_a_codes_class_and_texts(
    given_code: str, given_status: int | None
) -> None:
    by_code = error_for_code(given_code, "", status=given_status)
    base = AgentRunError("", given_code, status=given_status)
    assert type(by_code) is lookup(given_code)
    assert (by_code.cause, by_code.retryable) == (SPECS[given_code].cause, SPECS[given_code].retryable)
    assert (type(base), base.cause, base.retryable) == (AgentRunError, "", CATCH_ALL.retryable)


def test_the_base_class_still_needs_a_code() -> None:
    with pytest.raises(TypeError):
        AgentRunError("x")
