"""Every key of the meta-schema has a description: schemas/catalogue.schema.json is the
catalogue's glossary, and a key without one is a key a catalogue author must guess at.

A *key* is a schema a catalogue author writes a value for: each member of a
``properties`` map, each ``$defs`` entry, and the schema of each entry of a map or
list whose entries have members of their own (one code under ``codes``, one rule
under ``sanitizer.secrets``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

META_SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "catalogue.schema.json"


def keys(node: Any, at: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every key of a schema (see the module docstring), as (JSON pointer, its schema)."""
    if isinstance(node, list):
        for i, item in enumerate(node):
            yield from keys(item, f"{at}/{i}")
        return
    if not isinstance(node, dict):
        return
    for name, sub in node.items():
        where = f"{at}/{name}"
        if name in ("properties", "$defs") and isinstance(sub, dict):
            for key, schema in sub.items():
                if isinstance(schema, dict):
                    yield f"{where}/{key}", schema
                yield from keys(schema, f"{where}/{key}")
            continue
        entry = name in ("additionalProperties", "items") and isinstance(sub, dict)
        if entry and "properties" in sub:  # entries with members of their own
            yield where, sub
        yield from keys(sub, where)


def undescribed(schema: dict[str, Any]) -> list[str]:
    """The keys without a description that is a sentence (not empty, ending with a full stop)."""
    return [
        at
        for at, key in keys(schema)
        if not (isinstance(text := key.get("description"), str) and text.strip().endswith("."))
    ]


def test_every_key_of_the_meta_schema_has_a_description() -> None:
    missing = undescribed(json.loads(META_SCHEMA.read_text(encoding="utf-8")))
    assert not missing, (
        f"{META_SCHEMA.name}: give each of these keys a description (one or two sentences "
        "saying what the value means to the generator and the SDKs): " + ", ".join(missing)
    )


@pytest.mark.parametrize(
    ("schema", "missing"),
    [
        ({"properties": {"a": {"type": "string"}}}, ["#/properties/a"]),
        ({"$defs": {"d": {"enum": [1]}}}, ["#/$defs/d"]),
        ({"properties": {"a": {"description": "A.", "type": "string"}}}, []),
        ({"properties": {"a": {"description": "", "type": "string"}}}, ["#/properties/a"]),
        ({"properties": {"a": {"description": "no full stop"}}}, ["#/properties/a"]),
        (
            {"additionalProperties": {"properties": {"b": {"description": "B."}}}},
            ["#/additionalProperties"],
        ),
        (
            {"items": {"description": "One.", "properties": {"b": {"type": "integer"}}}},
            ["#/items/properties/b"],
        ),
        ({"oneOf": [{"properties": {"c": {}}}]}, ["#/oneOf/0/properties/c"]),
        ({"additionalProperties": {"type": "string"}, "items": {"type": "string"}}, []),
    ],
)
def test_a_key_without_a_description_is_found_wherever_it_is(
    schema: dict[str, Any], missing: list[str]
) -> None:
    assert undescribed(schema) == missing
