"""The one definition of the records (errcat/model/record.py) is what both SDKs declare."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from errcat.cli import load_model
from errcat.metaschema import meta_schema
from errcat.model import record
from errcat.model.record import CODE_SPEC, INT, KINDS, RECOVERY, Field, Limits
from errcat.render.python import record as python_record
from errcat.render.python import target as python_target
from errcat.render.typescript import record as typescript_record
from errcat.render.typescript import target as typescript_target
from errcat.render.typescript.syntax import ts_identifier

REPO = Path(__file__).resolve().parents[2]


def _rendered() -> dict[str, str]:
    cat = load_model(REPO / "catalogue" / "errors.yaml", REPO)
    return python_target.TARGET.render(cat) | typescript_target.TARGET.render(cat)


def _file(rendered: dict[str, str], suffix: str) -> str:
    return next(text for path, text in rendered.items() if path.endswith(suffix))


def test_the_limits_are_the_meta_schemas() -> None:
    keys = list(meta_schema()["properties"]["limits"]["properties"])
    assert [f.name for f in dataclasses.fields(Limits)] == keys


def test_each_sdk_declares_the_fields_of_the_definition_in_its_order() -> None:
    rendered = _rendered()
    record_py = _file(rendered, "_generated/record.py")
    slots = re.findall(r"__slots__ = \(([^)]*)\)", record_py)
    assert [re.findall(r'"(\w+)"', s) for s in slots] == [
        [f.name for f in RECOVERY],
        [f.name for f in CODE_SPEC],
    ]
    record_ts = _file(rendered, "generated/record.ts")
    members = {
        name: re.findall(r"readonly (\w+):", body)
        for name, body in re.findall(r"export interface (\w+)[^{]*\{(.*?)\n\}", record_ts, re.S)
    }
    assert members == {
        "CodeTexts": [ts_identifier(f.name) for f in CODE_SPEC if f.text],
        "CodeSpec": [ts_identifier(f.name) for f in CODE_SPEC if not f.text],
        "Limits": [ts_identifier(f.name) for f in dataclasses.fields(Limits)],
    }
    catalogue_py = _file(rendered, "_generated/catalogue.py")
    row = re.search(
        r'SPECS: "dict\[str, Row\]" = \{\n    "\w+": \{\n(.*?)\n    \},', catalogue_py, re.S
    )
    assert row is not None
    assert re.findall(r'^        "(\w+)":', row[1], re.M) == [f.name for f in CODE_SPEC][1:]
    constants = re.findall(r"^([A-Z_]+) = \d+$", catalogue_py, re.M)
    limits = [f.name.upper() for f in dataclasses.fields(Limits)]
    assert [c for c in constants if c in limits] == limits


def test_each_sdk_spells_every_kind_of_value() -> None:
    assert set(python_record.TYPES) == set(python_record.ROW_TYPES) == set(KINDS)
    assert set(typescript_record.TYPES) == set(KINDS)
    assert {f.kind for f in CODE_SPEC} <= set(KINDS)


def test_a_field_on_every_code_is_one_entry_of_the_definition(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Adding a field to CODE_SPEC adds it to both SDKs' records and values."""
    cat = load_model(REPO / "catalogue" / "errors.yaml", REPO)
    extra = Field(
        "since_version",
        INT,
        "The catalogue version that added it.",
        lambda c, _: c.since,
        lambda u, b: 0,
    )
    # Each renderer reads the definition by name; a new field is one more entry of it.
    for module in (record, python_record, typescript_record):
        monkeypatch.setattr(module, "CODE_SPEC", (*CODE_SPEC, extra))
    rendered = python_target.TARGET.render(cat) | typescript_target.TARGET.render(cat)
    assert "self.since_version: int" in _file(rendered, "_generated/record.py")
    assert '"since_version": 1,' in _file(rendered, "_generated/catalogue.py")
    assert "readonly sinceVersion: number;" in _file(rendered, "generated/record.ts")
    assert ',"sinceVersion":1}' in _file(rendered, "generated/catalogue.ts")
    assert "  sinceVersion: 0,\n" in _file(rendered, "generated/catalogue.ts")  # the catch-all
