"""Render the Rust crate, ``rust-sdk/``: the generated declarations and the runtime copied in.

The crate is errcat output as a whole (its ``Cargo.lock`` and ``target/``
aside). Generated from the model:

* ``code.rs``: the ``Code`` enum (one variant per code), its names and spec
  lookup; ``constructors.rs``: one ``ApiError`` constructor per code from
  its context fields (the errors part);
* ``record.rs`` and ``catalogue.rs``: the spec type and every code's spec,
  the catch-all, the limits, the fallback and gRPC maps, the ``sdk`` roles;
* ``sanitizer_rules.rs``: the character ranges and each rule's portable
  pattern, side conditions and triggers;
* ``context.rs``: one typed view of each code's context (the envelope types);
* ``Cargo.toml`` and ``lib.rs``.

The hand-written runtime (``runtime/*.rs``: reader, sanitizer engine, JSON
writer, errors) is copied in with the generated header (the package files).
Every value a template shows is already Rust source (:mod:`.syntax`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from errcat.model.catalogue import Catalogue, ErrorCode
from errcat.names.languages import RUST
from errcat.names.naming import context_type_name
from errcat.names.rust_names import rust_variant
from errcat.render import header_lines, render_template
from errcat.render.rust import record as rust_record
from errcat.render.rust.syntax import doc, snake, string, strings
from errcat.render.target import SdkTarget

RUNTIME = Path(__file__).resolve().parent / "runtime"
"""The hand-written runtime modules, copied into the crate."""

RUST_VERSION = "1.75"
"""The crate's minimum Rust version (``rust-version``)."""

MODULES = (
    "code",
    "constructors",
    "record",
    "catalogue",
    "sanitizer_rules",
    "context",
)
"""The generated modules besides ``lib.rs``."""

FIELD_TYPES = {"string": "&str", "integer": "i64", "number": "f64", "boolean": "bool"}
"""The parameter type of a context field of each JSON type in a constructor."""
OWNED_TYPES = {"string": "String", "integer": "i64", "number": "f64", "boolean": "bool"}
"""The type of a context field of each JSON type in a typed context."""


@dataclass(frozen=True)
class RustField:
    """One context field of a code: its name, identifier, types and doc."""

    key: str
    ident: str
    param: str
    owned: str
    getter: str
    doc: str


@dataclass(frozen=True)
class RustCode:
    """One code, every value already Rust source."""

    code: str
    variant: str
    constructor: str
    context_type: str
    doc: str
    fields: tuple[RustField, ...]
    spec: tuple[tuple[str, str], ...]
    refines: str
    surfaces: tuple[tuple[str, str, str], ...]
    """Each surface's name and its message and remediation overrides (``Option`` literals)."""


def _option(text: str | None) -> str:
    return "None" if text is None else f"Some({string(text)})"


def _getter(kind: str) -> str:
    return {"string": "text", "integer": "integer", "number": "number", "boolean": "boolean"}[kind]


def _code(entry: ErrorCode) -> RustCode:
    name = rust_variant(entry.class_names[RUST.key])
    fields = tuple(
        RustField(
            key=string(f.name),
            ident=snake(f.name),
            param=FIELD_TYPES[f.type],
            owned=OWNED_TYPES[f.type],
            getter=_getter(f.type),
            doc=doc(f.meaning),
        )
        for f in entry.context
    )
    return RustCode(
        code=string(entry.code),
        variant=name,
        constructor=snake(entry.code),
        context_type=context_type_name(entry.class_names[RUST.key]),
        doc=doc(entry.message),
        fields=fields,
        spec=rust_record.spec_members(entry),
        refines=strings(entry.chain),
        surfaces=tuple(
            (string(s.surface), _option(s.message), _option(s.remediation)) for s in entry.surfaces
        ),
    )


def codes(cat: Catalogue) -> tuple[RustCode, ...]:
    """Every code of the catalogue, in catalogue order."""
    return tuple(_code(c) for c in cat.codes)


def _crate(cat: Catalogue) -> str:
    return cat.packages[RUST.key]["crate"]


class RustTarget(SdkTarget):
    """The Rust crate."""

    language = RUST

    def _file(self, cat: Catalogue, name: str, template: str, **values: object) -> dict[str, str]:
        text = render_template(f"rust/{template}", cat, **cast("dict[str, Any]", values))
        return {f"{self.output_dir(cat)}/{name}": text}

    def errors(self, cat: Catalogue) -> dict[str, str]:
        view = codes(cat)
        return self._file(cat, "code.rs", "code.rs.jinja", codes=view) | self._file(
            cat, "constructors.rs", "constructors.rs.jinja", codes=view
        )

    def catalogue_data(self, cat: Catalogue) -> dict[str, str]:
        return self._file(
            cat, "record.rs", "record.rs.jinja", record=rust_record.record_view()
        ) | self._file(
            cat,
            "catalogue.rs",
            "catalogue.rs.jinja",
            codes=codes(cat),
            data=rust_record.catalogue_view(cat),
        )

    def sanitizer_rules(self, cat: Catalogue) -> dict[str, str]:
        return self._file(
            cat, "sanitizer_rules.rs", "sanitizer_rules.rs.jinja", s=rust_record.sanitizer_view(cat)
        )

    def envelope_types(self, cat: Catalogue) -> dict[str, str]:
        return self._file(cat, "context.rs", "context.rs.jinja", codes=codes(cat))

    def package_files(self, cat: Catalogue) -> dict[str, str]:
        runtime = tuple(sorted(p.stem for p in RUNTIME.glob("*.rs")))
        files = self._file(
            cat,
            "Cargo.toml",
            "Cargo.toml.jinja",
            crate=_crate(cat),
            version=cat.version or "0.0.0",
            rust_version=RUST_VERSION,
            summary=cat.api_summary.replace("\\", "\\\\").replace('"', '\\"').split("\n")[0],
        )
        files |= self._file(
            cat,
            "lib.rs",
            "lib.rs.jinja",
            generated=MODULES,
            runtime=runtime,
            crate=_crate(cat),
            api=doc(cat.api_name),
            base_class=cat.base_class,
            alias=cat.base_class != RUST.runtime_base,
        )
        first, second = header_lines(cat)
        for path in sorted(RUNTIME.glob("*.rs")):
            body = path.read_text(encoding="utf-8")
            origin = f"// Copied by errcat from codegen/errcat/render/rust/runtime/{path.name}.\n"
            files[f"{self.output_dir(cat)}/{path.name}"] = (
                f"// {first}\n// {second}\n{origin}\n{body}"
            )
        return files


TARGET = RustTarget()
