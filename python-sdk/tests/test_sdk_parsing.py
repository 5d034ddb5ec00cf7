"""Total parsing (contract section 1): every body gives a typed error, nothing raises."""

from __future__ import annotations

import json
import time
from email.utils import formatdate

import pytest

import mitos_errors
from mitos_errors import AgentRunError, error_from_body
from mitos_errors._generated import catalogue
from mitos_errors._headers import http_date_ms
from mitos_errors._spec import SPECS, fallback_code

FALLBACK = sorted(catalogue.FALLBACK_BY_STATUS.items())


def envelope(code: object, **fields: object) -> bytes:
    """An error envelope as bytes."""
    return json.dumps({"error": {"code": code, **fields}}).encode()


CAP = catalogue.ERROR_BODY_MAX_BYTES
DEPTH = catalogue.JSON_MAX_DEPTH

HOSTILE: dict[str, bytes | str | bytearray | memoryview] = {
    "html from a proxy": b"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>",
    "plain text": b"upstream connect error or disconnect/reset before headers",
    "empty": b"",
    "whitespace": b" \r\n\t ",
    "invalid json": b'{"error": {"code": "rate_limited",',
    "a list": b'[{"error": {"code": "rate_limited"}}]',
    "error is a string": b'{"error": "rate_limited"}',
    "error is null": b'{"error": null}',
    "numeric code": b'{"error": {"code": 429}}',
    "code is a list": b'{"error": {"code": ["rate_limited"]}}',
    "empty code": b'{"error": {"code": ""}}',
    "code that sanitizes to nothing": '{"error": {"code": "\\u200b\\u202e"}}',
    "deep nesting": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "deep nesting in a list": b'{"error": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    "non-utf-8 bytes": b'{"error": \xff\xfe\xc0\x80}',
    "5000-digit number": b'{"error": ' + b"9" * 5000 + b"}",
    "NaN": b'{"error": {"code": NaN}}',
    "Infinity": b'{"error": Infinity}',
    "trailing garbage": b'{"error": {"code": "rate_limited"}} trailing',
    "two BOMs": "\ufeff\ufeff" + '{"error": {"code": "rate_limited"}}',
    "lone surrogate text": '{"error": "\ud800"}',
    "bytearray html": bytearray(b"<html></html>"),
    "memoryview text": memoryview(b"nope"),
}


@pytest.mark.parametrize("status", [status for status, _ in FALLBACK])
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_body_gives_the_status_fallback(name: str, status: int) -> None:
    err = error_from_body(HOSTILE[name], status=status)
    code = catalogue.FALLBACK_BY_STATUS[status]
    spec = SPECS[code]
    assert err.code == code
    assert type(err) is mitos_errors.lookup(code)
    assert (err.message, err.cause, err.remediation) == (spec.message, spec.cause, spec.remediation)
    assert err.status == status
    assert dict(err.context) == {}


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (418, catalogue.FALLBACK_CLIENT_ERROR),
        (451, catalogue.FALLBACK_CLIENT_ERROR),
        (507, catalogue.FALLBACK_SERVER_ERROR),
        (599, catalogue.FALLBACK_SERVER_ERROR),
        (302, catalogue.FALLBACK_DEFAULT),
        (200, catalogue.FALLBACK_DEFAULT),
        (600, catalogue.FALLBACK_DEFAULT),
        (-1, catalogue.FALLBACK_DEFAULT),
    ],
)
def test_unlisted_statuses_fall_back_by_class_then_default(status: int, code: str) -> None:
    assert fallback_code(status) == code
    assert error_from_body(b"", status=status).code == code


def test_invalid_utf8_and_surrogates_in_a_code_keep_it_as_replacement_characters() -> None:
    err = error_from_body(b'{"error": {"code": "\xff\xc0\x80x"}}', status=500)
    assert type(err) is AgentRunError
    assert err.code == "\ufffd\ufffd\ufffdx"
    assert error_from_body('{"error": {"code": "\ud800"}}', status=500).code == "\ufffd"


def _envelope_of_size(size: int) -> bytes:
    head = envelope("not_found", message="m", cause="")
    body = envelope("not_found", message="m", cause="x" * (size - len(head)))
    assert len(body) == size
    return body


