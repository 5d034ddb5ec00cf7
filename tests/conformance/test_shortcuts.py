"""Each SDK's sanitizer shortcuts give what the one reference gives, on texts dense with secrets.

The SDKs skip work the contract's algorithm does not need (a trigger
automaton, skipped rules, a body-level token check, trusted catalogue text,
cached token forms); the reference (testkit.reference) runs every step on
every text. Each test builds its inputs here (deterministically, or with
Hypothesis in batches), asks each
SDK through its testee (one process per SDK and test, requests answered in
order, so a cached form is reused across them) and compares each answer with
the reference's, field by field.
"""

from __future__ import annotations

import base64
import json
import random
import re
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.cli import load_model
from errcat.model.catalogue import Catalogue
from testkit import paths, testees
from testkit.record import Record
from testkit.reference import Reference
from testkit.sdk_strategies import hostile_text, tokens

BEARER_TOKEN = "mitos_live_Q2hhbmdlTWUxMjM0NTY3"
TOKENS: tuple[str | None, ...] = (
    None,
    BEARER_TOKEN,
    "abcdefgh",
    "tok/with+odd=chars~\u00fc",
    "abc\u200bdef",
    "D]]zz",
    "[RED",
    "ED]x",
    "RED",
    "d]",
    "ab cd",
    "token",
    "sb-7f3a",
    "sandbox",
    "x",
)
"""Tokens of every kind: plain, URL-reserved and non-ASCII, split by step 1, made of marker characters, tiny."""


@cache
def catalogue() -> Catalogue:
    return load_model(paths.CATALOGUE, paths.REPO)


@cache
def reference() -> Reference:
    return Reference(catalogue())


@cache
def pieces() -> tuple[str, ...]:
    """Pieces of text: triggers, secrets, markers, step-1 characters, and pieces of the tokens."""
    san = catalogue().sanitizer
    return (
        *("a", "Z", " ", "\n", "\t", "\x00", "\x7f", "\u200b", "\u202e", "\x85", "\u2028"),
        *("\U0001f600", "\ud800", "\u00e9", "\u212a", "\u0130", "=", ":", "@", "/", "//"),
        *("-", "_", "[", "]", "%", "+", "~", "Bearer ", "Basic ", "bearer", "password="),
        *("token: ", "api_key=", "https://", "u:", "p@", "sk-", "abcdefghijklmnopqrstuvwx"),
        *("eyJabcd.efgh.", "mitos_live_", "mitos_test_", "12345678", "<|", "|>", "im_end"),
        *("[INST]", "<<SYS>>", "<system>", "ignore ", "previous ", "instructions"),
        *("-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----", "\u2026", "[truncated]"),
        *(san.redaction, san.filtered, san.truncation_marker, "RED", "ACTED", "D]", "]zz"),
        *("zz", "ab", "cd", "def", "abc", "efgh", BEARER_TOKEN, BEARER_TOKEN[:12]),
        *("Q2hhbmdlTWUx", base64.b64encode(BEARER_TOKEN.encode()).decode().rstrip("=")),
        *("tok%2Fwith%2Bodd%3Dchars~%C3%BC", "tok%2fwith%2bodd%3dchars~%c3%bc", "sb-7f3a"),
        *("sandbox ", "retry_after_ms"),
    )


def random_text(rng: random.Random, most: int) -> str:
    return "".join(rng.choice(pieces()) for _ in range(rng.randrange(most)))


def _answers(language: str, requests: list[dict[str, Any]]) -> list[Record]:
    return testees.run(language, requests, class_names=testees.typescript_class_names(catalogue()))


@cache
def _reference_sanitize(text: str, token: str | None) -> str:
    """The reference's answer, computed once for every language that is asked."""
    return reference().sanitize(text, token)


def _sanitized(language: str, cases: list[tuple[str, str | None]]) -> list[str]:
    wrong = []
    requests = [{"op": "sanitize", "text": t, "token": tok} for t, tok in cases]
    for (text, token), got in zip(cases, _answers(language, requests), strict=True):
        want = _reference_sanitize(text, token)
        if got.get("text") != want:
            wrong.append(f"{json.dumps([text[:200], token])}: {got!r} != {want!r}")
    return wrong


