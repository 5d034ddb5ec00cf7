"""The Python SDK's records and SDK-made codes, rendered from errcat's one definition of them.

``_generated/record.py`` declares ``Recovery`` and ``CodeSpec`` with the
fields of :data:`errcat.model.record.RECOVERY` and
:data:`errcat.model.record.CODE_SPEC`; the rows of ``catalogue.py``, their
``TypedDict`` and the limit constants follow the same lists. The ``sdk``
section becomes ``SDK_TRANSPORT``, ``SDK_VALIDATION`` and
``SDK_EXEC_DEADLINE``, and the helpers it enables are listed in
``HELPERS`` of the package's ``_generated/__init__.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from errcat.metaschema import meta_enum
from errcat.model.catalogue import Catalogue, ErrorCode
from errcat.model.record import (
    ADVICE,
    BOOL,
    CODE_SPEC,
    EMITTED_BY,
    INT,
    NAMES,
    ORIGIN,
    RECOVERY,
    SIDE_EFFECTS,
    TEXT,
    Field,
    Value,
)
from errcat.names.languages import PYTHON
from errcat.render import render_template
from errcat.render.python.text import py_str

TYPES: dict[str, str] = {
    TEXT: "str",
    INT: "int",
    BOOL: "bool",
    NAMES: "tuple[str, ...]",
    ADVICE: "Recovery",
    SIDE_EFFECTS: "SideEffects",
    ORIGIN: "Origin",
    EMITTED_BY: "str",
}
"""How ``record.py`` declares a field of each kind of :data:`errcat.model.record.KINDS`."""

ROW_TYPES: dict[str, str] = {**TYPES, ADVICE: "Advice", SIDE_EFFECTS: "str"}
"""How the rows of ``catalogue.py`` type a field of each kind: the advice is a plain dict there."""

LITERALS: dict[str, str] = {
    "SideEffects": "side_effects",
    "RecoveryAction": "recovery_action",
    "SameArguments": "same_arguments",
}
"""The ``Literal`` aliases ``record.py`` declares for type checkers, each of its meta-schema enum."""
ADVICE_TYPES: dict[str, str] = {"action": "RecoveryAction", "same_arguments": "SameArguments"}
"""How ``Recovery`` declares each advice field that is one of an enum (the rest are ``str``)."""

SPEC_REPR = ("code", "class_name", "http_status")
"""The fields a ``CodeSpec``'s ``repr`` shows (a ``Recovery``'s shows all of its own)."""

SDK_HELPERS: dict[str, dict[str, str]] = {
    "validation": {"validate_timeout": "._local"},
    "exec_deadline": {
        "EXEC_TIMEOUT_EXIT_CODE": "._generated.catalogue",
        "error_for_exit": "._local",
    },
}
"""The runtime's names that exist only when the catalogue declares their ``sdk`` group, with the
module that defines each, relative to the package (as the package's ``_EXPORTS`` spells them)."""


@dataclass(frozen=True)
class FieldView:
    """One field of a generated record: its name, Python type and documentation."""

    name: str
    type: str
    row_type: str
    doc: str
    from_row: str
    """The expression that reads it in ``CodeSpec.__init__`` (from ``code`` or ``row``)."""


def literal(value: Value) -> str:
    """``value`` as a deterministic Python literal."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return py_str(value)
    if isinstance(value, tuple):
        return "(" + "".join(f"{py_str(item)}, " for item in value).rstrip(" ") + ")"
    return "{" + ", ".join(f"{py_str(k)}: {py_str(v)}" for k, v in value.items()) + "}"


def _from_row(f: Field) -> str:
    if f.name == "code":
        return "code"
    if f.kind == ADVICE:  # a nested record, from its plain dict
        return f'{TYPES[ADVICE]}(**row["{f.name}"])'
    return f'row["{f.name}"]'


def field_views() -> list[FieldView]:
    """The fields of ``CodeSpec``, in the definition's order."""
    return [
        FieldView(f.name, TYPES[f.kind], ROW_TYPES[f.kind], f.doc.rstrip("."), _from_row(f))
        for f in CODE_SPEC
    ]


def row(code: ErrorCode) -> list[tuple[str, str]]:
    """The row of ``code`` in ``catalogue.SPECS``: each field but the code, as Python literals."""
    return [
        (py_str(f.name), literal(f.read(code, PYTHON.key))) for f in CODE_SPEC if f.name != "code"
    ]


def render_record(cat: Catalogue) -> str:
    """The ``record`` module: ``Recovery`` and ``CodeSpec``, declarations over the runtime's ``Record``."""
    return render_template(
        "python/record.py.jinja",
        cat,
        module=py_str(cat.packages[PYTHON.key][PYTHON.import_field]),
        advice=[(f.name, f.doc, ADVICE_TYPES.get(f.name, "str")) for f in RECOVERY],
        literals=[
            (alias, "Literal[" + ", ".join(py_str(v) for v in meta_enum(enum)) + "]")
            for alias, enum in LITERALS.items()
        ],
        advice_slots=literal(tuple(f.name for f in RECOVERY)),
        fields=field_views(),
        spec_slots=literal(tuple(f.name for f in CODE_SPEC)),
        spec_repr=literal(SPEC_REPR),
    )


def _roles(group: tuple[tuple[str, str | None], ...]) -> list[tuple[str, str]]:
    """The roles of an ``sdk`` group that name a code, as Python literals."""
    return [(py_str(role), py_str(code)) for role, code in group if code is not None]


def catalogue_values(cat: Catalogue) -> dict[str, Any]:
    """What ``catalogue.py`` shows of the definition: the row type, the rows, limits, SDK codes."""
    deadline = cat.sdk.exec_deadline
    return {
        "advice_fields": [f.name for f in RECOVERY],
        "row_fields": [v for v in field_views() if v.name != "code"],
        "rows": [(py_str(c.code), row(c)) for c in cat.codes],
        "limits": [(key.upper(), value, doc) for key, value, doc in cat.limits.items()],
        "sdk_transport": _roles(cat.sdk.transport),
        "sdk_validation": _roles(cat.sdk.validation),
        "sdk_exec_deadline": "None"
        if deadline is None
        else f"({py_str(deadline[0])}, {deadline[1]})",
        "exit_status": deadline[1] if deadline is not None else None,
    }


CATALOGUE_MODULE = "._generated.catalogue"
"""Where the package's limit constants are defined, relative to the package."""


def sdk_helpers(cat: Catalogue) -> dict[str, str]:
    """The names of :data:`SDK_HELPERS` this catalogue's ``sdk`` groups enable, and the constants of
    the limits only some APIs have (``MAX_EXEC_TIMEOUT_S``...) it declares, sorted as ``__all__`` is."""
    names = {n: m for g in cat.sdk.groups for n, m in SDK_HELPERS.get(g, {}).items()}
    names |= {key.upper(): CATALOGUE_MODULE for key in cat.limits.optional()}
    return {name: names[name] for name in sorted(names, key=lambda n: (not n.isupper(), n))}


def helper_imports(helpers: dict[str, str]) -> list[str]:
    """The type checkers' imports of the enabled helpers, as ``_generated`` spells them (isort's order)."""
    inner = "._generated."
    lines = []
    for name, module in helpers.items():
        local = "." + module[len(inner) :] if module.startswith(inner) else "." + module
        lines.append((-local.count("."), local, name))
    return [f"from {local} import {name} as {name}" for _, local, name in sorted(lines)]
