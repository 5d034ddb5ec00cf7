"""The target languages: one record per language, and the one list of them.

Each :class:`Language` holds every fact the generator knows of one SDK
language: its key (the ``class_name`` key and the ``packages`` key of a
catalogue, the render target and the key of
:attr:`errcat.model.codes.ErrorCode.class_names`), its package names, where
its generated files go, the words a class may not take, the regex dialect
that runs the sanitizer's patterns, where its hand-written runtime lives,
its base class there, and how to read the names a module of it defines.
Its render target is ``errcat/render/<key>/target.py`` (an
:class:`errcat.render.target.SdkTarget`). The renderer, the writer, the
class-name checks, the reserved names (``errcat/names/reserved.json``), the
diff checker, ``llms.txt``, the docs and the meta-schema's ``class_name``
keys all follow :data:`LANGUAGES`; see "Adding a target language" in
``codegen/README.md``.
"""

from __future__ import annotations

import builtins
import keyword
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from errcat.names import module_names
from errcat.names.go_names import GO_KEYWORDS, GO_PREDECLARED, go_code, go_name, go_signature
from errcat.names.rust_names import RUST_PRELUDE, rust_code
from errcat.names.typescript_names import JS_GLOBALS, TS_KEYWORDS


@dataclass(frozen=True)
class RegexDialect:
    """The regex engine an SDK runs the sanitizer's patterns with, and what of the catalogue's
    spelling it refuses: ``errcat.check.patterns`` words its messages from these."""

    name: str
    """``Rust regex``: how messages name the engine."""
    linear: bool = False
    """Whether it runs every pattern in linear time, so refuses lookaround, backreferences,
    atomic groups and possessive repeats (``non-regular-pattern``)."""
    refuses: frozenset[str] = frozenset()
    """What else it refuses or reads otherwise (``non-portable-pattern``), by the keys of
    ``errcat.check.patterns.REFUSABLE``: an escape as written (``\\0``), ``class-set`` (``[``,
    ``&&``, ``--`` or ``~~`` inside a class) or ``count>1000`` (a repeat count above 1000)."""


@dataclass(frozen=True)
class Language:
    """One target language of the generated SDKs."""

    key: str
    """``python``: the catalogue's ``class_name`` key, the render target, the model's key."""
    label: str
    """``Python``: how messages and docs name the language."""
    package_fields: tuple[str, ...]
    """The keys of the catalogue's ``packages.<key>`` (``distribution``, ``module``)."""
    install_field: str
    """The package field users install (``distribution``: ``pip install mitos-errors``)."""
    import_field: str
    """The package field users import (``module``: ``import mitos_errors``)."""
    generated_dir: str
    """Where its generated files go, relative to the output root; ``{field}`` is a package field."""
    regex_dialect: RegexDialect
    """The regex engine that runs the sanitizer's patterns in this SDK, and what it refuses."""
    exports_known_union: bool
    """Whether the SDK exports a union type of every generated class (``naming.known_type_name``)."""
    keywords: frozenset[str]
    """Words a class may not be named (the language's reserved words)."""
    keyword_kind: str
    """What messages call a word of :attr:`keywords`."""
    globals: frozenset[str]
    """Names every module sees (builtins, globals) that a class would shadow."""
    global_kind: str
    """What messages call a name of :attr:`globals`."""
    runtime_base: str
    """The base class of the hand-written runtime; the generated code names it after the catalogue."""
    runtime_dir: str
    """The hand-written runtime's folder, relative to the repository root: part of errcat's
    package data, copied into every package errcat generates (at :attr:`runtime_dest`)."""
    suffix: str
    """The file suffix of its modules (``.py``)."""
    module_names: Callable[[Sequence[str], Path], list[set[str]]]
    """The names each module of the given sources defines or uses at module level
    (the repository root says where a parser's tools are)."""
    package_dir: str = ""
    """The folder of the generated package (its manifest, README, licence), relative to the output
    root, which ``errcat check`` holds to errcat's output and the overlay (empty: none is checked)."""
    runtime_dest: str = ""
    """Where :func:`errcat.render.package.runtime_files` copies the runtime's modules, relative to
    the output root; ``{field}`` is a package field."""

    default_packages: Callable[[Mapping[str, Mapping[str, str]]], dict[str, str]] | None = None
    """Its ``packages.<key>`` for a catalogue that has none, from the other languages' names;
    ``None``: the catalogue must name its package."""
    derive_class_name: Callable[[str], str] | None = None
    """How a code's class (type) name is derived when the catalogue sets none;
    ``None``: :func:`errcat.names.naming.class_name_for` (``RateLimitedError``)."""
    shared_class_name: bool = True
    """Whether a ``class_name`` given as one string (every language's) names it too;
    a language whose names are not classes takes only its own key."""
    context_types: bool = True
    """Whether the SDK declares a context type per code that has context (``RateLimitedContext``)."""
    class_exports: Callable[[str], tuple[str, ...]] | None = None
    """The names a code's class name gives the SDK's exports (``None``: the class name alone)."""
    code_identifier: Callable[[str], str] | None = None
    """What a user writes to name a code, from its class name, where that is not the class
    itself (Go's constant ``CodeRateLimited``, Rust's ``Code`` variant: ``RateLimitedError``
    gives ``Code::RateLimited``); ``None``: the class. Two codes may not share one, even beyond
    case (``class-collision``)."""
    constructor_signature: Callable[[Sequence[tuple[str, str]]], str] | None = None
    """The parameters of a server code's own constructor, from its context fields
    (``(name, JSON type)``, in order); ``None``: the SDK has no such constructor.
    ``errcat diff`` reports a change of them (``constructor-changed``)."""

    def output_dir(self, packages: Mapping[str, str]) -> str:
        """The folder of its generated files for a catalogue whose ``packages.<key>`` is ``packages``."""
        return self.generated_dir.format_map(packages)

    def runtime_output_dir(self, packages: Mapping[str, str]) -> str:
        """The folder the runtime's modules are copied to, for ``packages.<key>`` = ``packages``."""
        return self.runtime_dest.format_map(packages)

    def written_name(self, class_name: str) -> str:
        """What a user of the SDK writes for the code whose class is ``class_name``: the class, or
        :attr:`code_identifier`'s (the docs and ``llms.txt`` show it)."""
        return class_name if self.code_identifier is None else self.code_identifier(class_name)

    @property
    def generated_folder(self) -> str:
        """The name of the folder its generated files go in (``_generated``); the writer owns it."""
        return PurePosixPath(self.generated_dir).name


