"""Go's words, and the names errcat derives for Go.

Read by the Go language record (:data:`errcat.names.languages.GO`): how a
code becomes a Go name (``invalid_json`` gives ``InvalidJSON``) and how a
server code's context fields become its constructor's parameters.
"""

from __future__ import annotations

from collections.abc import Sequence

GO_KEYWORDS = frozenset(
    [
        "break",
        "case",
        "chan",
        "const",
        "continue",
        "default",
        "defer",
        "else",
        "fallthrough",
        "for",
        "func",
        "go",
        "goto",
        "if",
        "import",
        "interface",
        "map",
        "package",
        "range",
        "return",
        "select",
        "struct",
        "switch",
        "type",
        "var",
    ]
)
"""Go's keywords."""

GO_PREDECLARED = frozenset(
    [
        "any",
        "bool",
        "byte",
        "comparable",
        "complex64",
        "complex128",
        "error",
        "float32",
        "float64",
        "int",
        "int8",
        "int16",
        "int32",
        "int64",
        "rune",
        "string",
        "uint",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "uintptr",
        "true",
        "false",
        "iota",
        "nil",
        "append",
        "cap",
        "clear",
        "close",
        "complex",
        "copy",
        "delete",
        "imag",
        "len",
        "make",
        "max",
        "min",
        "new",
        "panic",
        "print",
        "println",
        "real",
        "recover",
    ]
)
"""Go's predeclared identifiers, which a generated name would shadow."""

GO_INITIALISMS = frozenset(
    [
        "ACL",
        "API",
        "ASCII",
        "CPU",
        "CSS",
        "DNS",
        "EOF",
        "GRPC",
        "GUID",
        "HTML",
        "HTTP",
        "HTTPS",
        "ID",
        "IP",
        "JSON",
        "JWT",
        "LHS",
        "MCP",
        "QPS",
        "RAM",
        "RHS",
        "RPC",
        "SDK",
        "SLA",
        "SMTP",
        "SQL",
        "SSH",
        "TCP",
        "TLS",
        "TTL",
        "UDP",
        "UI",
        "UID",
        "URI",
        "URL",
        "UTF8",
        "UUID",
        "VM",
        "XML",
        "XMPP",
        "XSRF",
        "XSS",
    ]
)
"""Words a Go name spells in capitals (``invalid_json`` gives ``InvalidJSON``), as Go's style does."""

GO_TYPES = {"string": "string", "integer": "int", "number": "float64", "boolean": "bool"}
"""The Go type of a constructor parameter, by its context field's JSON type."""

_LOCALS = frozenset(["any", "bool", "byte", "error", "int", "string", "ctx", "e", "err"])
"""Names a constructor parameter may not take besides the keywords: the types it uses, its locals."""


def go_name(code: str) -> str:
    """The Go name of ``code``: its words in PascalCase, initialisms in capitals.

    ``invalid_json`` gives ``InvalidJSON`` (the constructor; the constant is
    ``CodeInvalidJSON``), ``not_found`` ``NotFound``; a word is an initialism
    only whole (``http2_reset`` gives ``Http2Reset``).
    """
    words = [w for w in code.split("_") if w]
    name = "".join(
        w.upper() if w.upper() in GO_INITIALISMS else w[:1].upper() + w[1:] for w in words
    )
    return name if name[:1].isalpha() else "E" + name


def go_parameters(fields: Sequence[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """A Go constructor's parameters: ``(parameter, Go type, field)`` of each ``(field, JSON type)``.

    ``max_timeout_s`` gives ``maxTimeoutS``; a parameter that would be a Go
    keyword or one of the constructor's own names gets a trailing ``_``.
    """
    out = []
    for field, kind in fields:
        words = [w for w in field.split("_") if w]
        name = words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:])
        if name in GO_KEYWORDS or name in _LOCALS:
            name += "_"
        out.append((name, GO_TYPES[kind], field))
    return out


def go_signature(fields: Sequence[tuple[str, str]]) -> str:
    """The parameter list of a Go constructor (``sandbox string, step int``)."""
    return ", ".join(f"{name} {kind}" for name, kind, _ in go_parameters(fields))


def go_code(name: str) -> str:
    """The ``Code`` constant of a code whose Go name is ``name`` (``CodeRateLimited``): what a Go
    user matches an error on."""
    return f"Code{name}"
