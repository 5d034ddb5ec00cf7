"""Rust's words, and the names errcat derives for Rust.

Read by the Rust language record (:data:`errcat.names.languages.RUST`) and the
Rust renderer: a code's class name becomes a variant of the crate's ``Code``
enum, which is what a Rust user writes (``Code::RateLimited``).
"""

from __future__ import annotations

RUST_KEYWORDS = frozenset(
    [
        "as",
        "async",
        "await",
        "break",
        "const",
        "continue",
        "crate",
        "dyn",
        "else",
        "enum",
        "extern",
        "false",
        "fn",
        "for",
        "if",
        "impl",
        "in",
        "let",
        "loop",
        "match",
        "mod",
        "move",
        "mut",
        "pub",
        "ref",
        "return",
        "self",
        "Self",
        "static",
        "struct",
        "super",
        "trait",
        "true",
        "type",
        "unsafe",
        "use",
        "where",
        "while",
        "abstract",
        "become",
        "box",
        "do",
        "final",
        "gen",
        "macro",
        "override",
        "priv",
        "try",
        "typeof",
        "unsized",
        "virtual",
        "yield",
    ]
)
"""Rust's strict and reserved keywords (2021 edition, and 2024's ``gen``)."""


RUST_PRELUDE = frozenset(
    [
        "Box",
        "Clone",
        "Copy",
        "Default",
        "Drop",
        "Eq",
        "Err",
        "Fn",
        "FnMut",
        "FnOnce",
        "From",
        "Into",
        "Iterator",
        "None",
        "Ok",
        "Option",
        "Ord",
        "PartialEq",
        "PartialOrd",
        "Result",
        "Send",
        "Sized",
        "Some",
        "String",
        "Sync",
        "ToOwned",
        "ToString",
        "Vec",
    ]
)
"""The names of Rust's prelude that a variant or a type named after a class would shadow."""


def rust_variant(class_name: str) -> str:
    """The ``Code`` variant of a class: its name without the ``Error`` suffix (``Self`` gets ``SelfCode``)."""
    name = class_name.removesuffix("Error") or class_name
    return name + "Code" if name in RUST_KEYWORDS else name


def rust_code(class_name: str) -> str:
    """What a Rust user writes for the code of a class: its ``Code`` variant (``Code::RateLimited``)."""
    return f"Code::{rust_variant(class_name)}"
