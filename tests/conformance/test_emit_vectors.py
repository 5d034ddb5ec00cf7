"""The emit vectors themselves (docs/sdk-contract.md section 6): well-formed, fresh, covering, right.

"Right" is the oracle's (testkit.reference_emit), checked here on the rules a
reader can see in the bytes: pure ASCII compact JSON in the member order,
context keys sorted by code point, numbers as ECMAScript writes them. The
writers (Python, TypeScript, Go, Rust) are held to the vectors elsewhere.
"""

from __future__ import annotations

import json
import re

import pytest

from errcat.model.catalogue import Catalogue
from testkit import emit_vectors, generate_vectors, paths
from testkit.reference_emit import EmitInput, EmitReference, json_number, json_string

VECTORS = emit_vectors.load()
ORDER = ("code", "message", "cause", "remediation", "context", "request_id", "refines")


def test_emit_file_matches_its_schema() -> None:
    data = json.loads(paths.EMIT_VECTORS.read_text(encoding="utf-8"))
    assert emit_vectors.problems(data) == []
    assert data["format"] == emit_vectors.EMIT_FORMAT


def test_emit_file_is_fresh(catalogue: Catalogue) -> None:
    fresh = generate_vectors.render(catalogue, paths.EMIT_VECTORS.name)
    assert paths.EMIT_VECTORS.read_text(encoding="utf-8") == fresh, (
        f"{paths.EMIT_VECTORS.relative_to(paths.REPO)} is stale; run `{generate_vectors.COMMAND}`"
    )


def test_the_schema_refuses_a_body_that_is_not_ascii() -> None:
    data = json.loads(paths.EMIT_VECTORS.read_text(encoding="utf-8"))
    data["vectors"][0]["expected"]["body"] += "\u2028"
    assert emit_vectors.problems(data)


def test_every_server_code_and_surface_has_vectors(catalogue: Catalogue) -> None:
    names = {v.name for v in VECTORS}
    assert len(names) == len(VECTORS)
    for code in catalogue.server_codes:
        assert f"emit/code/{code.code}" in names
        assert f"emit/full/{code.code}" in names
        for override in code.surfaces:
            assert f"emit/surface/{code.code}/{override.surface}" in names
        if code.chain:
            assert f"emit/refines/{code.code}" in names


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v.name)
def test_the_body_is_the_canonical_form(
    vector: emit_vectors.EmitVector, catalogue: Catalogue
) -> None:
    body = vector.expected.body
    assert re.fullmatch(r"[\x20-\x7e]*", body)
    assert not body.endswith("\n")
    assert len(body.encode()) <= catalogue.limits.error_body_max_bytes
    parsed = json.loads(body)
    assert list(parsed) == ["error"]
    members = list(parsed["error"])
    assert members == [m for m in ORDER if m in members]
    error = parsed["error"]
    assert catalogue.code(error["code"]).http == vector.expected.status
    for name in ("cause", "context", "request_id"):
        assert error.get(name, 1), f"{name} is written empty"
    names = [name for name, _ in vector.expected.headers]
    assert names == sorted(names)
    assert ("content-type", "application/json") in vector.expected.headers

    def sorted_keys(value: object) -> None:
        if isinstance(value, dict):
            assert list(value) == sorted(value)
            for item in value.values():
                sorted_keys(item)
        elif isinstance(value, list):
            for item in value:
                sorted_keys(item)

    sorted_keys(error.get("context"))


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (30, "30"),
        (30.0, "30"),
        (30.5, "30.5"),
        (1e-7, "1e-7"),
        (1e-6, "0.000001"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (123456789012345680000, "123456789012345680000"),
        (-0.0, "0"),
        (2**53 + 1, "9007199254740992"),
        (0.1 + 0.2, "0.30000000000000004"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (-1.5e-9, "-1.5e-9"),
        (10**400, "1e400"),
        (-(10**400), "-1e400"),
        (float("inf"), "1e400"),
    ],
)
def test_numbers_are_written_as_ecmascript_writes_them(value: float, text: str) -> None:
    assert json_number(value) == text


def test_strings_escape_everything_outside_printable_ascii() -> None:
    assert json_string('<>&"\\\n\t\x7f\u2028\U0001f600') == (
        '"<>&\\"\\\\\\n\\t\\u007f\\u2028\\ud83d\\ude00"'
    )


def test_a_value_that_is_not_json_is_dropped_and_nan_too(catalogue: Catalogue) -> None:
    ref = EmitReference(catalogue)
    given = EmitInput(
        "not_found", context={"a": object(), "b": float("nan"), "c": [1, {2}], "d": 1}
    )
    body = json.loads(ref.emit(given).body)
    assert body["error"]["context"] == {"c": [1], "d": 1}