PYTHON = Language(
    key="python",
    label="Python",
    package_fields=("distribution", "module"),
    install_field="distribution",
    import_field="module",
    generated_dir="python-sdk/src/{module}/_generated",
    regex_dialect=RegexDialect("Python re", refuses=frozenset({"\\p", "\\P"})),
    exports_known_union=True,
    keywords=frozenset(keyword.kwlist) | frozenset(keyword.softkwlist),
    keyword_kind="a Python keyword",
    globals=frozenset(name for name in dir(builtins) if not name.startswith("_")),
    global_kind="the Python builtin",
    runtime_base="AgentRunError",
    runtime_dir="codegen/errcat/render/python/runtime",
    package_dir="python-sdk",
    runtime_dest="python-sdk/src/{module}",
    suffix=".py",
    module_names=module_names.python,
)

TYPESCRIPT = Language(
    key="typescript",
    label="TypeScript",
    package_fields=("package",),
    install_field="package",
    import_field="package",
    generated_dir="ts-sdk/src/generated",
    regex_dialect=RegexDialect("JavaScript RegExp", refuses=frozenset({"\\A", "\\Z"})),
    exports_known_union=True,
    keywords=TS_KEYWORDS,
    keyword_kind="a TypeScript reserved word",
    globals=JS_GLOBALS,
    global_kind="the JavaScript global",
    runtime_base="AgentRunError",
    runtime_dir="codegen/errcat/render/typescript/runtime",
    package_dir="ts-sdk",
    runtime_dest="ts-sdk/src",
    suffix=".ts",
    module_names=module_names.typescript,
)


def _go_packages(packages: Mapping[str, Mapping[str, str]]) -> dict[str, str]:
    """A catalogue without ``packages.go``: its module path is the Python distribution's name,
    its package the Python module's name without underscores (``mitos_errors``: ``mitoserrors``)."""
    return {
        "module": packages["python"]["distribution"],
        "package": packages["python"]["module"].replace("_", ""),
    }


GO = Language(
    key="go",
    label="Go",
    package_fields=("module", "package"),
    install_field="module",
    import_field="module",
    generated_dir="go-sdk",
    regex_dialect=RegexDialect(
        "RE2 (Go)", linear=True, refuses=frozenset({"\\Z", "\\u", "count>1000"})
    ),
    exports_known_union=False,
    keywords=GO_KEYWORDS,
    keyword_kind="a Go keyword",
    globals=GO_PREDECLARED,
    global_kind="the Go predeclared identifier",
    runtime_base="Error",
    runtime_dir="codegen/errcat/render/go/runtime",
    suffix=".go",
    module_names=module_names.go,
    derive_class_name=go_name,
    shared_class_name=False,
    context_types=False,
    class_exports=lambda name: (name, go_code(name)),
    code_identifier=go_code,
    constructor_signature=go_signature,
    default_packages=_go_packages,
)


def _rust_packages(packages: Mapping[str, Mapping[str, str]]) -> dict[str, str]:
    """A catalogue without ``packages.rust`` names its crate as its Python distribution."""
    return {"crate": packages["python"]["distribution"]}


RUST = Language(
    key="rust",
    label="Rust",
    package_fields=("crate",),
    install_field="crate",
    import_field="crate",
    generated_dir="rust-sdk",
    regex_dialect=RegexDialect(
        "Rust regex", linear=True, refuses=frozenset({"\\Z", "\\0", "class-set"})
    ),
    exports_known_union=False,
    # Class names become `Code` variants (the name without its `Error` suffix); the
    # strict and reserved keywords a variant could collide with are the capitalised ones.
    keywords=frozenset(["Self"]),
    keyword_kind="a Rust keyword",
    globals=RUST_PRELUDE,
    global_kind="the Rust prelude name",
    runtime_base="ApiError",
    runtime_dir="codegen/errcat/render/rust/runtime",
    suffix=".rs",
    module_names=module_names.rust,
    default_packages=_rust_packages,
    code_identifier=rust_code,
)


LANGUAGES: tuple[Language, ...] = (PYTHON, TYPESCRIPT, GO, RUST)
"""Every target language, in render order."""


def language(key: str) -> Language:
    """The language of ``key``; raises ``KeyError`` for an unknown one."""
    for lang in LANGUAGES:
        if lang.key == key:
            return lang
    raise KeyError(key)