def test_a_50_mb_body_is_cut_at_the_cap_and_still_typed() -> None:
    body = _envelope_of_size(50 * 1024 * 1024)
    started = time.perf_counter()
    err = error_from_body(body, status=429)
    assert time.perf_counter() - started < 1.0
    # Past the cap the envelope is cut: not JSON any more, so the status decides.
    assert type(err) is mitos_errors.RateLimitedError
    assert err.message == SPECS["rate_limited"].message
    assert type(error_from_body(body.decode(), status=500)) is mitos_errors.InternalError


def test_an_envelope_right_at_the_cap_is_read_and_one_byte_over_is_not() -> None:
    exact = _envelope_of_size(CAP)
    err = error_from_body(exact, status=500)
    assert err.code == "not_found"
    assert len(err.cause) == catalogue.TEXT_MAX_CHARS and err.cause.endswith("\u2026[truncated]")
    assert error_from_body(_envelope_of_size(CAP + 1), status=500).code == "internal"


def test_depth_limit_is_exact() -> None:
    def nested(depth: int) -> bytes:
        inner = b"[" * (depth - 2) + b"]" * (depth - 2)
        return b'{"error": {"code": "not_found", "context": {"x": ' + inner[: depth - 3] + b"}}}"

    ok = b'{"error": {"code": "not_found", "x": ' + b"[" * (DEPTH - 2) + b"]" * (DEPTH - 2) + b"}}"
    deep = b'{"error": {"code": "not_found", "x": ' + b"[" * (DEPTH - 1) + b"]" * (DEPTH - 1) + b"}}"
    assert error_from_body(ok, status=500).code == "not_found"
    assert error_from_body(deep, status=500).code == "internal"
    brackets_in_strings = json.dumps(
        {"error": {"code": "not_found", "cause": "[" * 500 + "{" * 500}}
    ).encode()
    assert error_from_body(brackets_in_strings, status=500).code == "not_found"
    assert nested(10)


def test_numbers_are_doubles_as_in_javascript() -> None:
    ctx = {
        "int": 7,
        "float": 1.5,
        "big": "BIG",
        "max_safe": 2**53 - 1,
        "over_safe": 2**53,
        "neg": -3,
        "exp": 1e300,
        "huge": "x",
    }
    body = json.dumps({"error": {"code": "internal", "context": ctx}}).encode()
    body = body.replace(b'"huge": "x"', b'"huge": 1e999').replace(b'"BIG"', b"9" * 5000)
    err = error_from_body(body, status=500)
    assert dict(err.context) == {"int": 7, "float": 1.5, "max_safe": 2**53 - 1, "neg": -3}
    assert type(err.context["int"]) is int


def test_a_context_of_at_most_the_cap_keeps_every_member() -> None:
    members: dict[str, object] = {f"k{i}": i for i in range(catalogue.CONTEXT_MAX_KEYS)}
    members["k0"] = {"nested": True}
    body = json.dumps({"error": {"code": "internal", "context": members}}).encode()
    err = error_from_body(body, status=500)
    assert dict(err.context) == {f"k{i}": i for i in range(1, catalogue.CONTEXT_MAX_KEYS)}


def test_a_context_over_the_cap_keeps_only_the_catalogue_fields() -> None:
    members: dict[str, object] = {f"k{i}": i for i in range(catalogue.CONTEXT_MAX_KEYS)}
    members.update({"sandbox": "sb-1", "retry_after_ms": 900, "step": [1]})
    body = json.dumps({"error": {"code": "rate_limited", "context": members}}).encode()
    err = error_from_body(body, status=429)
    assert dict(err.context) == {"sandbox": "sb-1", "retry_after_ms": 900}
    assert err.retry_after_ms == 900
    # One member over the cap is enough; exactly the cap is not.
    at_cap = {f"k{i}": i for i in range(catalogue.CONTEXT_MAX_KEYS - 1)} | {"sandbox": "sb-1"}
    over = at_cap | {"k_last": 1}
    for members, kept in ((at_cap, len(at_cap)), (over, 1)):
        body = json.dumps({"error": {"code": "internal", "context": members}}).encode()
        assert len(error_from_body(body, status=500).context) == kept


