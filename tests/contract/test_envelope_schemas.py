"""The envelope schemas: valid 2020-12, the consumer one open to new codes, the strict one closed.

Both schemas are checked against the 2020-12 meta-schema (by check-jsonschema
when it is installed, and by jsonschema). Every docs example, and every
conformance vector body that the SDKs take as sent, validates against both (a
body with an unknown code against the consumer schema only). Generated
envelopes then probe the difference: an unknown code with any context passes
the consumer schema and fails the strict one, and a context value outside a
field's catalogue bounds, or a fraction in an integer field, fails both.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance_kit import paths
from errcat.cli import load_model
from errcat.model import refines
from errcat.model.catalogue import ContextField

SCHEMAS = paths.REPO / "schemas"
CONSUMER, STRICT = "error-envelope.schema.json", "error-envelope.strict.schema.json"
CAT = load_model(paths.CATALOGUE, paths.REPO)
KNOWN = {c.code for c in CAT.codes}
FIXED_DEFS = {"Code", "ErrorObject", "Context", "Recovery", "Origin"}
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


def load(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    return schema


VALIDATORS = {name: jsonschema.Draft202012Validator(load(name)) for name in (CONSUMER, STRICT)}


def valid(name: str, envelope: Any) -> bool:
    return VALIDATORS[name].is_valid(envelope)


def envelope(code: str, **members: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": "m", "remediation": "r", **members}}


@pytest.mark.parametrize("name", [CONSUMER, STRICT])
def test_the_schema_is_valid_2020_12(name: str) -> None:
    schema = load(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    here = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    checker = shutil.which("check-jsonschema", path=here)
    if checker is not None:
        done = subprocess.run(
            [checker, "--check-metaschema", str(SCHEMAS / name)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_ids_are_under_the_project_url_and_versioned_by_the_contract() -> None:
    project = tomllib.loads((paths.REPO / "python-sdk" / "pyproject.toml").read_text("utf-8"))
    home = project["project"]["urls"]["Homepage"]
    assert CAT.url == home
    ids = {name: load(name)["$id"] for name in (CONSUMER, STRICT)}
    for name, found in ids.items():
        assert found == f"{home}/schemas/v{CAT.contract_version}/{name}"
    assert len(set(ids.values())) == 2


@pytest.mark.parametrize("name", [CONSUMER, STRICT])
def test_defs_are_keyed_on_codes_not_class_names(name: str) -> None:
    defs = set(load(name)["$defs"])
    assert defs - FIXED_DEFS == {c.code for c in CAT.codes if c.context}
    classes = {c.class_names[lang] for c in CAT.codes for lang in c.class_names}
    assert not {d for d in defs if d.endswith("Context") or d in classes} - FIXED_DEFS


def docs_examples() -> list[tuple[str, Any]]:
    docs = (paths.REPO / "docs" / "errors.md").read_text(encoding="utf-8")
    found = re.findall(r"^### `(\w+)`\n\n.*?\n\n```json\n(.*?)\n```", docs, flags=re.M | re.S)
    return [(code, json.loads(text)) for code, text in found]


@pytest.mark.parametrize("name", [CONSUMER, STRICT])
def test_every_docs_example_validates(name: str) -> None:
    examples = docs_examples()
    assert sorted(code for code, _ in examples) == sorted(KNOWN)
    for code, example in examples:
        assert example["error"]["code"] == code
        errors = [e.message for e in VALIDATORS[name].iter_errors(example)]
        assert not errors, f"the example of {code} fails {name}: {errors}"


def taken_as_sent() -> list[tuple[str, Any]]:
    """Vector bodies that are envelopes the SDKs keep as sent: texts and context unchanged."""
    found = []
    for path in sorted(paths.VECTORS_DIR.glob("*.json")):
        for vector in json.loads(path.read_text(encoding="utf-8"))["vectors"]:
            text = (vector.get("body") or {}).get("text")
            try:
                body = json.loads(text) if isinstance(text, str) else None
            except ValueError:
                continue
            error = body.get("error") if isinstance(body, dict) else None
            if not isinstance(error, dict):
                continue
            expect = vector["expect"]
            kept = ("code", "message", "cause", "remediation", "context")
            if all(key in error and expect.get(key) == error[key] for key in kept):
                found.append((vector["name"], body))
    return found


def test_conformance_envelopes_validate_against_the_schema_of_their_code() -> None:
    bodies = taken_as_sent()
    assert len(bodies) > len(KNOWN), "too few vectors carry a whole envelope"
    for name, body in bodies:
        known = body["error"]["code"] in KNOWN
        assert valid(CONSUMER, body), name
        assert valid(STRICT, body) == known, name
    assert any(body["error"]["code"] not in KNOWN for _, body in bodies)


UNKNOWN_CODES = st.one_of(
    st.from_regex(r"[a-z][a-z0-9_]{0,30}", fullmatch=True), st.text(min_size=1, max_size=20)
).filter(lambda code: code not in KNOWN)


@given(code=UNKNOWN_CODES, context=st.dictionaries(st.text(max_size=12), JSON_VALUES, max_size=6))
def test_an_unknown_code_passes_the_consumer_schema_and_fails_the_strict(
    code: str, context: dict[str, Any]
) -> None:
    body = envelope(code, context=context)
    assert valid(CONSUMER, body)
    assert not valid(STRICT, body)


BOUNDED = [
    (field, code)
    for field in CAT.context_fields
    if field.minimum is not None or field.maximum is not None
    for code in CAT.codes
    if field in code.context
]


def outside(field: ContextField) -> st.SearchStrategy[float]:
    """Numbers of the field's type beyond one of its bounds."""
    number = field.type == "number"
    sides: list[st.SearchStrategy[float]] = []
    if field.minimum is not None:
        sides.append(st.integers(max_value=int(field.minimum) - 1))
        if number:
            sides.append(st.floats(max_value=field.minimum, exclude_max=True, allow_nan=False))
    if field.maximum is not None:
        sides.append(st.integers(min_value=int(field.maximum) + 1))
        if number:
            sides.append(st.floats(min_value=field.maximum, exclude_min=True, allow_nan=False))
    return st.one_of(sides).filter(lambda v: abs(v) != float("inf"))


