"""A number in a text (docs/sdk-contract.md section 2c): plain decimal, shortest digits, as in TypeScript."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mitos_errors._bounded import cut_note
from mitos_errors._fields import plain_number

PLAIN = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?")

# The same table is in ts-sdk/tests/numbers.test.ts: both SDKs write each number alike.
TABLE = [
    (1e-05, "0.00001"),
    (0.1, "0.1"),
    (2500, "2500"),
    (2500.5, "2500.5"),
    (1e21, "1000000000000000000000"),
    (1e-07, "0.0000001"),
    (-1.5e-07, "-0.00000015"),
    (123456.789, "123456.789"),
    (-0.0, "0"),
    (0, "0"),
]


@pytest.mark.parametrize(("value", "text"), TABLE)
def test_the_contracts_examples(value: float, text: str) -> None:
    assert plain_number(value) == text


@given(st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(10**30), 10**30))
def test_plain_decimal_that_reads_back_as_the_same_number(value: float) -> None:
    text = plain_number(value)
    assert PLAIN.fullmatch(text), text
    assert float(text) == value or (isinstance(value, int) and int(text) == value)
    if isinstance(value, float) and not value.is_integer():
        # The shortest digits: one fraction digit fewer no longer reads back.
        shorter = text[:-1].rstrip(".")
        assert float(shorter) != value or shorter == text


@given(st.floats(min_value=0, max_value=1, exclude_min=True))
def test_the_cut_note_writes_a_sub_millisecond_deadline_in_plain_decimal(ms: float) -> None:
    note = cut_note(ms)
    assert "e" not in note.split("within ")[1], note
    assert note.endswith(f"within {plain_number(ms)} ms)")
