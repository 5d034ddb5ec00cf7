"""Property tests of the contract on hostile responses (docs/sdk-contract.md sections 1, 2, 2b).

Strategies build what a hostile server or proxy may send: text of every
Unicode category (lone surrogates too), JSON escapes, texts around the cap,
the caller's token in every form the contract names, secret-like strings,
injection markers with invisible characters inserted, odd numbers, duplicate
keys, nesting, non-UTF-8 bytes, and ``Retry-After`` in every legal and
illegal form. The invariants: nothing raises; no form of the token and no
secret is visible on any surface of the error; no removed character is left;
every text is within the cap; the fields equal the contract's reference.

The budget is small by default (a few hundred examples in all); set
``MITOS_PROPERTY_EXAMPLES`` to run more per test (``nox -s tests`` passes the
environment through).
"""

from __future__ import annotations

import inspect
import io
import json
import logging
import pickle
import traceback
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st
from testkit.oracle import REFERENCE, fields_of
from testkit.sdk_strategies import (
    CAP,
    PROPERTY,
    UNSEEN,
    any_char,
    hostile_body,
    hostile_text,
    removed_char,
    retry_after,
    statuses,
    tokens,
    unicode_text,
)

from mitos_errors import AgentRunError, error_from_body, sanitize_text
from mitos_errors._headers import retry_after_ms_from_headers


def surfaces(err: AgentRunError) -> list[str]:
    """Every way an error shows itself: fields, str, repr, pickle, logging, JSON, inspect, traceback."""
    stream = io.StringIO()
    logger = logging.getLogger("mitos-errors-property")
    logger.propagate = False
    handler = logging.StreamHandler(stream)
    logger.addHandler(handler)
    try:
        logger.error("failed: %s %r", err, err, exc_info=err)
    finally:
        logger.removeHandler(handler)
    texts = [err.code, err.message, err.cause, err.remediation, err.request_id or ""]
    texts += [f"{k}={v}" for k, v in err.context.items()]
    texts += [str(err), repr(err), json.dumps(err.to_dict(), ensure_ascii=False), err.to_json()]
    texts.append(pickle.dumps(err).decode("latin-1"))
    texts.append(repr(pickle.loads(pickle.dumps(err)).to_dict()))
    texts.append(stream.getvalue())
    texts.append(repr(inspect.getmembers(err, lambda v: not callable(v))))
    texts.append("".join(traceback.format_exception(err)))
    return texts


def texts_of(err: AgentRunError) -> list[str]:
    """The server-controlled texts of an error."""
    out = [err.code, err.message, err.cause, err.remediation, err.request_id or ""]
    for key, value in err.context.items():
        out.append(key)
        if isinstance(value, str):
            out.append(value)
    return out


def _check_texts(err: AgentRunError) -> None:
    for text in texts_of(err):
        assert len(text) <= CAP, len(text)
        for ch in text:
            assert not any(a <= ord(ch) <= b for a, b in UNSEEN), hex(ord(ch))


@PROPERTY
@given(data=st.data(), token=st.one_of(st.none(), tokens), status=statuses, after=retry_after())
def test_hostile_bodies_give_errors_that_hide_every_secret_and_match_the_reference(
    data: st.DataObject, token: str | None, status: int, after: str
) -> None:
    body, secrets = data.draw(hostile_body(token))
    headers = [("Retry-After", after), ("X-Request-Id", data.draw(unicode_text))]
    err = error_from_body(body, status=status, headers=headers, token=token)
    now = datetime.now(UTC)
    _check_texts(err)
    hidden = list(secrets) + (REFERENCE.token_forms(token) if token else [])
    for surface in surfaces(err):
        for secret in hidden:
            assert secret not in surface, (secret, surface[:200])
    got, want = (
        fields_of(err),
        REFERENCE.error_from_body(body, status=status, headers=headers, token=token, now=now),
    )
    got_delay, want_delay = got.pop("retry_after_ms"), want.pop("retry_after_ms")
    assert got == want
    # The clock moved between the two calls: a future date differs by those milliseconds only.
    assert (got_delay is None) == (want_delay is None)
    if got_delay is not None:
        assert abs(got_delay - want_delay) <= 5000


@PROPERTY
@given(data=st.data(), token=st.one_of(st.none(), tokens))
def test_sanitizing_hides_every_secret_is_idempotent_and_matches_the_reference(
    data: st.DataObject, token: str | None
) -> None:
    text, secrets = data.draw(hostile_text(token))
    once = sanitize_text(text, token=token)
    assert once == REFERENCE.sanitize(text, token)
    assert len(once) <= CAP
    assert not any(any(a <= ord(ch) <= b for a, b in UNSEEN) for ch in once)
    for secret in secrets + (REFERENCE.token_forms(token) if token else []):
        assert secret not in once, secret
    assert sanitize_text(once, token=token) == once


@PROPERTY
@given(data=st.data())
def test_any_text_at_all_is_sanitized_as_the_reference_does(data: st.DataObject) -> None:
    text = data.draw(
        st.text(st.one_of(any_char, removed_char, st.sampled_from("[]<>|:/@=%\\\"'")), max_size=300)
    )
    token = data.draw(st.one_of(st.none(), st.text(any_char, max_size=12)))
    assert sanitize_text(text, token=token) == REFERENCE.sanitize(text, token)


@PROPERTY
@given(value=retry_after(), offset_s=st.integers(-(10**10), 10**10))
def test_retry_after_in_every_form_reads_as_the_reference_reads_it(value: str, offset_s: int) -> None:
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC) + timedelta(seconds=offset_s)
    if not datetime(1, 1, 1, tzinfo=UTC) + timedelta(days=366) <= now <= datetime(9949, 1, 1, tzinfo=UTC):
        return
    now_ms = (now - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)
    assert retry_after_ms_from_headers({"Retry-After": value}, now_ms) == REFERENCE.retry_after(
        {}, [("retry-after", value)], now
    )


@PROPERTY
@given(data=st.data())
def test_any_bytes_at_all_give_an_error(data: st.DataObject) -> None:
    body = data.draw(st.binary(max_size=400))
    status = data.draw(st.integers(-5, 1200))
    err = error_from_body(body, status=status)
    _check_texts(err)
    assert fields_of(err) == {**REFERENCE.error_from_body(body, status=status), "retry_after_ms": None}