def inside(field: ContextField) -> st.SearchStrategy[float]:
    low, high = field.minimum, field.maximum
    whole = st.integers(None if low is None else int(low), None if high is None else int(high))
    if field.type == "integer":
        return whole
    return st.one_of(whole, st.floats(low, high, allow_nan=False, allow_infinity=False))


def test_the_catalogue_bounds_the_numbers_that_have_bounds() -> None:
    assert {f.name for f, _ in BOUNDED} >= {"retry_after_ms", "timeout_s", "exit_code"}
    timeout = next(f for f, _ in BOUNDED if f.name == "timeout_s")
    assert timeout.maximum == CAT.limits.max_exec_timeout_s
    assert not valid(STRICT, envelope("rate_limited", context={"retry_after_ms": -5}))
    assert not valid(CONSUMER, envelope("rate_limited", context={"retry_after_ms": -5}))


@given(pair=st.sampled_from(BOUNDED), data=st.data())
def test_a_value_outside_a_fields_bounds_fails_both_schemas(pair: Any, data: st.DataObject) -> None:
    field, code = pair
    bad = data.draw(outside(field))
    good = data.draw(inside(field))
    for name in (CONSUMER, STRICT):
        assert not valid(name, envelope(code.code, context={field.name: bad})), (name, bad)
        assert valid(name, envelope(code.code, context={field.name: good})), (name, good)


@given(data=st.data())
def test_a_fraction_fails_an_integer_field(data: st.DataObject) -> None:
    field, code = data.draw(st.sampled_from([p for p in BOUNDED if p[0].type == "integer"]))
    value = data.draw(
        inside(field)
        .filter(lambda v: abs(v) < 2**50)  # where a double still holds the half
        .map(lambda v: v + 0.5)
        .filter(lambda v: field.maximum is None or v < field.maximum)
    )
    for name in (CONSUMER, STRICT):
        assert not valid(name, envelope(code.code, context={field.name: value}))


@given(chain=st.lists(st.sampled_from(sorted(KNOWN)), max_size=20))
def test_refines_is_a_short_chain_of_distinct_codes(chain: list[str]) -> None:
    fits = len(chain) <= refines.MAX_CHAIN and len(set(chain)) == len(chain)
    for name in (CONSUMER, STRICT):
        assert valid(name, envelope("not_found", refines=chain)) == fits, (name, chain)


def test_refines_names_known_codes_in_the_strict_schema_and_code_shapes_in_the_consumer() -> None:
    newer = envelope("not_found", refines=["a_newer_code"])
    assert valid(CONSUMER, newer)
    assert not valid(STRICT, newer)
    for odd in (["Not-A-Code"], [""], [7], "not_found"):
        assert not valid(CONSUMER, envelope("not_found", refines=odd)), odd


def test_a_context_value_of_the_wrong_type_fails_and_new_members_pass() -> None:
    for name in (CONSUMER, STRICT):
        assert not valid(name, envelope("rate_limited", context={"retry_after_ms": "soon"}))
        body = envelope("rate_limited", context={"retry_after_ms": 5}, added_by_a_newer_server=1)
        assert valid(name, body)
