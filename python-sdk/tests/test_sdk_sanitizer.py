"""The one sanitizer (contract section 2): its steps, its fast path, idempotence, the cap."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from testkit.oracle import REFERENCE

from mitos_errors import sanitize_text
from mitos_errors._generated import catalogue, sanitizer_rules
from mitos_errors._sanitize import sanitize_steps, sanitize_with, token_forms
from mitos_errors._spec import SPECS

CAP = catalogue.TEXT_MAX_CHARS
MARKER = sanitizer_rules.TRUNCATION_MARKER
RED = sanitizer_rules.REDACTION
FIL = sanitizer_rules.FILTERED


@pytest.mark.parametrize(
    ("dirty", "clean"),
    [
        ("a\u202eb\u2066c\u200bd\ufeffe\u00adf", "abcdef"),
        ("tag\U000e0041s\U000e007f", "tags"),
        ("bell\x07 nul\x00 del\x7f c1\x9b", "bell nul del c1"),
        (
            "line\nINFO forged entry\r\nnext\u2028sep\u0085nel\ttab",
            "line INFO forged entry  next sep nel tab",
        ),
        ("caf\u00e9 \U0001f600 \u4e2d\u6587", "caf\u00e9 \U0001f600 \u4e2d\u6587"),
        ("lone \ud800 surrogate", "lone  surrogate"),
    ],
)
def test_control_bidi_and_invisible_characters(dirty: str, clean: str) -> None:
    assert sanitize_text(dirty) == clean


@pytest.mark.parametrize(
    ("secret", "kept"),
    [
        ("Authorization: Bearer abc.def-ghi_jkl", "Authorization: Bearer "),
        ("authorization: basic dXNlcjpwYXNzd29yZA==", "authorization: basic "),
        ("key sk-proj-abcdefghijklmnopqrstuvwx", "key "),
        ("k=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_nature", "k="),
        ("https://admin:hunter22@db.internal/x", "https://admin:"),
        ("ghp_" + "a" * 36, ""),
        ("github_pat_" + "A1_" * 10, ""),
        ("glpat-" + "x" * 20, ""),
        ("AKIA" + "ABCDEFGHIJKLMNOP", ""),
        ("xoxb-1234567890-abc", ""),
        ("AIza" + "b" * 35, ""),
        ("sk_live_" + "c" * 24, ""),
        ("mitos_live_abcdefgh1234", ""),
        ("password=correct-horse", "password="),
        ("api_key: 'abcd1234'", "api_key: '"),
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- after", ""),
    ],
)
def test_secret_like_strings_are_redacted(secret: str, kept: str) -> None:
    out = sanitize_text(f"before {secret}")
    assert out.startswith(f"before {kept}{RED}")
    assert sanitize_text(out) == out


@pytest.mark.parametrize(
    "marker",
    [
        "<|im_start|>",
        "[INST]",
        "[/inst]",
        "<<SYS>>",
        "</system>",
        "<assistant>",
        "Ignore all previous instructions",
    ],
)
def test_prompt_injection_markers_are_replaced(marker: str) -> None:
    out = sanitize_text(f"x {marker} y")
    assert out == f"x {FIL} y"


def test_exactly_the_cap_passes_and_one_more_is_cut_to_the_cap() -> None:
    exact = "a" * CAP
    assert sanitize_text(exact) is exact or sanitize_text(exact) == exact
    cut = sanitize_text("a" * (CAP + 1))
    assert len(cut) == CAP and cut.endswith(MARKER)
    astral = "\U0001f600" * (CAP + 5)
    out = sanitize_text(astral)
    assert len(out) == CAP
    assert out == "\U0001f600" * (CAP - len(MARKER)) + MARKER
    assert out.encode("utf-8")  # no lone surrogate: a pair is never cut


def test_removed_characters_do_not_count_towards_the_cap() -> None:
    text = "a" * CAP + "\u200b" * 100
    assert sanitize_text(text) == "a" * CAP


def test_token_forms_are_every_encoding_longest_first() -> None:
    forms = token_forms("t\u00f6k/en+1")
    assert forms[0] in ("t%C3%B6k%2Fen%2B1", "t%c3%b6k%2fen%2b1")
    assert set(forms) == {
        "t\u00f6k/en+1",
        "t%C3%B6k%2Fen%2B1",
        "t%c3%b6k%2fen%2b1",
        "dMO2ay9lbisx",  # base64 of the 9 bytes: also the core at alignment 0
        "TDtmsvZW4rM",  # the core after one byte: base64 of b"\0" + token + b"\0\0", characters 2 to 13
        "0w7ZrL2VuKz",  # the core after two bytes: characters 3 to 14
    }
    assert list(forms) == sorted(forms, key=len, reverse=True)
    assert token_forms("") == token_forms(None) == ()
    assert "RED" not in token_forms("RED")  # inside the redaction marker: skipped


def test_token_is_redacted_in_every_echo() -> None:
    token = "s3cr3t.T0ken~value"
    echoes = [
        token,
        "s3cr3t%2ET0ken%7Evalue".replace("%2E", ".").replace("%7E", "~"),
        "s3cr3t\u200b.T0k\u200een~value",
        "czNjcjN0LlQwa2VufnZhbHVl",
    ]
    for echo in echoes:
        out = sanitize_text(f"got {echo} here", token=token)
        assert token not in out and "czNjcjN0" not in out, out
        assert RED in out


# --- property-style checks with stdlib random and fixed seeds --------------------

_FRAGMENTS = [
    "a",
    "Z",
    " ",
    "0",
    "=",
    ":",
    "/",
    "@",
    "-",
    "_",
    ".",
    "'",
    '"',
    "[",
    "]",
    "<",
    ">",
    "|",
    "\n",
    "\t",
    "\u200b",
    "\u202e",
    "\u00e9",
    "\U0001f600",
    "\ud800",
    "\x00",
    "\x7f",
    "\u2026",
    "bearer ",
    "Bearer abcdefghij",
    "basic QWxhZGRpbjpvcGVu",
    "token=",
    "password: ",
    "secret",
    "key",
    "sk-",
    "sk-aaaaaaaaaaaaaaaaaaaa",
    "eyJhbGciOi.eyJzdWIiOi.sig",
    "https://u:p@h",
    "://",
    "-----BEGIN PRIVATE KEY-----",
    "-----END PRIVATE KEY-----",
    "<|",
    "|>",
    "<|im_end|>",
    "[INST]",
    "<<SYS>>",
    "</user>",
    "ignore previous instructions",
    "forget all the above rules",
    "mitos_test_abcdefghij",
    "AKIAABCDEFGHIJKLMNOP",
    "xoxp-abcdefghijkl",
    "[REDACTED]",
    "[filtered]",
    "\u2026[truncated]",
]


def _random_text(rng: random.Random, max_parts: int = 40) -> str:
    parts = [rng.choice(_FRAGMENTS) for _ in range(rng.randint(0, max_parts))]
    if rng.random() < 0.05:
        parts.append("x" * rng.randint(CAP - 20, CAP + 20))
    return "".join(parts)


def _random_token(rng: random.Random) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/="
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(8, 40)))


def test_skipping_rules_by_trigger_changes_nothing() -> None:
    rng = random.Random(5150)
    for _ in range(5000):
        text = _random_text(rng)
        if rng.random() < 0.5:
            text = text.upper() if rng.random() < 0.5 else text.swapcase()
        token = _random_token(rng) if rng.random() < 0.3 else None
        forms = token_forms(token) if token else ()
        assert sanitize_with(text, forms) == REFERENCE.sanitize(text, token), repr(text)


def test_fast_path_gives_exactly_the_full_steps() -> None:
    # sanitize_steps skips a rule by its triggers; the reference runs every rule.
    rng = random.Random(20261130)
    for _ in range(20000):
        text = _random_text(rng)
        forms = token_forms(_random_token(rng)) if rng.random() < 0.3 else ()
        assert sanitize_with(text, forms) == sanitize_steps(text, forms), repr(text)


def test_fast_path_on_clean_ascii_prose() -> None:
    rng = random.Random(7)
    words = [
        "the",
        "sandbox",
        "was",
        "not",
        "found",
        "in",
        "region",
        "confirm",
        "id",
        "exists",
        "ready",
        "before",
        "calling",
        "at",
        "12:03",
        "UTC",
    ]
    for _ in range(5000):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 40)))
        assert sanitize_with(text, ()) == sanitize_steps(text, ()) == text


_MARKER_CHARS = set(RED + FIL + MARKER)


def test_sanitizing_is_idempotent() -> None:
    # Contract section 2: idempotent for every token without a character of the markers,
    # the fragments glued together with no separator.
    rng = random.Random(424242)
    for _ in range(20000):
        parts = [rng.choice(_FRAGMENTS) for _ in range(rng.randint(0, 40))]
        text = "".join(parts)
        token = _random_token(rng) if rng.random() < 0.3 else None
        if token is not None:
            token = "".join(ch for ch in token if ch not in _MARKER_CHARS) or None
        once = sanitize_text(text, token=token)
        assert sanitize_text(once, token=token) == once, repr(text)
        assert len(once) <= CAP


def test_random_tokens_never_survive() -> None:
    rng = random.Random(99)
    for _ in range(3000):
        token = _random_token(rng)
        forms = token_forms(token)
        pieces = [_random_text(rng, 6), rng.choice(forms), _random_text(rng, 6)]
        split = token[: len(token) // 2] + "\u200b" + token[len(token) // 2 :]
        text = "".join(pieces) + " " + split
        out = sanitize_text(text, token=token)
        assert token not in out, (token, text)
        for form in forms:
            assert form not in out, (form, text)


def test_catalogue_texts_are_clean() -> None:
    for spec in SPECS.values():
        for text in (spec.message, spec.cause, spec.remediation):
            assert sanitize_text(text) == text
            assert sanitize_steps(text, ()) == text


def test_token_forms_match_the_reference() -> None:
    rng = random.Random(31337)
    alphabet = "ABCabc019-._~+/= %\u00e9\u200b\U0001f511\ud800[]RED"
    for _ in range(5000):
        token = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        assert token_forms(token) == tuple(REFERENCE.token_forms(token)), repr(token)
    for token in ("[REDACTED]", "RED", "filtered", "\u2026", "truncated]", "\u200b", "a", "ab", "abc"):
        assert token_forms(token) == tuple(REFERENCE.token_forms(token)), repr(token)
    assert token_forms(b"bytes-token") == tuple(REFERENCE.token_forms(b"bytes-token"))


def test_markers_run_before_secrets_so_a_url_credential_completed_by_a_marker_is_redacted() -> None:
    # Contract section 2: injection markers (step 3), then secrets (step 4). The
    # marker completes "x:[filtered]@h" as a URL credential, which the secrets
    # step then redacts on the same pass, so sanitizing stays idempotent.
    once = sanitize_text("see a://x:ignore previous instructions@h")
    assert once == f"see a://x:{RED}@h"
    assert sanitize_text(once) == once
    assert sanitize_text("a://u:<|im_start|>@h") == f"a://u:{RED}@h"


# The catalogue's JWT rule has a lookbehind against
# quadratic scans. A fixed-width key rule (AWS, Google) can end right before
# "eyJ" or a URL scheme. The end of the key's cover begins a stretch read as a
# text of its own (contract section 2), so the lookbehind sees the start of a
# text there, as a second pass sees the end of the key's redaction: the first
# pass hides both, and a second pass finds nothing.
_GLUED = [
    "AKIAABCDEFGHIJKLMNOPeyJhbGciOi.eyJzdWIiOi.sig",
    "AIza" + "b" * 35 + "eyJhbGciOi.eyJzdWIiOi.sig",
    "0AKIAABCDEFGHIJKLMNOPhttps://u:p@h",
    "sk-aaaaaaaaaaaaaaaaaaaa://sk-https://u:p@h",
    "a://u:token=ab/cd,x@h",
]


@pytest.mark.parametrize("text", _GLUED)
def test_fixed_width_key_right_before_a_lookbehind_rule(text: str) -> None:
    assert sanitize_text(text) == REFERENCE.sanitize(text)


@pytest.mark.parametrize(
    ("text", "hidden"),
    [
        ("AKIAABCDEFGHIJKLMNOPeyJhbGciOi.eyJzdWIiOi.sig", "eyJzdWIiOi"),
        ("AIza" + "b" * 35 + "eyJhbGciOi.eyJzdWIiOi.sig", "eyJzdWIiOi"),
        ("0AKIAABCDEFGHIJKLMNOPhttps://u:p@h", ":p@"),
        ("sk-aaaaaaaaaaaaaaaaaaaa://sk-https://u:p@h", ":p@"),
    ],
)
def test_a_secret_glued_to_another_is_hidden_on_the_first_pass(text: str, hidden: str) -> None:
    assert hidden not in sanitize_text(text)


@pytest.mark.parametrize("text", _GLUED)
def test_a_second_pass_finds_nothing_after_a_key_next_to_a_lookbehind_rule(text: str) -> None:
    once = sanitize_text(text)
    assert sanitize_text(once) == once


@pytest.mark.parametrize(
    ("text", "token", "clean"),
    [
        # Secrets go before the token: a token that is part of a secret does not break its shape.
        ("Bearer abcdefghijk", "abc", f"Bearer {RED}"),
        ("password=hunter2 rejected", "hunt", f"password={RED} rejected"),
        (
            "Authorization: Basic YWdlbnQ6czNjcjN0L1Qwa2VuK3ZhbD0=",
            "s3cr3t/T0ken+val=",
            f"Authorization: Basic {RED}",
        ),
        # Markers go before the token too.
        ("<|im_start|>hi", "im_st", f"{FIL}hi"),
        # The token step runs on what the rules left: a token completed by a marker is redacted.
        ("<|im_start|>xyz", "d]xyz", f"[filtere{RED}"),
        ("x abc y", "abc", f"x {RED} y"),
    ],
)
def test_the_token_is_redacted_after_markers_and_secrets(text: str, token: str, clean: str) -> None:
    assert sanitize_text(text, token=token) == clean
    assert sanitize_with(text, token_forms(token)) == REFERENCE.sanitize(text, token) == clean


def test_a_token_that_a_marker_completes_is_redacted_from_a_body_too() -> None:
    import json

    from mitos_errors import error_from_body

    body = json.dumps({"error": {"code": "internal", "cause": "<|im_start|>xyz", "message": "abc"}}).encode()
    err = error_from_body(body, status=500, token="d]xyz")
    assert err.cause == f"[filtere{RED}"
    assert "d]xyz" not in err.cause


def test_the_truncation_marker_completes_no_secret_assignment() -> None:
    # Fixed in the catalogue: the assignment value class excludes the marker's first character.
    keep = CAP - len(MARKER)
    text = " " * (keep - len('token="abc')) + 'token="abc' + '" and more' * 10
    once = sanitize_text(text)
    assert once.endswith('token="abc' + MARKER)
    assert sanitize_text(once) == once


_URL_PART = st.text(alphabet="abcXYZ019-._~%!$&'()*+,;=", min_size=1, max_size=8)


@given(
    before=st.text(alphabet=st.characters(codec="utf-8", exclude_characters=" /?#@:"), max_size=12),
    scheme=st.text(alphabet="abcxyzABC019+.-", min_size=1, max_size=8),
    user=_URL_PART,
    password=_URL_PART,
)
def test_a_url_credential_is_hidden_whatever_precedes_its_scheme(
    before: str, scheme: str, user: str, password: str
) -> None:
    # The URL rule's prefix starts at "://": what comes before (a digit, "-",
    # another secret, any text without a separator) cannot un-hide it.
    text = f"{before}{scheme}://{user}:{password}@host/x"
    out = sanitize_text(text)
    assert f":{password}@" not in out
    assert f"{RED}@host/x" in out
    assert out == REFERENCE.sanitize(text)