@pytest.mark.parametrize("language", testees.LANGUAGES)
def test_sanitize_text_on_texts_dense_with_secrets(language: str) -> None:
    """Hundreds of covers, some overlapping; prefixes whose rules cover the start of the next."""
    rng = random.Random(20261202)
    dense = ("basic password=", "basic secret:", "Basic token=", "bearer basic api_key=")
    dense += ("Bearer abcdefgh ", "sk-", "=", " ")
    cap = catalogue().limits.text_max_chars
    cases = []
    for i in range(60):
        size = 300 + rng.randrange(cap - 400)  # within the cap, so that every cover shows
        text = ""
        while len(text) < size:
            if rng.randrange(24) == 0:
                text += rng.choice(pieces())
            else:
                text += dense[
                    rng.randrange(len(dense)) if rng.randrange(8) == 0 else rng.randrange(3)
                ]
        cases.append((text, TOKENS[i % len(TOKENS)]))
    assert _sanitized(language, cases) == []


@pytest.mark.parametrize("language", testees.LANGUAGES)
def test_sanitize_text_on_random_texts_with_every_token(language: str) -> None:
    rng = random.Random(20261130)
    cap = catalogue().limits.text_max_chars
    cases = []
    for i in range(6000):
        text = random_text(rng, 30)
        if i % 25 == 0:
            text = "y" * (cap - rng.randrange(40)) + text
        cases.append((text, TOKENS[i % len(TOKENS)]))
    wrong = _sanitized(language, cases)
    assert wrong == [], "\n".join(wrong[:10])


@pytest.mark.parametrize("language", testees.LANGUAGES)
def test_alternating_tokens_never_reuse_another_tokens_forms(language: str) -> None:
    text = f"a {BEARER_TOKEN} b abcdefgh c D]]zz d"
    assert _sanitized(language, [(text, token) for _ in range(50) for token in TOKENS]) == []


def _raw_safe(text: str) -> str:
    """``text`` as a body may hold it unescaped: no quote, backslash, control character or lone surrogate."""
    text = re.sub(r'["\\\x00-\x1f]', "", text)
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "ignore")


def _body(rng: random.Random, token: str | None, raw: bool) -> tuple[str, dict[str, Any]]:
    codes = ("internal", "rate_limited", "not_found", "brand_new", "sk-abcdefghijklmnopqrstu")

    def pick() -> str:
        text = random_text(rng, 12)
        return _raw_safe(text) if raw else text

    code = pick() if rng.randrange(4) == 0 else rng.choice(codes)
    entry = next((c for c in catalogue().codes if c.code == code), None)
    fields = {
        "code": code,
        "message": entry.message if entry is not None and rng.randrange(5) == 0 else pick(),
        "cause": pick(),
        "remediation": entry.remediation if entry is not None and rng.randrange(5) == 0 else pick(),
        "context": {
            (pick() if rng.randrange(3) == 0 else "sandbox"): pick(),
            "retry_after_ms": 5,
            "other": pick(),
        },
        "request_id": pick(),
    }
    if not raw:
        return json.dumps({"error": fields}), fields
    members = ",".join(
        f'"{k}":' + (f'"{v}"' if isinstance(v, str) else str(v))
        for k, v in fields["context"].items()
    )
    body = (
        f'{{"error":{{"code":"{code}","message":"{fields["message"]}","cause":"{fields["cause"]}",'
        f'"remediation":"{fields["remediation"]}","context":{{{members}}},'
        f'"request_id":"{fields["request_id"]}"}}}}'
    )
    assert "\\" not in body
    return body, fields


COMPARED = ("class", "code", "message", "cause", "remediation", "context", "request_id", "status")


@cache
def _body_cases() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """2500 body requests, and the reference's fields for each (made once for every language)."""
    rng = random.Random(7)
    requests = []
    for i in range(2500):
        token = TOKENS[i % len(TOKENS)]
        body, _ = _body(rng, token, raw=i % 2 == 0)
        header = random_text(rng, 12) if rng.randrange(3) == 0 else None
        headers = {} if header is None else {"x-request-id": re.sub(r"[^\x20-\x7e]", "", header)}
        status = rng.choice((429, 404, 500, 418))
        encoded = body.encode("utf-8", "surrogatepass")
        as_bytes = rng.randrange(4) == 0 and b"\xed" not in encoded  # a lone surrogate has no bytes
        compact = {"base64": base64.b64encode(encoded).decode()} if as_bytes else {"text": body}
        requests.append(
            {"op": "body", "status": status, "headers": headers, "token": token, "body": compact}
        )
    wants = []
    for request in requests:
        body = request["body"]
        value = base64.b64decode(body["base64"]) if "base64" in body else body["text"]
        wants.append(
            reference().error_from_body(
                value, status=request["status"], headers=request["headers"], token=request["token"]
            )
        )
    return requests, wants


