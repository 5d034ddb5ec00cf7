"""The catalogue meta-schema, read once, for every stage that needs it.

The meta-schema is ``schemas/catalogue.schema.json`` (JSON Schema draft
2020-12), shipped in the wheel as ``errcat/catalogue.schema.json``. The
checks validate against it, the model and the renderers read its enums (the
gRPC statuses, the recovery actions), and the evolution checker reads its
version. It imports nothing of errcat, so every stage may import it.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema.validators
from jsonschema.protocols import Validator

SCHEMA_NAME = "catalogue.schema.json"


def _is_integer(_checker: object, instance: object) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


_StrictDraft202012: type[Validator] = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)
"""Draft 2020-12, except that ``4.0`` is not an integer: a catalogue writes ``4``."""


def schema_text() -> str:
    """Return the catalogue meta-schema: the packaged copy, else the repository's.

    Raises:
        FileNotFoundError: if neither copy exists.
    """
    packaged = importlib.resources.files("errcat") / SCHEMA_NAME
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    repo = Path(__file__).resolve().parents[2] / "schemas" / SCHEMA_NAME
    return repo.read_text(encoding="utf-8")


@functools.cache
def meta_schema() -> dict[str, Any]:
    """The catalogue meta-schema, parsed once."""
    schema: dict[str, Any] = json.loads(schema_text())
    return schema


def meta_enum(name: str) -> tuple[str, ...]:
    """The values of the enum ``$defs/NAME`` of the meta-schema (``recovery_action``...).

    Each enum is defined once there; the renderers read it from here.
    """
    return tuple(str(value) for value in meta_schema()["$defs"][name]["enum"])


@functools.cache
def schema_validator() -> Validator:
    """Return the one meta-schema validator, built (and the schema checked) on first use."""
    schema = meta_schema()
    _StrictDraft202012.check_schema(schema)
    return _StrictDraft202012(schema)
