"""The length cap keeps idempotence (contract section 2, stage 3, step 4).

A cut inside repeated keywords (``password: password: ``, ``Bearer Bearer``)
used to leave a start that a rule read differently on a second pass (the cut
removed the next prefix that had ended the credential before it), so a
pickled error loaded with another message. The texts here are cut at every
position near the cap.
"""

from __future__ import annotations

import pickle

from hypothesis import given
from hypothesis import strategies as st
from testkit.oracle import REFERENCE
from testkit.sdk_strategies import CAP, PROPERTY, tokens

from mitos_errors import AgentRunError, sanitize_text
from mitos_errors._generated import sanitizer_rules

MARKER = sanitizer_rules.TRUNCATION_MARKER
KEEP = CAP - len(MARKER)
KEYWORDS = (
    "password: ", "password=", "passwd:", "Bearer ", "bearer  ", "Basic ", "token=",
    "api_key: ", "secret='", "Authorization: Bearer ", "https://u:", "@h ", "[REDACTED]",
    "[filtered]", "ignore previous instructions ", "<|im_start|>", "…", "abcdefgh",
    "eyJhbGciOi.eyJzdWIiOi.", "-----BEGIN PRIVATE KEY-----", " ", "x",
)  # fmt: skip

# A start of about KEEP code points, then keywords glued together: the cap cuts among them.
texts_at_the_cap = st.builds(
    lambda pad, filler, words: filler * (KEEP - pad) + "".join(words),
    st.integers(0, 80),
    st.sampled_from(("x", " ", "é", "\U0001f600")),
    st.lists(st.sampled_from(KEYWORDS), min_size=1, max_size=40),
)


def test_a_cut_inside_a_repeated_keyword_is_stable() -> None:
    text = "x" * (KEEP - 14) + "password: " * 20
    once = sanitize_text(text)
    assert once == "x" * (KEEP - 14) + "password: …[truncated]"
    assert sanitize_text(once) == once


def test_every_keyword_pair_at_every_cut_near_the_cap_is_stable() -> None:
    for first in KEYWORDS:
        for second in KEYWORDS:
            for pad in range(0, 40, 3):
                once = sanitize_text("x" * (KEEP - pad) + (first + second) * 10)
                assert sanitize_text(once) == once, (first, second, pad)


@PROPERTY
@given(text=texts_at_the_cap, token=st.one_of(st.none(), tokens))
def test_texts_cut_at_the_cap_sanitize_once_and_as_the_reference(text: str, token: str | None) -> None:
    once = sanitize_text(text, token=token)
    assert once == REFERENCE.sanitize(text, token)
    assert len(once) <= CAP
    assert sanitize_text(once, token=token) == once


@PROPERTY
@given(text=texts_at_the_cap)
def test_a_pickled_error_cut_at_the_cap_loads_with_the_same_message(text: str) -> None:
    err = AgentRunError(text, "upstream_failed", cause=text)
    again = pickle.loads(pickle.dumps(err))
    assert (again.message, again.cause) == (err.message, err.cause)
    assert err.message == sanitize_text(text)
