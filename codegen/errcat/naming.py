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

PYTHON_RUNTIME_BASE = "ErrorBase"
"""The base class of the hand-written Python runtime; the generated code names it after the catalogue."""

TS_RUNTIME_BASE = "AgentRunError"
"""The base class of the hand-written TypeScript runtime (``ts-sdk/src/base.ts``);
a catalogue with another base class name gets that name as an alias of it."""

PYTHON_RUNTIME_EXPORTS: tuple[str, ...] = (
    "CONTRACT_VERSION",
    "DEFAULT_EXEC_TIMEOUT_S",
    "DEFAULT_RUN_CODE_TIMEOUT_S",
    "EXEC_TIMEOUT_EXIT_CODE",
    "MAX_EXEC_TIMEOUT_S",
    "AsyncErrorHook",
    "Code",
    "CodeSpec",
    "ErrorBody",
    "ErrorEnvelope",
    "ErrorHook",
    "Recovery",
    "aerror_from_response",
    "araise_for_status",
    "code_spec",
    "error_for_code",
    "error_for_exit",
    "error_from_body",
    "error_from_response",
    "install_error_hook",
    "lookup",
    "raise_for_status",
    "sanitize_text",
    "validate_timeout",
)
"""The names the Python package exports (its ``__all__``) beside the generated classes.

A copy, since the generator does not read the runtime it generates for:
``python-sdk/tests/test_sdk_generated.py`` fails when the two differ."""

TS_RUNTIME_EXPORTS: tuple[str, ...] = (
    # Values of the hand-written runtime (ts-sdk/src/index.ts) and the generated catalogue.
    "LIMITS",
    "CONTRACT_VERSION",
    "ERROR_CLASSES",
    "errorForCode",
    "errorForExit",
    "errorFromBody",
    "errorFromResponse",
    "fallbackCode",
    "isKnownCode",
    "lookup",
    "parseHttpDate",
    "raiseForStatus",
    "sanitizeText",
    "validateTimeout",
    # Types of the hand-written runtime.
    "AgentRunErrorInit",
    "AgentRunErrorJSON",
    "CodeSpec",
    "ContextValue",
    "ErrorContext",
    "ErrorForCodeOptions",
    "ErrorForExitOptions",
    "ErrorFromBodyOptions",
    "HeadersLike",
    "Limits",
    "ResponseLike",
    "ResponseOptions",
    "SanitizeOptions",
    "SideEffects",
    "ValidateTimeoutOptions",
    # Names of generated/errors.ts's own scope besides its classes.
    "defineErrorClass",
)
"""The names the TypeScript package exports (or ``errors.ts`` declares) beside the generated classes.

The base class, ``ErrorClassOf``, the union type of every class
(:func:`known_type_name`) and the envelope's types are added by the
TypeScript renderer, which knows them all for a given catalogue.
``ts-sdk/tests/generated.test.ts`` fails when this list and the package's
exports differ."""

TS_CLASS_MAP_TYPE = "ErrorClassOf"
"""The generated TypeScript interface from each code to its class (``errors.ts``)."""

ENVELOPE_TYPE = "ErrorEnvelope"
"""The name of the type of the whole envelope (the schema's root) in the generated SDKs."""

GENERATED_TYPE_NAMES: tuple[str, ...] = (
    TS_CLASS_MAP_TYPE,
    ENVELOPE_TYPE,
    "ErrorObject",
    "Context",
    "Recovery",
    "Code",
)
"""Types every generated SDK declares whatever the catalogue: the code-to-class
map and the envelope's fixed types (each code with context fields adds
:func:`context_type_name` of its class)."""

RUNTIME_NAMES: frozenset[str] = frozenset(
    (
        PYTHON_RUNTIME_BASE,
        TS_RUNTIME_BASE,
        *PYTHON_RUNTIME_EXPORTS,
        *TS_RUNTIME_EXPORTS,
        *GENERATED_TYPE_NAMES,
    )
)
"""Every name of either SDK that is not a generated class: a class may take none
of them, in either language, so that class names stay the same in both.

The catalogue's base class name is checked on its own, as are the names it
derives (:func:`known_type_name`, :func:`context_type_name`)."""


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


def known_type_name(base_class: str) -> str:
    """The TypeScript union of every generated class (``KnownAgentRunError``)."""
    return f"Known{base_class}"


def context_type_name(python_class: str) -> str:
    """The envelope type of a code's context, from its class (``RateLimitedContext``)."""
    return f"{python_class.removesuffix('Error')}Context"


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
    if name == base_class or name in RUNTIME_NAMES or name == known_type_name(base_class):
        return f"{name!r} is already a name of the SDK runtime"
    return None


def ts_identifier(code: str) -> str:
    """The camelCase form of a snake_case key (``retry_after_ms`` gives ``retryAfterMs``)."""
    head, *rest = code.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)
