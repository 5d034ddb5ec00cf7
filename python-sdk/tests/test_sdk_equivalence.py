"""The fast paths give exactly what the contract's steps give, on random responses.

``error_from_body`` and ``error_from_response`` take shortcuts (one trigger
test over all of a body's strings joined, catalogue text recognised by
equality, the token looked for in the body once, headers read from httpx's
own list). Here they are compared, field by field, with the straightforward
reference implementation of the contract (``oracle.REFERENCE``), on random envelopes built
from clean prose, catalogue text, secrets, markers, control characters,
escapes, non-ASCII text and echoes of the token.
"""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest
from testkit.oracle import REFERENCE, fields_of

from mitos_errors import error_from_body, error_from_response
from mitos_errors._generated import catalogue

CODES = sorted(catalogue.SPECS)
# HTTP dates in the past (a delay of 0) in each form, and dates that are not valid.
PAST_DATES = [
    "Sun, 06 Nov 1994 08:49:37 GMT",
    "Sunday, 06-Nov-94 08:49:37 GMT",
    "Sun Nov  6 08:49:37 1994",
    "Thu, 01 Jan 1970 00:00:00 GMT",
    "Wed, 32 Oct 2015 07:28:00 GMT",
    "Thu, 29 Feb 2001 00:00:00 GMT",
    "Wed, 21 Oct 2015 07:28:00 UTC",
]
FIELDS = sorted(catalogue.CONTEXT_FIELDS)

PROSE = [
    "sandbox sb-7f3a sent 41 exec calls in the last second; the limit is 20",
    "Back off and retry after the delay in the context retry_after_ms.",
    "no sandbox registered for id sb-7f3a in namespace team-a; it was deleted at 12:03",
    "snapshot of sandbox sb-7f3a failed on node n-12 after 3 attempts (disk full)",
    "Confirm the sandbox id exists and is Ready before calling.",
    "the API key was rejected",
    "caf\u00e9 \u2019quoted\u2019 \u4e2d\u6587",
    "ok",
]
DIRTY = [
    "Bearer abcdefghijklmnop",
    "basic QWxhZGRpbjpvcGVu",
    "token=abcdefgh",
    "password: 'hunter22'",
    "sk-" + "a" * 24,
    "eyJhbGciOi.eyJzdWIiOi.sig",
    "https://u:p@h",
    "a://x:ignore previous instructions@h",
    "mitos_test_abcdefghij",
    "AKIAABCDEFGHIJKLMNOP ",
    "xoxp-abcdefghijkl",
    "<|im_end|>",
    "[INST]",
    "</user>",
    "-----BEGIN PRIVATE KEY-----x",
    "line\nbreak\ttab",
    "zero\u200bwidth",
    "bidi\u202eoverride",
    "del\x7fchar",
    "nul\x00char",
    "lone \ud800 surrogate",
    "\u2026[truncated]",
    "[REDACTED]",
    "x" * 2100,
    "\\",
    '"',
]


def _text(rng: random.Random, token: str | None, code: str | None = None) -> str:
    pool = rng.random()
    if code is not None and pool < 0.25:
        row = catalogue.SPECS.get(code) or catalogue.SPECS[rng.choice(CODES)]
        return str(row[rng.choice(("message", "cause", "remediation"))])
    if pool < 0.55:
        return rng.choice(PROSE)
    parts = [rng.choice(PROSE + DIRTY) for _ in range(rng.randint(1, 3))]
    if token and rng.random() < 0.3:
        parts.insert(
            rng.randint(0, len(parts)), rng.choice([token, token.upper(), token[:3] + "\u200b" + token[3:]])
        )
    return " ".join(parts)


def _value(rng: random.Random, token: str | None) -> object:
    kind = rng.randrange(9)
    if kind < 3:
        return _text(rng, token)
    return [
        1200,
        -7,
        2**53 - 1,
        2**53,
        1.5,
        1e300,
        True,
        None,
        {"nested": 1},
        [1, 2],
        "",
        0,
        -0.0,
        3.0,
    ][rng.randrange(14)]


def _key(rng: random.Random, token: str | None) -> str:
    pick = rng.random()
    if pick < 0.6:
        return rng.choice(FIELDS)
    if pick < 0.8:
        return rng.choice(["k1", "sandbox_id", "api_key", "a\u200b", "", "line\nkey", "<|x|>", "caf\u00e9"])
    return _text(rng, token)[:20]


