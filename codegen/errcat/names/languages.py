"""The target languages: the one list every per-language list is built from.

Each :class:`Language` says what the generator needs to know of one SDK
language: its key (the ``class_name`` key in a catalogue, the render target
and the key of :attr:`errcat.model.catalogue.ErrorCode.class_names`), the words a
class may not take, where its hand-written runtime lives and how to read the
names a module of it defines. The render targets, the class-name checks, the
reserved names (``errcat/names/reserved.json``) and the meta-schema's
``class_name`` keys all follow :data:`LANGUAGES`; see "Adding a target
language" in ``codegen/README.md``.
"""

from __future__ import annotations

import builtins
import keyword
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from errcat.names import module_names


@dataclass(frozen=True)
class Language:
    """One target language of the generated SDKs."""

    key: str
    """``python``: the catalogue's ``class_name`` key, the render target, the model's key."""
    label: str
    """``Python``: how messages name the language."""
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
    """The hand-written runtime's folder, relative to the repository root."""
    suffix: str
    """The file suffix of its modules (``.py``)."""
    module_names: Callable[[Sequence[str], Path], list[set[str]]]
    """The names each module of the given sources defines or uses at module level
    (the repository root says where a parser's tools are)."""


PYTHON = Language(
    key="python",
    label="Python",
    keywords=frozenset(keyword.kwlist) | frozenset(keyword.softkwlist),
    keyword_kind="a Python keyword",
    globals=frozenset(name for name in dir(builtins) if not name.startswith("_")),
    global_kind="the Python builtin",
    runtime_base="ErrorBase",
    runtime_dir="python-sdk/src/mitos_errors",
    suffix=".py",
    module_names=module_names.python,
)

TYPESCRIPT = Language(
    key="typescript",
    label="TypeScript",
    keywords=frozenset(
        [
            "break",
            "case",
            "catch",
            "class",
            "const",
            "continue",
            "debugger",
            "default",
            "delete",
            "do",
            "else",
            "enum",
            "export",
            "extends",
            "false",
            "finally",
            "for",
            "function",
            "if",
            "import",
            "in",
            "instanceof",
            "new",
            "null",
            "return",
            "super",
            "switch",
            "this",
            "throw",
            "true",
            "try",
            "typeof",
            "var",
            "void",
            "while",
            "with",
            "as",
            "implements",
            "interface",
            "let",
            "package",
            "private",
            "protected",
            "public",
            "static",
            "yield",
            "any",
            "boolean",
            "number",
            "string",
            "symbol",
            "type",
            "from",
            "of",
            "await",
            "async",
            "declare",
            "module",
            "namespace",
            "require",
            "get",
            "set",
            "never",
            "unknown",
            "object",
            "undefined",
        ]
    ),
    keyword_kind="a TypeScript reserved word",
    globals=frozenset(
        [
            "Error",
            "EvalError",
            "RangeError",
            "ReferenceError",
            "SyntaxError",
            "TypeError",
            "URIError",
            "AggregateError",
            "DOMException",
            "Object",
            "Function",
            "Array",
            "Number",
            "String",
            "Boolean",
            "Symbol",
            "BigInt",
            "Date",
            "RegExp",
            "Promise",
            "Proxy",
            "Reflect",
            "Map",
            "Set",
            "WeakMap",
            "WeakSet",
            "WeakRef",
            "JSON",
            "Math",
            "Intl",
            "ArrayBuffer",
            "SharedArrayBuffer",
            "DataView",
            "Atomics",
            "Uint8Array",
            "Int8Array",
            "Uint16Array",
            "Int16Array",
            "Uint32Array",
            "Int32Array",
            "Float32Array",
            "Float64Array",
            "BigInt64Array",
            "BigUint64Array",
            "Uint8ClampedArray",
            "Response",
            "Request",
            "Headers",
            "URL",
            "URLSearchParams",
            "AbortController",
            "AbortSignal",
            "TextEncoder",
            "TextDecoder",
            "Blob",
            "File",
            "FormData",
            "ReadableStream",
            "WritableStream",
            "Event",
            "EventTarget",
            "Buffer",
            "Infinity",
            "NaN",
        ]
    ),
    global_kind="the JavaScript global",
    runtime_base="AgentRunError",
    runtime_dir="ts-sdk/src",
    suffix=".ts",
    module_names=module_names.typescript,
)

LANGUAGES: tuple[Language, ...] = (PYTHON, TYPESCRIPT)
"""Every target language, in render order."""


def language(key: str) -> Language:
    """The language of ``key``; raises ``KeyError`` for an unknown one."""
    for lang in LANGUAGES:
        if lang.key == key:
            return lang
    raise KeyError(key)