def test_context_keys_that_are_empty_or_changed_by_sanitizing_are_dropped() -> None:
    body = json.dumps(
        {
            "error": {
                "code": "internal",
                "context": {
                    "a\u200b": "1",
                    "a": "2",
                    "\u200b": "x",
                    "": "empty",
                    "line\nbreak": "y",
                    "token=abcdefgh": "z",
                    "<|im_start|>": "w",
                    "t": True,
                    "n": None,
                },
            }
        }
    ).encode()
    err = error_from_body(body, status=500)
    assert dict(err.context) == {"a": "2", "t": True, "n": None}
    # A key that holds the token is changed by sanitizing, so it is dropped too.
    body = json.dumps({"error": {"code": "internal", "context": {"my-tok3n": 1, "ok": 2}}}).encode()
    assert dict(error_from_body(body, status=500, token="tok3n").context) == {"ok": 2}


def test_texts_that_sanitize_to_nothing_take_the_default() -> None:
    body = json.dumps(
        {"error": {"code": "not_found", "message": "\u200b", "cause": 5, "remediation": ""}}
    ).encode()
    err = error_from_body(body, status=404)
    spec = SPECS["not_found"]
    assert (err.message, err.cause, err.remediation) == (spec.message, spec.cause, spec.remediation)


def test_request_id_from_header_any_case_else_envelope() -> None:
    body = envelope("internal", request_id="env-1")
    assert error_from_body(body, status=500).request_id == "env-1"
    assert error_from_body(body, status=500, headers={"X-Request-ID": "hdr-1"}).request_id == "hdr-1"
    assert error_from_body(body, status=500, headers=[("x-request-id", "hdr-2")]).request_id == "hdr-2"
    assert error_from_body(b"", status=500).request_id is None
    assert error_from_body(b"", status=500, headers={"x-request-id": "a\nb"}).request_id == "a b"


@pytest.mark.parametrize(
    ("header", "member", "expected"),
    [
        ("", "env-1", "env-1"),  # an empty header falls back to the envelope
        ("\u200b\u202e", "env-1", "env-1"),  # so does one that sanitizes to nothing
        (None, "\u200b", None),  # an envelope id that sanitizes to nothing is none
        (None, "", None),
        ("", "", None),
        ("hdr", "\u200b", "hdr"),
        (None, 42, None),  # not a string
        ("tok3n", "env-1", "[REDACTED]"),  # the token alone is not empty once redacted
    ],
)
def test_request_id_is_the_first_that_is_not_empty_once_sanitized(
    header: str | None, member: object, expected: str | None
) -> None:
    headers = {} if header is None else {"X-Request-Id": header}
    for body in (envelope("not_found", request_id=member), envelope("brand_new", request_id=member)):
        err = error_from_body(body, status=404, headers=headers, token="tok3n")
        assert err.request_id == expected
    if header is not None:
        # Without an envelope, only the header counts.
        assert error_from_body(b"<html>", status=502, headers=headers, token="tok3n").request_id == (
            expected if header.strip("\u200b\u202e") else None
        )


def test_headers_given_more_than_once_are_joined_in_order() -> None:
    import httpx

    bare = envelope("rate_limited")
    multi = httpx.Headers([("X-Request-Id", "a"), ("content-type", "x"), ("x-request-id", "b")])
    assert error_from_body(bare, status=429, headers=multi).request_id == "a, b"
    assert error_from_body(
        bare, status=429, headers={"X-Request-Id": "a", "x-request-id": "b"}
    ).request_id == ("a, b")
    pairs = [("x-request-id", "a"), ("X-REQUEST-ID", "b"), ("x-request-id", "c")]
    assert error_from_body(bare, status=429, headers=pairs).request_id == "a, b, c"
    # A repeated Retry-After is no longer all digits, so it gives no delay.
    assert (
        error_from_body(bare, status=429, headers=[("Retry-After", "1"), ("retry-after", "2")]).retry_after_ms
        is None
    )
    assert (
        error_from_body(
            bare, status=429, headers=[("Retry-After-Ms", "7"), ("retry-after", "2")]
        ).retry_after_ms
        == 7
    )


