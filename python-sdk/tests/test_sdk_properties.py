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

import base64
import inspect
import io
import json
import logging
import os
import pickle
import traceback
import urllib.parse
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import REFERENCE, fields_of

from mitos_errors import AgentRunError, error_from_body, sanitize_text
from mitos_errors._classes import CLASSES
from mitos_errors._generated import catalogue, sanitizer_rules
from mitos_errors._headers import retry_after_ms_from_headers

EXAMPLES = int(os.environ.get("MITOS_PROPERTY_EXAMPLES", "60"))
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
CAP = catalogue.TEXT_MAX_CHARS
UNSEEN = [(a, b) for a, b in sanitizer_rules.REMOVE + sanitizer_rules.TO_SPACE]
"""Characters no text may hold: the removed ones and those that become spaces."""

CATEGORIES = [
    "Lu",
    "Ll",
    "Lt",
    "Lm",
    "Lo",
    "Mn",
    "Mc",
    "Me",
    "Nd",
    "Nl",
    "No",
    "Pc",
    "Pd",
    "Ps",
    "Pe",
    "Pi",
    "Pf",
    "Po",
    "Sm",
    "Sc",
    "Sk",
    "So",
    "Zs",
    "Zl",
    "Zp",
    "Cc",
    "Cf",
    "Cs",
    "Co",
    "Cn",
]
any_char = st.characters(categories=CATEGORIES)  # type: ignore[arg-type]
removed_char = st.sampled_from(UNSEEN).flatmap(lambda r: st.integers(r[0], r[1])).map(chr)
unicode_text = st.text(st.one_of(any_char, removed_char), max_size=40)

TOKEN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/ é🔑"
# The catalogue's own texts and names (which an error shows whatever the token) and the
# test's fixed pieces: a token that is part of them would be "visible" without any leak.
FIXED_TEXT = json.dumps([catalogue.SPECS, catalogue.CONTEXT_FIELDS], ensure_ascii=False) + repr(
    [cls.__name__ for cls in CLASSES.values()]
)
tokens = st.text(st.sampled_from(TOKEN_ALPHABET), min_size=12, max_size=40).filter(
    lambda t: (
        t.strip() == t
        and sanitize_text(t) == t
        and not any(form in FIXED_TEXT for form in REFERENCE.token_forms(t))
    )
)

