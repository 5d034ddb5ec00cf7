"""The one place where generated names are derived.

A code ``rate_limited`` becomes the class ``RateLimitedError`` in both
languages unless the catalogue overrides it. The validator uses the same
functions to reject names that collide, shadow a builtin or are reserved, so
what it checks is exactly what the renderers emit.
"""

from __future__ import annotations

import builtins
import keyword
import re

CODE_RE = re.compile(r"[a-z][a-z0-9_]*\Z")
"""What a code must look like: lower snake_case ASCII."""

CLASS_RE = re.compile(r"[A-Z][A-Za-z0-9]*\Z")

PYTHON_RESERVED: frozenset[str] = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist)
"""Python keywords; a class may not be named after one."""

PYTHON_BUILTINS: frozenset[str] = frozenset(
    name for name in dir(builtins) if not name.startswith("_")
)
"""Names a generated Python class would shadow (``TimeoutError``, ``TypeError``...)."""

TS_RESERVED: frozenset[str] = frozenset(
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
)
"""TypeScript and JavaScript reserved and contextual words."""

TS_GLOBALS: frozenset[str] = frozenset(
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
)
"""Global names a generated TypeScript class would shadow."""

RUNTIME_NAMES: frozenset[str] = frozenset(
    [
        "AsyncErrorHook",
        "Code",
        "CodeSpec",
        "Context",
        "ContextValue",
        "ErrorBody",
        "ErrorClassOf",
        "ErrorContext",
        "ErrorEnvelope",
        "ErrorForCodeOptions",
        "ErrorForExitOptions",
        "ErrorFromBodyOptions",
        "ErrorHook",
        "ErrorObject",
        "HeadersLike",
        "KnownAgentRunError",
        "Limits",
        "Recovery",
        "ResponseLike",
        "ResponseOptions",
        "SanitizeOptions",
        "SideEffects",
        "ValidateTimeoutOptions",
    ]
)
"""Names the hand-written runtimes and the envelope types export beside the generated classes.

The base class's name is the catalogue's and is checked on its own."""


def class_name_for(code: str) -> str:
    """Derive the exception class name of a code, the same in both languages.

    ``rate_limited`` gives ``RateLimitedError``; a code already ending in
    ``_error`` does not get a second suffix (``internal_error`` gives
    ``InternalError``). Digits are kept (``http2_reset`` gives
    ``Http2ResetError``).
    """
    words = [part for part in re.split(r"[^A-Za-z0-9]+", code) if part]
    pascal = "".join(word[:1].upper() + word[1:] for word in words)
    if not pascal:
        return "Error"
    if pascal[0].isdigit():
        pascal = "E" + pascal
    return pascal if pascal.endswith("Error") else pascal + "Error"


def fold(name: str) -> str:
    """Fold a code or class name for collision checks: case and separators ignored."""
    return re.sub(r"[^0-9a-z]", "", name.casefold())


def python_problem(name: str, base_class: str) -> str | None:
    """Say why ``name`` cannot be a generated Python class, or ``None`` if it can."""
    if not CLASS_RE.match(name):
        return f"{name!r} is not a PascalCase ASCII identifier"
    if name in PYTHON_RESERVED:
        return f"{name!r} is a Python keyword"
    if name in PYTHON_BUILTINS:
        return f"{name!r} would shadow the Python builtin of that name"
    if name == base_class or name in RUNTIME_NAMES:
        return f"{name!r} is already a name of the SDK runtime"
    return None


def typescript_problem(name: str, base_class: str) -> str | None:
    """Say why ``name`` cannot be a generated TypeScript class, or ``None`` if it can."""
    if not CLASS_RE.match(name):
        return f"{name!r} is not a PascalCase ASCII identifier"
    if name in TS_RESERVED:
        return f"{name!r} is a TypeScript reserved word"
    if name in TS_GLOBALS:
        return f"{name!r} would shadow the JavaScript global of that name"
    if name == base_class or name in RUNTIME_NAMES:
        return f"{name!r} is already a name of the SDK runtime"
    return None


def ts_identifier(code: str) -> str:
    """The camelCase form of a snake_case key (``retry_after_ms`` gives ``retryAfterMs``)."""
    head, *rest = code.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)
