"""The token's base64 cores (contract section 2): found at every alignment, never shorter than 3 characters.

A token of one or two UTF-8 bytes has cores of one or two characters, which
base64 text holds by chance: they are not looked for, so base64 text that
holds none of the token's own forms comes out as it would without a token.
A longer token is still hidden inside base64 text at any offset. The forms
are the reference's (testkit.reference_text).
"""

from __future__ import annotations

import base64

from hypothesis import assume, given
from hypothesis import strategies as st
from testkit.oracle import REFERENCE
from testkit.sdk_strategies import PROPERTY

from mitos_errors import sanitize_text
from mitos_errors._sanitize import CORE_MIN_CHARS, token_forms

REDACTION = REFERENCE.cat.sanitizer.redaction
short_tokens = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs", "Cc", "Cf", "Zl", "Zp"]), min_size=1, max_size=2
).filter(lambda t: 1 <= len(t.encode()) <= 2 and t.strip() == t)
long_tokens = st.binary(min_size=3, max_size=24).map(lambda b: base64.b64encode(b).decode())


UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def _own_forms(token: str) -> set[str]:
    """The token, its percent-encodings and its whole base64 and base64url forms: the forms besides cores."""
    raw = token.encode()
    b64 = base64.b64encode(raw).decode().rstrip("=")
    pct = ["".join(chr(b) if b in UNRESERVED else f"%{b:02{case}}" for b in raw) for case in "Xx"]
    return {token, *pct, b64, b64.replace("+", "-").replace("/", "_")}


def test_the_rule_is_three_characters() -> None:
    assert CORE_MIN_CHARS == 3
    assert token_forms("b") == ("Yg", "b")  # base64("b") is "Yg==": its core "Y" is not a form
    assert token_forms("bc") == ("YmM", "bc")  # and neither are "Ym", "Yj" or "Jj"


@PROPERTY
@given(token=short_tokens)
def test_a_token_of_one_or_two_bytes_has_no_core(token: str) -> None:
    forms = token_forms(token)
    assert list(forms) == REFERENCE.token_forms(token)
    assert set(forms) <= _own_forms(token), set(forms) - _own_forms(token)


@PROPERTY
@given(token=short_tokens, blob=st.binary(min_size=600, max_size=3000))
def test_base64_text_without_the_tokens_own_forms_is_left_as_it_would_be(token: str, blob: bytes) -> None:
    text = base64.b64encode(blob).decode()
    assume(not any(form in text for form in _own_forms(token)))
    assert sanitize_text(text, token=token) == sanitize_text(text) == REFERENCE.sanitize(text, token)


@PROPERTY
@given(
    token=long_tokens,
    before=st.binary(max_size=8),
    after=st.binary(max_size=8),
    urlsafe=st.booleans(),
)
def test_a_longer_token_is_hidden_inside_base64_at_every_offset(
    token: str, before: bytes, after: bytes, urlsafe: bool
) -> None:
    encode = base64.urlsafe_b64encode if urlsafe else base64.b64encode
    text = encode(before + token.encode() + after).decode()
    out = sanitize_text(text, token=token)
    assert out == REFERENCE.sanitize(text, token)
    assert REDACTION in out
    k = len(before) % 3
    start, end = -(-8 * k // 6), (8 * k + 8 * len(token.encode())) // 6
    core = encode(bytes(k) + token.encode() + bytes(2)).decode()[start:end]
    assert core not in out.replace(REDACTION, "\0")