@pytest.mark.parametrize("language", testees.LANGUAGES)
def test_error_from_body_gives_the_references_fields_whichever_shortcut_applies(
    language: str,
) -> None:
    """Half the bodies hold their strings as they are (the body-level token check applies), half escaped."""
    requests, wants = _body_cases()
    wrong = []
    for request, want, got in zip(requests, wants, _answers(language, requests), strict=True):
        for name in COMPARED:
            if got.get(name) != want[name]:
                wrong.append(f"{name}: {got.get(name)!r} != {want[name]!r} ({request})")
    assert wrong == [], "\n".join(wrong[:10])


@pytest.mark.parametrize("language", testees.LANGUAGES)
def test_a_form_a_replacement_makes_is_redacted_even_when_the_body_did_not_hold_it(
    language: str,
) -> None:
    """ "Bearer abcdefg]zz" becomes "Bearer [REDACTED]]zz", which holds the token "D]]zz"."""
    redaction = catalogue().sanitizer.redaction
    expected = reference().sanitize("Bearer abcdefg]zz", "D]]zz")
    assert expected == "Bearer [REDACTE" + redaction
    assert reference().sanitize("<|im_start|>x", "d]x") == "[filtere" + redaction
    body = '{"error":{"code":"internal","message":"Bearer abcdefg]zz","context":{"k":"Bearer abcdefg]zz"}}}'
    filtered = '{"error":{"code":"internal","cause":"<|im_start|>x"}}'
    requests = [
        {"op": "body", "status": 500, "token": "D]]zz", "body": {"text": body}},
        {"op": "body", "status": 500, "token": "d]x", "body": {"text": filtered}},
    ]
    first, second = _answers(language, requests)
    assert (first["message"], first["context"]["k"]) == (expected, expected)
    assert second["cause"] == "[filtere" + redaction


# Python's error_for_code takes neither a token nor a request id: TypeScript's does.
@pytest.mark.parametrize("language", ["typescript"])
def test_error_for_code_sanitizes_every_given_text_as_the_reference_does(language: str) -> None:
    rng = random.Random(99)
    entry = catalogue().code("not_found")
    requests = []
    for i in range(1500):
        message, cause, remediation, value, request_id = (random_text(rng, 10) for _ in range(5))
        requests.append(
            {"op": "error_for_code", "code": "not_found", "message": message, "cause": cause}
            | {"remediation": remediation, "context": {"sandbox": value}}
            | {"request_id": request_id, "token": TOKENS[i % len(TOKENS)]}
        )
    ref, wrong = reference(), []
    for r, got in zip(requests, _answers(language, requests), strict=True):
        token = r["token"]
        kept = ref.sanitize("sandbox", token) == "sandbox"
        want = {
            "message": ref.sanitize(r["message"], token) or entry.message,
            "cause": ref.sanitize(r["cause"], token) or entry.cause,
            "remediation": ref.sanitize(r["remediation"], token) or entry.remediation,
            "context": {"sandbox": ref.sanitize(r["context"]["sandbox"], token)} if kept else {},
            "request_id": ref.sanitize(r["request_id"], token) or None,
        }
        wrong += [f"{k}: {got.get(k)!r} != {v!r} ({r})" for k, v in want.items() if got.get(k) != v]
    assert wrong == [], "\n".join(wrong[:10])


def test_the_references_forms_are_the_contracts() -> None:
    """The token, its percent-encodings, base64 and base64url (and their cores), longest first; none inside a marker."""
    # "YS9i" is the base64 and the core at alignment 0; "EvY" and "hL2" the cores after one and two bytes.
    assert reference().token_forms("a/b") == ["a%2Fb", "a%2fb", "YS9i", "a/b", "EvY", "hL2"]
    assert reference().token_forms("\u200b") == []
    assert reference().token_forms("RED") == ["UkVE", "JFR", "SRU"]


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_hostile_texts_sanitize_as_the_reference_in_both_sdks(data: st.DataObject) -> None:
    """Hostile texts (every Unicode category, secrets and markers with invisible characters inside)."""
    cases = []
    for _ in range(80):
        token = data.draw(st.none() | tokens)
        text, _ = data.draw(hostile_text(token))
        # The text every language reads: a high surrogate followed by a low one is
        # one astral character in a JavaScript string, so Python reads it as one too.
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
        cases.append((text, token))
    for language in testees.LANGUAGES:
        wrong = _sanitized(language, cases)
        assert wrong == [], f"{language}: " + "\n".join(wrong[:5])