class _ExplodingHeaders:
    def get(self, name: str) -> str:
        raise RuntimeError("boom")


def test_headers_that_raise_are_ignored() -> None:
    err = error_from_body(b"", status=429, headers=_ExplodingHeaders())
    assert err.code == "rate_limited" and err.request_id is None


def test_retry_after_context_then_headers() -> None:
    body = envelope("rate_limited", context={"retry_after_ms": 1500})
    assert error_from_body(body, status=429, headers={"Retry-After": "9"}).retry_after_ms == 1500
    bare = envelope("rate_limited")
    assert error_from_body(bare, status=429, headers={"Retry-After-Ms": "250"}).retry_after_ms == 250
    assert error_from_body(bare, status=429, headers={"retry-after": "3"}).retry_after_ms == 3000
    assert error_from_body(bare, status=429, headers={"Retry-After": "-3"}).retry_after_ms is None
    assert error_from_body(bare, status=429, headers={"Retry-After": "1" * 16}).retry_after_ms is None
    assert error_from_body(bare, status=429, headers={"Retry-After": "\u0663"}).retry_after_ms is None
    negative = envelope("rate_limited", context={"retry_after_ms": -5})
    assert error_from_body(negative, status=429, headers={"Retry-After-Ms": "7"}).retry_after_ms == 7
    future = formatdate(time.time() + 120, usegmt=True)
    later = error_from_body(bare, status=429, headers={"Retry-After": future}).retry_after_ms
    assert later is not None and 100_000 < later <= 121_000
    past = formatdate(time.time() - 120, usegmt=True)
    assert error_from_body(bare, status=429, headers={"Retry-After": past}).retry_after_ms == 0
    assert error_from_body(bare, status=429, headers={"Retry-After": "tomorrow"}).retry_after_ms is None


def test_http_dates_in_the_three_forms() -> None:
    expected = 784111777000
    now = 1_700_000_000_000
    assert http_date_ms("Sun, 06 Nov 1994 08:49:37 GMT", now) == expected
    assert http_date_ms("Sunday, 06-Nov-94 08:49:37 GMT", now) == expected
    assert http_date_ms("Sun Nov  6 08:49:37 1994", now) == expected
    assert http_date_ms("Sun, 31 Feb 1994 08:49:37 GMT", now) is None
    # A leap second counts as 60 seconds: 23:59:60 is the next day's 00:00:00.
    leap = http_date_ms("Wed, 31 Dec 2008 23:59:60 GMT", now)
    assert leap == http_date_ms("Thu, 01 Jan 2009 00:00:00 GMT", now)
    # Year 0000 exists (a leap year) in the IMF and asctime forms; a 29 February needs a leap year.
    assert http_date_ms("Tue, 29 Feb 0000 00:00:00 GMT", now) == -62162121600000
    assert http_date_ms("Tue Feb 29 00:00:00 0000", now) == -62162121600000
    assert http_date_ms("Mon, 29 Feb 1900 00:00:00 GMT", now) is None
    assert http_date_ms("Sun, 06 Nov 1994 08:49:37 UTC", now) is None


def test_bodies_as_text_bytes_and_views_agree() -> None:
    body = envelope("not_found", message="caf\u00e9 \U0001f600")
    for form in (body, body.decode(), bytearray(body), memoryview(body)):
        err = error_from_body(form, status=404)
        assert err.code == "not_found" and err.message == "caf\u00e9 \U0001f600"


def test_a_surrogate_pair_in_text_reads_as_its_character() -> None:
    text = '{"error": {"code": "not_found", "message": "\ud83d\ude00 ok \ud800"}}'
    assert error_from_body(text, status=404).message == "\U0001f600 ok \ufffd"


def test_never_raises_for_odd_arguments() -> None:
    for body in (None, 5, object()):
        err = error_from_body(body, status=500)  # type: ignore[arg-type]
        assert isinstance(err, AgentRunError)
    assert error_from_body(b"", status="500").code == catalogue.FALLBACK_DEFAULT  # type: ignore[arg-type]
