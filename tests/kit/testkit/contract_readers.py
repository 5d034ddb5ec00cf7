"""Read the error contract back from each artifact, independently of the catalogue.

Every reader returns the same shape, :class:`Contract`: per code, the Python
and TypeScript class names, the HTTP and gRPC statuses and the context fields
with their types, as far as that artifact states them (``None`` where it says
nothing). Nothing here derives an artifact's view from the catalogue: the
Markdown tables are parsed, llms.txt read by its format's parser, the schema walked, the
Python package imported and introspected, and the TypeScript package read by a
Node script over its compiled output.
"""

from __future__ import annotations

import json
import re
import subprocess
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import llms_txt  # type: ignore[import-untyped]  # no type information shipped

from errcat.model.catalogue import Catalogue

Json = Any


@dataclass
class CodeView:
    """What one artifact says about one code; ``None`` means it does not say."""

    python_class: str | None = None
    ts_class: str | None = None
    http: int | None = None
    grpc: str | None = None
    context: dict[str, str | None] | None = None
    """Field name -> type as the artifact spells it (None when it gives no type)."""


@dataclass
class Contract:
    """The codes an artifact knows, and what it says about each."""

    source: str
    codes: dict[str, CodeView] = field(default_factory=dict)
    base_class: str | None = None

    def view(self, code: str) -> CodeView:
        """The view of ``code``, created empty on first use."""
        return self.codes.setdefault(code, CodeView())


# -- the catalogue --------------------------------------------------------------


def from_catalogue(cat: Catalogue) -> Contract:
    """The source of truth, as the generator's model reads it."""
    out = Contract("catalogue/errors.yaml", base_class=cat.base_class)
    for c in cat.codes:
        out.codes[c.code] = CodeView(
            python_class=c.class_names["python"],
            ts_class=c.class_names["typescript"],
            http=c.http,
            grpc=c.grpc,
            context={f.name: f.type for f in c.context},
        )
    return out


# -- docs/errors.md ---------------------------------------------------------------

_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def markdown_tables(text: str) -> dict[str, list[list[str]]]:
    """Every table under each ``##``/``###`` heading: heading -> rows of cells (header dropped)."""
    tables: dict[str, list[list[str]]] = {}
    heading = ""
    for line in text.splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
            continue
        if not line.startswith("|"):
            continue
        cells = [c.strip().replace("\\|", "|") for c in _CELL_SPLIT.split(line.strip())[1:-1]]
        if all(set(c) <= set("-: ") for c in cells):
            continue
        rows = tables.setdefault(heading, [])
        rows.append(cells)
    # drop each table's header row (the first row under its heading)
    return {h: rows[1:] for h, rows in tables.items()}


def _code_cell(cell: str) -> str:
    match = re.fullmatch(r"`([^`]+)`", cell)
    if not match:
        raise ValueError(f"expected a `code` cell, got {cell!r}")
    return match.group(1)


def _code_list(cell: str) -> list[str]:
    return [] if cell in ("—", "-", "") else re.findall(r"`([^`]+)`", cell)


def from_docs(path: Path) -> Contract:
    """docs/errors.md: the code tables, the SDK classes table and the context fields table."""
    tables = markdown_tables(path.read_text(encoding="utf-8"))
    out = Contract(str(path.name))
    for heading in ("Codes", "SDK-local codes"):
        if heading not in tables:
            raise ValueError(f"{path.name} has no table under '## {heading}'")
        for row in tables[heading]:
            code, _cause, _remediation, http, grpc, context = row
            view = out.view(_code_cell(code))
            view.http = int(http)
            view.grpc = grpc
            view.context = dict.fromkeys(_code_list(context))
    for row in tables.get("SDK classes", []):
        code, python_class, ts_class, *_other_languages, _fallback = row
        view = out.view(_code_cell(code))
        view.python_class = _code_cell(python_class)
        view.ts_class = _code_cell(ts_class)
    types: dict[str, str] = {}
    carried: dict[str, set[str]] = {}
    for row in tables.get("Context fields", []):
        name, kind, _range, _meaning, codes = row
        types[_code_cell(name)] = kind
        for code in _code_list(codes):
            carried.setdefault(code, set()).add(_code_cell(name))
    for code, view in out.codes.items():
        if view.context is None:
            continue
        if set(view.context) != carried.get(code, set()):
            raise ValueError(
                f"{path.name}: the row of {code} lists context {sorted(view.context)} but the"
                f" context fields table says {sorted(carried.get(code, set()))}"
            )
        view.context = {name: types.get(name) for name in view.context}
    prose = " ".join(path.read_text(encoding="utf-8").split())
    match = re.search(r"unknown code raises the base class, `(\w+)`", prose)
    out.base_class = match.group(1) if match else None
    return out


# -- llms.txt -------------------------------------------------------------------------

_LLMS_NOTES = re.compile(r"HTTP (?P<http>\d{3}); (?P<classes>(?:\w+ `[\w:]+`(?:, )?)+)\. ")
_LLMS_CLASS = re.compile(r"(\w+) `([\w:]+)`")