SECRETS = [
    ("Bearer abc123secretvalue", "abc123secretvalue"),
    ("Authorization: Bearer Bearer abc123secretvalue", "abc123secretvalue"),
    ("Authorization: Basic dXNlcjpwYXNz", "dXNlcjpwYXNz"),
    ("basic password=hunter2hunter2", "hunter2hunter2"),
    ("bearer postgres://admin:s3cretpw@db.example/x", "s3cretpw"),
    ("password=password=xsecretvalue9", "xsecretvalue9"),
    ("api_key: sk_live_51HxyzABCDEFGH", "sk_live_51HxyzABCDEFGH"),
    ("sk-ABCDEFGHIJKLMNOPQRSTUV", "ABCDEFGHIJKLMNOPQRSTUV"),
    ("ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    ("AKIAABCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNOP"),
    ("mitos_live_Zx81kQ0pLm2Nb7", "Zx81kQ0pLm2Nb7"),
    ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl", "eyJzdWIiOiIxMjMifQ"),
    ("https://user:hunter2pass@proxy.example:3128/", "hunter2pass"),
    ("-----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEA -----END RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEA"),
    ("bearer -----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEA", "MIIEowIBAAKCAQEA"),
]
MARKERS = ["<|im_start|>", "[INST]", "<<SYS>>", "</system>", "ignore all previous instructions"]
INVISIBLE = ["\u200b", "\u2066", "\u0600", "\U00013430", "\U0001bca0", "\u00ad", "\ufeff"]


def with_invisible(text: str) -> st.SearchStrategy[str]:
    """``text`` with invisible (removed) characters inserted at random places."""
    return st.lists(st.tuples(st.integers(0, len(text)), st.sampled_from(INVISIBLE)), max_size=3).map(
        lambda cuts: _insert(text, cuts)
    )


def _insert(text: str, cuts: list[tuple[int, str]]) -> str:
    for at, ch in sorted(cuts, reverse=True):
        text = text[:at] + ch + text[at:]
    return text


def token_echoes(token: str) -> list[str]:
    """The token as a server may echo it: each form the contract names, and in credentials."""
    raw = token.encode()
    return [
        token,
        urllib.parse.quote(token, safe="-._~"),
        urllib.parse.quote(token, safe="-._~").lower(),
        base64.b64encode(raw).decode().rstrip("="),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
        token[: len(token) // 2] + "\u200b" + token[len(token) // 2 :],
    ]


secret_piece = st.sampled_from(SECRETS).flatmap(lambda s: with_invisible(s[0]).map(lambda t: (t, s[1])))
marker_piece = st.sampled_from(MARKERS).flatmap(with_invisible)
near_cap = st.integers(CAP - 3, CAP + 3).map(lambda n: "é" * (n // 2) + "x" * (n - n // 2))


@st.composite
def hostile_text(draw: st.DrawFn, token: str | None) -> tuple[str, list[str]]:
    """A text of hostile pieces, and the secrets it holds.

    The pieces are separated by spaces, or glued together with no separator;
    gluing can break a secret's shape (a key's class runs into the next
    piece), so glued texts name no secret, and the tests hold them to the
    reference and to idempotence.
    """
    glued = draw(st.booleans())
    secrets: list[str] = []
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["unicode", "secret", "marker", "token", "cap"]))
        if kind == "secret":
            text, secret = draw(secret_piece)
            secrets.append(secret)
            parts.append(text)
        elif kind == "marker":
            parts.append(draw(marker_piece))
        elif kind == "token" and token is not None:
            parts.append(draw(st.sampled_from(token_echoes(token))))
        elif kind == "cap":
            parts.append(draw(near_cap))
        else:
            parts.append(draw(unicode_text))
    if glued:
        return "".join(parts), []
    return " ".join(parts), secrets


def json_string(text: str, escape_all: bool) -> str:
    """``text`` as a JSON string, its non-ASCII (and, ``escape_all``, every) character escaped."""
    if not escape_all:
        return json.dumps(text, ensure_ascii=False)
    return '"' + "".join(f"\\u{ord(c):04x}" if ord(c) < 0x10000 else json.dumps(c)[1:-1] for c in text) + '"'


odd_numbers = st.sampled_from(
    [
        "1e400",
        "-0",
        "1.0",
        "9007199254740993",
        "-9007199254740991",
        "0.1",
        "1E2",
        "123456789012345678901234567890",
    ]
)


REFINES_ENTRIES = [
    '"rate_limited"',
    '"idle_timeout"',
    '"no_such_code"',
    '"__proto__"',
    "7",
    "null",
    "{}",
    '["internal"]',
]


@st.composite
def refines_chain(draw: st.DrawFn, text: Callable[[], str]) -> str:
    """An envelope's ``refines`` member as JSON: a chain of codes, other values and hostile text
    (up to past the 16 entries an SDK reads), or something that is not an array."""
    if draw(st.integers(0, 4)) == 0:
        return draw(st.sampled_from(['"idle_timeout"', "{}", "7", "null", '{"0":"internal"}']))
    entries = []
    for _ in range(draw(st.integers(0, 20))):
        kind = draw(st.sampled_from(["listed", "listed", "text", "long"]))
        if kind == "text":
            entries.append(text())
        elif kind == "long":
            entries.append('"' + "x" * 3000 + '"')
        else:
            entries.append(draw(st.sampled_from(REFINES_ENTRIES)))
    return "[" + ",".join(entries) + "]"


@st.composite
def hostile_body(draw: st.DrawFn, token: str | None) -> tuple[bytes, list[str]]:
    """A response body (an envelope with duplicate keys, nesting, odd numbers, or broken) and its secrets."""
    secrets: list[str] = []
    escape = draw(st.booleans())

    def text() -> str:
        value, found = draw(hostile_text(token))
        secrets.extend(found)
        return json_string(value, escape)

    code = draw(st.sampled_from(['"rate_limited"', '"internal"', '"no_such_code"', "7", '""', text()]))
    members = [f'"code":{code}']
    for name in draw(
        st.lists(st.sampled_from(["message", "cause", "remediation", "request_id"]), max_size=6)
    ):
        members.append(f'"{name}":{text()}')  # a name may come twice: the last one counts
    context = [f"{text()}:{text()}" for _ in range(draw(st.integers(0, 3)))]
    context += [f'"n{i}":{draw(odd_numbers)}' for i in range(draw(st.integers(0, 2)))]
    if draw(st.booleans()):
        context.append('"nested":' + "[" * draw(st.integers(1, 40)) + "]" * draw(st.integers(0, 40)))
    members.append('"context":{' + ",".join(context) + "}")
    if draw(st.booleans()):
        members.append(f'"refines":{draw(refines_chain(text))}')
    body = ('{"error":{' + ",".join(members) + "}}").encode("utf-8", "surrogatepass")
    mangle = draw(st.sampled_from(["none", "cut", "bad utf-8", "bom"]))
    if mangle == "cut":
        body = body[: draw(st.integers(0, len(body)))]
    elif mangle == "bad utf-8":
        at = draw(st.integers(0, len(body)))
        body = (
            body[:at]
            + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"]))
            + body[at:]
        )
    elif mangle == "bom":
        body = b"\xef\xbb\xbf" + body
    return body, secrets


DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Son", "mon"]
LONG_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Sundae"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "jan", "Foo"]


@st.composite
def retry_after(draw: st.DrawFn) -> str:
    """``Retry-After`` in every form: seconds, the three date forms with fields in and out of range, junk."""
    two = st.integers(0, 99).map(lambda n: f"{n:02d}")
    day, hh, mm, ss = (
        draw(st.sampled_from(["00", "01", "28", "29", "30", "31", "32"])),
        draw(two),
        draw(two),
        draw(two),
    )
    year = draw(st.sampled_from(["0000", "0001", "1900", "1970", "2000", "2024", "2100", "9999"]))
    month, name = draw(st.sampled_from(MONTHS)), draw(st.sampled_from(DAYS))
    clock = f"{hh}:{mm}:{ss}"
    forms = [
        f"{name}, {day} {month} {year} {clock} GMT",
        f"{draw(st.sampled_from(LONG_DAYS))}, {day}-{month}-{year[2:]} {clock} GMT",
        f"{name} {month} {day if day[0] != '0' else ' ' + day[1]} {clock} {year}",
        f"{name} {month} {day} {clock} {year}",
        str(draw(st.integers(0, 10**17))),
        draw(st.text(max_size=30)),
    ]
    value = draw(st.sampled_from(forms))
    return draw(
        st.sampled_from([value, " " + value, value + " ", value.replace(" ", "  ", 1), value.lower()])
    )


statuses = st.sampled_from([0, 200, 400, 401, 403, 404, 409, 429, 499, 500, 502, 503, 504, 599, 600, 999])


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
