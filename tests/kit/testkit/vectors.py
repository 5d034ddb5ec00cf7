"""The conformance vector format: loading, validating and expanding cases.

A vector file is ``{"format": "mitos-errors-conformance/1", "description": ...,
"vectors": [...]}``; ``tests/conformance/vector.schema.json`` is its schema and
``docs/conformance.md`` describes every member. Bodies are stored compactly
(``{"text": ...}``, ``{"base64": ...}`` or ``{"parts": [...]}`` with
``{"repeat": unit, "times": n}`` parts) and expanded only when a case runs, so
a 50 MB body costs a few bytes on disk and is streamed by the loopback server.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import jsonschema

from testkit.body import body_chunks, body_length, expand, part_text
from testkit.paths import EMIT_VECTORS, VECTOR_SCHEMA, VECTORS_DIR
from testkit.testee import Request

__all__ = [
    "body_chunks",
    "body_length",
]  # re-exported: the server and tests read bodies through here

FORMAT = "mitos-errors-conformance/1"
TRANSPORTS = ("any", "direct", "http")
HTTP_MODES = ("plain", "chunked", "gzip")

Json = Any


@dataclass(frozen=True)
class Trickle:
    """A body sent slowly: ``after`` bytes at once, then one byte every ``every_ms`` ms."""

    after: int
    every_ms: int


class HttpRequest(NamedTuple):
    """One request of an HTTP run: the result's key, the path, and the SDK call's arguments."""

    case: str
    path: str
    token: str | None
    body_read_timeout_ms: int | None

    def request(self, base_url: str, timeout_ms: int) -> Request:
        """The testee request that fetches this path from ``base_url`` and reads the error."""
        return {
            "id": self.case,
            "op": "response",
            "url": base_url + self.path,
            "token": self.token,
            "body_read_timeout_ms": self.body_read_timeout_ms,
            "timeout_ms": timeout_ms,
        }


@dataclass(frozen=True)
class Vector:
    """One conformance case: a response (status, headers, body, token), or a call, and what it must give.

    A call vector (``call`` set) is an SDK call other than reading a response:
    ``error_for_code``, a constructor (``construct``) or ``code_for_grpc``; its
    ``status`` is the call's HTTP status argument (0: none given), and it runs
    in process only.
    """

    name: str
    source: str
    description: str
    status: int
    headers: tuple[tuple[str, str], ...]
    body: dict[str, Json]
    token: str | None
    transport: str
    drop_after: int | None
    trickle: Trickle | None
    body_read_timeout_ms: int | None
    modes: tuple[str, ...]
    expect: dict[str, Json]
    invariants: tuple[str, ...]
    covers: tuple[str, ...]
    call: dict[str, Json] | None = None
    """The request of a call vector (``{"op": ..., arguments}``); ``None`` for a response."""

    def request(self) -> Request:
        """The testee request of this case (testkit.testee): its call, or ``body`` for a response."""
        if self.call is not None:
            return {"id": self.name, **self.call}
        return {
            "id": self.name,
            "op": "body",
            "status": self.status,
            "headers": self.headers_dict(),
            "token": self.token,
            "body": self.body,
        }

    @property
    def direct(self) -> bool:
        """True when the case runs in process through ``error_from_body``."""
        return self.transport in ("any", "direct")

    @property
    def http(self) -> bool:
        """True when the loopback server serves the case over real HTTP."""
        return self.transport in ("any", "http")

    @property
    def body_is_text(self) -> bool:
        """True when the body is handed to the SDK as a string rather than bytes."""
        if "text" in self.body:
            return True
        return "parts" in self.body and self.body.get("as", "bytes") == "text"

    def headers_dict(self) -> dict[str, str]:
        """The headers as a plain mapping, in file order."""
        return dict(self.headers)


@cache
def schema() -> dict[str, Json]:
    """The JSON Schema of a vector file."""
    loaded: dict[str, Json] = json.loads(VECTOR_SCHEMA.read_text(encoding="utf-8"))
    return loaded


def validate_file(data: Json) -> list[str]:
    """Every way ``data`` breaks the vector-file schema, as readable messages."""
    return schema_problems(data, schema())


def schema_problems(data: Json, against: dict[str, Json]) -> list[str]:
    """Every way ``data`` breaks the JSON Schema ``against``, as readable messages."""
    validator = jsonschema.Draft202012Validator(against)
    return [
        f"{'/'.join(str(p) for p in error.absolute_path) or '<root>'}: {error.message}"
        for error in sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    ]


def vector_files(directory: Path = VECTORS_DIR) -> list[Path]:
    """Every vector file, sorted by name (``generated.json`` among them).

    The emit vectors (``emit.json``, a writer's cases: :mod:`testkit.emit_vectors`) are not among them.
    """
    return sorted(p for p in directory.glob("*.json") if p.name != EMIT_VECTORS.name)


def _vector(raw: dict[str, Json], source: str) -> Vector:
    http = raw.get("http", {})
    call = None
    if "call" in raw:
        [(op, arguments)] = raw["call"].items()
        call = {"op": op, **arguments}
    return Vector(
        call=call,
        name=raw["name"],
        source=source,
        description=raw.get("description", ""),
        status=raw.get("status", (call or {}).get("status") or 0),
        headers=tuple((str(k), str(v)) for k, v in raw.get("headers", {}).items()),
        body=raw.get("body", {"text": ""}),
        token=raw.get("token"),
        transport=raw.get("transport", "direct" if call else "any"),
        drop_after=http.get("drop_after"),
        trickle=Trickle(**http["trickle"]) if "trickle" in http else None,
        body_read_timeout_ms=http.get("body_read_timeout_ms"),
        modes=tuple(http.get("modes", HTTP_MODES)),
        expect=raw.get("expect", {}),
        invariants=tuple(raw.get("invariants", ())),
        covers=tuple(raw.get("covers", ())),
    )


def load_file(path: Path) -> list[Vector]:
    """The vectors of one file; raises ``ValueError`` naming the file if it breaks the schema."""
    data = json.loads(path.read_text(encoding="utf-8"))
    problems = validate_file(data)
    if problems:
        raise ValueError(f"{path.name}: " + "; ".join(problems[:5]))
    return [_vector(raw, path.name) for raw in data["vectors"]]


@cache
def load_all(directory: Path = VECTORS_DIR) -> tuple[Vector, ...]:
    """Every vector of every file, in file then case order; names must be unique."""
    vectors: list[Vector] = []
    seen: dict[str, str] = {}
    for path in vector_files(directory):
        for vector in load_file(path):
            if vector.name in seen:
                raise ValueError(
                    f"vector {vector.name!r} is defined in {seen[vector.name]} and {path.name}"
                )
            seen[vector.name] = path.name
            vectors.append(vector)
    return tuple(vectors)


def body_value(vector: Vector) -> bytes | str:
    """The body of ``vector`` as handed to ``error_from_body``: a string for text cases, else bytes."""
    return expand(vector.body)


def expand_text(desc: Json) -> Json:
    """An expected text: a string as is, or ``{"parts": [...]}`` joined into one."""
    if isinstance(desc, dict) and "parts" in desc:
        return "".join(part_text(part) for part in desc["parts"])
    return desc