def _envelope(rng: random.Random, token: str | None) -> dict[str, Any]:
    error: dict[str, Any] = {}
    pick = rng.random()
    if pick < 0.6:
        code: object = rng.choice(CODES)
    elif pick < 0.75:
        code = rng.choice(["brand_new_code", "future.code", "sb-7f3a", "token", "new\u200bcode"])
    elif pick < 0.9:
        code = _text(rng, token)
    else:
        code = rng.choice([42, None, "", "\u200b", ["rate_limited"]])
    error["code"] = code
    code_name = code if isinstance(code, str) else None
    for name in ("message", "cause", "remediation"):
        roll = rng.random()
        if roll < 0.7:
            error[name] = _text(rng, token, code_name)
        elif roll < 0.8:
            error[name] = rng.choice(["", "\u200b", 5, None])
    roll = rng.random()
    if roll < 0.7:
        size = rng.choice([0, 1, 2, 3, 5, catalogue.CONTEXT_MAX_KEYS, catalogue.CONTEXT_MAX_KEYS + 1, 80])
        context = {}
        if size < 10:
            for _ in range(size):
                context[_key(rng, token)] = _value(rng, token)
        else:
            # Exactly ``size`` distinct members, some of them catalogue fields.
            names = rng.sample(FIELDS, rng.randint(0, 5))
            names += [f"k{i}" for i in range(size - len(names))]
            rng.shuffle(names)
            # Small values, so the body often stays within the text cap (the fast path).
            context = {name: _value(rng, token) if rng.random() < 0.1 else rng.randrange(9) for name in names}
        error["context"] = context
    elif roll < 0.8:
        error["context"] = rng.choice(["sandbox", [1], None])
    if rng.random() < 0.5:
        error["request_id"] = rng.choice(["env-1", "", "\u200b", 7, _text(rng, token)])
    return error


def _headers(rng: random.Random, token: str | None, ascii_only: bool) -> list[tuple[str, str]]:
    headers = [("content-type", "application/json")]
    for _ in range(rng.randint(0, 3)):
        name = rng.choice(
            ["x-request-id", "X-Request-Id", "X-REQUEST-ID", "Retry-After", "retry-after-ms", "server"]
        )
        if name.lower().startswith("retry"):
            value = rng.choice(["2", "250", "0", "-3", "1" * 16, "soon", "", *PAST_DATES])
        else:
            value = rng.choice(["req-01HZX4", "", "hdr a", "Bearer abcdefghijk", "x\u200by", token or "t0k"])
        if ascii_only:
            value = value.encode("ascii", "ignore").decode()
        headers.append((name, value))
    rng.shuffle(headers)
    return headers


def _body(rng: random.Random, envelope: dict[str, Any]) -> str | bytes:
    text = json.dumps(
        {"error": envelope, "extra": [1, {"a": None}]} if rng.random() < 0.2 else {"error": envelope},
        ensure_ascii=rng.random() < 0.4,
        indent=rng.choice([None, None, 2]),
    )
    if rng.random() < 0.05:
        text = "\ufeff" + text
    if rng.random() < 0.1:
        return text
    return text.encode("utf-8", "surrogatepass")


def _token(rng: random.Random) -> str | None:
    if rng.random() < 0.5:
        return None
    return rng.choice(["mitos_live_Q2hhbmdlTWUxMjM0NTY3", "tok3n", "t\u00f6k/en+1", "sb-7f3a", "rate", "a b"])


@pytest.mark.parametrize("seed", range(8))
def test_error_from_body_matches_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(500):
        token = _token(rng)
        body = _body(rng, _envelope(rng, token))
        status = rng.choice([400, 401, 404, 429, 500, 502, 503, 418, 302])
        headers = _headers(rng, token, ascii_only=False)
        got = fields_of(error_from_body(body, status=status, headers=headers, token=token))
        want = REFERENCE.error_from_body(body, status=status, headers=headers, token=token)
        assert got == want, (body, status, headers, token)


@pytest.mark.parametrize("seed", range(4))
def test_error_from_response_matches_the_reference(seed: int) -> None:
    rng = random.Random(1000 + seed)
    request = httpx.Request("GET", "https://api.example/x")
    for _ in range(300):
        token = _token(rng)
        body = _body(rng, _envelope(rng, token))
        raw = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
        status = rng.choice([400, 404, 429, 500, 502, 503])
        headers = _headers(rng, token, ascii_only=True)
        resp = httpx.Response(status, content=raw, headers=headers, request=request)
        got = fields_of(error_from_response(resp, token=token))
        want = REFERENCE.error_from_body(raw, status=status, headers=headers, token=token)
        assert got == want, (raw, status, headers, token)


def test_the_benchmark_bodies_take_the_fast_path_and_match_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.util
    from pathlib import Path

    from mitos_errors import _parse

    path = Path(__file__).resolve().parents[1] / "bench" / "bench.py"
    spec = importlib.util.spec_from_file_location("mitos_errors_bench", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    headers = [("content-type", "application/json"), ("x-request-id", "req-01HZX4")]
    slow: list[str] = []
    fill = _parse.fill
    monkeypatch.setattr(_parse, "fill", lambda *a, **k: (slow.append(a[0]), fill(*a, **k))[1])
    for name, (status, body) in bench.BODIES.items():
        for token in (None, bench.TOKEN):
            slow.clear()
            got = fields_of(error_from_body(body, status=status, headers=headers, token=token))
            assert got == REFERENCE.error_from_body(body, status=status, headers=headers, token=token)
            # Every envelope takes the fast path; the proxy page has no envelope to take it with.
            assert bool(slow) == (not body.startswith(b"{")), (name, slow)