def from_llms(path: Path) -> Contract:
    """llms.txt, read by the format's reference parser (``llms_txt.parse_llms_file``).

    Each code is a link ``- [code](url): HTTP n; Python `X`, TypeScript `Y`. ...``
    in one of the two code sections.
    """
    parsed = llms_txt.parse_llms_file(path.read_text(encoding="utf-8"))
    out = Contract(path.name)
    for section in ("Error codes", "SDK-local codes"):
        for link in parsed.sections.get(section, []):
            match = _LLMS_NOTES.match(link["desc"] or "")
            if not match:
                continue
            view = out.view(link["title"])
            view.http = int(match["http"])
            names = dict(_LLMS_CLASS.findall(match["classes"]))
            view.python_class = names.get("Python")
            view.ts_class = names.get("TypeScript")
    return out


# -- the JSON Schema ---------------------------------------------------------------------


def from_schema(path: Path) -> Contract:
    """An envelope schema (consumer or strict): the Code enum and the per-code if/then contexts."""
    schema = json.loads(path.read_text(encoding="utf-8"))
    defs = schema["$defs"]
    out = Contract(path.name)
    shared = defs["Context"]["properties"]
    for code in defs["Code"]["enum"]:
        out.view(code).context = {}
    for rule in defs["ErrorObject"].get("allOf", []):
        code = rule["if"]["properties"]["code"]["const"]
        ref = rule["then"]["properties"]["context"]["$ref"]
        target = defs[ref.removeprefix("#/$defs/")]
        fields: dict[str, str | None] = {}
        for name, prop in target["properties"].items():
            inner = prop.get("$ref", "").removeprefix("#/$defs/Context/properties/")
            fields[name] = shared.get(inner, prop).get("type")
        out.view(code).context = fields
    return out


# -- the Python package ---------------------------------------------------------------------

_PY_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def from_python(module_name: str = "mitos_errors") -> Contract:
    """The installed Python SDK: its Code literal, lookup(), the classes and their specs."""
    import importlib

    m = importlib.import_module(module_name)
    out = Contract(f"python package {module_name}", base_class=m.AgentRunError.__name__)
    codes = typing.get_args(m.Code)
    envelope = importlib.import_module(f"{module_name}._generated.envelope")
    hints = typing.get_type_hints(envelope.Context)
    field_types = {
        name: _PY_TYPES.get(typing.get_args(hint)[0] if typing.get_args(hint) else hint)
        for name, hint in hints.items()
    }
    for code in codes:
        cls = m.lookup(code)
        spec = m.code_spec(code)
        out.codes[code] = CodeView(
            python_class=cls.__name__,
            http=cls.http_status,
            grpc=cls.grpc_status,
            context={name: field_types.get(name) for name in spec.context_fields},
        )
    exported = {
        name: obj
        for name in m.__all__
        if isinstance(obj := getattr(m, name), type) and issubclass(obj, m.AgentRunError)
    }
    for name, cls in exported.items():
        code = getattr(cls, "catalogue_code", None)
        if cls is m.AgentRunError:
            continue
        if code is None or code not in out.codes:
            out.view(f"<exported class {name} without a catalogue code: {code!r}>")
        elif out.codes[code].python_class != name:
            out.view(f"<exported class {name} is not lookup({code!r})>")
    return out


# -- the TypeScript package -------------------------------------------------------------------

_TS_TO_JSON = {"string": "string", "number": "number", "boolean": "boolean"}


INTROSPECT = Path(__file__).resolve().parent / "ts_introspect.cjs"


def from_typescript(node: str, entry: Path, script: Path = INTROSPECT) -> Contract:
    """The compiled TypeScript SDK at ``entry``, read by ``ts_introspect.cjs``."""
    proc = subprocess.run(
        [node, str(script), str(entry)], capture_output=True, text=True, timeout=60, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{script.name} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    data = json.loads(proc.stdout)
    base = next((c for c in data["classes"] if c["isBase"]), None)
    out = Contract("typescript package @mitos/errors", base_class=base["name"] if base else None)
    by_code = {c["code"]: c for c in data["classes"] if c["code"] is not None}
    for code in data["codes"]:
        cls = by_code.get(code)
        out.codes[code] = CodeView(
            ts_class=data["lookup"].get(code),
            http=cls["httpStatus"] if cls else None,
            grpc=cls["grpcStatus"] if cls else None,
            context={k: _TS_TO_JSON.get(v, v) for k, v in data["context"].get(code, {}).items()},
        )
    for code, cls in by_code.items():
        if code not in out.codes:
            out.view(f"<exported class {cls['export']} with code {code!r} not in the Code type>")
        elif cls["name"] != out.codes[code].ts_class or cls["export"] != cls["name"]:
            out.view(
                f"<exported class {cls['export']} (name {cls['name']}) is not lookup({code!r})>"
            )
    return out
