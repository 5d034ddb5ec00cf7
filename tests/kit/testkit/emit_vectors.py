"""The emit vector format (tests/conformance/vectors/emit.json): loading and validating.

An emit file is ``{"format": "mitos-errors-emit/1", "description": ...,
"generated_by": ..., "vectors": [...]}``, each vector a writer's ``input``
and what it must give, ``expected`` (status, headers, body):
``tests/conformance/emit.schema.json`` is its schema and docs/sdk-contract.md
section 6 the rule. ``python -m testkit.generate_vectors`` writes it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from testkit.paths import EMIT_SCHEMA, EMIT_VECTORS
from testkit.reference_emit import EmitInput, Emitted
from testkit.vectors import schema_problems

EMIT_FORMAT = "mitos-errors-emit/1"

Json = Any


@dataclass(frozen=True)
class EmitVector:
    """One emit case: what a writer is given, and the status, headers and body it must send."""

    name: str
    description: str
    input: EmitInput
    expected: Emitted


@cache
def schema() -> dict[str, Json]:
    """The JSON Schema of an emit file."""
    loaded: dict[str, Json] = json.loads(EMIT_SCHEMA.read_text(encoding="utf-8"))
    return loaded


def problems(data: Json) -> list[str]:
    """Every way ``data`` breaks the emit schema, as readable messages."""
    return schema_problems(data, schema())


@cache
def load(path: Path = EMIT_VECTORS) -> tuple[EmitVector, ...]:
    """The emit vectors of ``path``; raises ``ValueError`` naming the file if it breaks the schema."""
    data = json.loads(path.read_text(encoding="utf-8"))
    found = problems(data)
    if found:
        raise ValueError(f"{path.name}: " + "; ".join(found[:5]))
    return tuple(
        EmitVector(
            name=raw["name"],
            description=raw["description"],
            input=EmitInput.from_json(raw["input"]),
            expected=Emitted(
                raw["expected"]["status"],
                tuple((name, value) for name, value in raw["expected"]["headers"]),
                raw["expected"]["body"],
            ),
        )
        for raw in data["vectors"]
    )
