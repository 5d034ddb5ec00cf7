"""Render the generated modules of the Python SDK.

Everything written here is declarations and data: one exception class per
code in the package ``__init__`` (its code, statuses and public module name
set in its body, and a code-to-class table), the per-code spec table,
fallback map and unknown-code catch-all, the sanitizer's character table,
patterns and trigger test (:mod:`errcat.render.python.triggers`), and the
envelope ``TypedDict`` models (:mod:`errcat.render.python.envelope`). The behaviour that reads them lives in the
SDK's hand-written modules, which name nothing from any particular catalogue.

Output goes to the folder of its language record (``python-sdk/src/<module>/_generated/``). Every literal is
printed by :func:`~errcat.render.python.text.py_str`, so the same catalogue
gives the same bytes on any machine.
"""

from __future__ import annotations

from dataclasses import dataclass

from errcat.model import refines
from errcat.model.catalogue import Catalogue, CharRange, ErrorCode, TextRule
from errcat.names.languages import PYTHON
from errcat.render import environment, render_template
from errcat.render.python.envelope import envelope_models
from errcat.render.python.record import (
    catalogue_values,
    helper_imports,
    literal,
    render_record,
    sdk_helpers,
)
from errcat.render.python.text import docstring, prose, py_str
from errcat.render.python.triggers import trigger_groups
from errcat.render.target import SdkTarget


def _class(code: ErrorCode) -> str:
    """The Python class name of ``code``."""
    return code.class_names[PYTHON.key]


def _package(cat: Catalogue, field: str) -> str:
    """The catalogue's ``packages.python.<field>``."""
    return cat.packages[PYTHON.key][field]


def _tuple(items: tuple[str, ...] | list[str]) -> str:
    """A tuple literal of strings, with a trailing comma after each item."""
    return literal(tuple(items))


@dataclass(frozen=True)
class ClassView:
    """One exception class of the package ``__init__``, every value a Python literal."""

    name: str
    base: str
    code: str
    http: int
    grpc: str
    doc: str
    code_type: str
    http_type: str
    grpc_type: str
    """What ``Literal[...]`` holds for each: the class's own value and its refinements' (an
    ``except`` of the class catches them, so its attributes are typed as any of them)."""


@dataclass(frozen=True)
class UnknownView:
    """The unknown-code catch-all, every value a Python literal."""

    retryable: bool
    action: str
    same_arguments: str
    guidance: str
    side_effects: str
    origin: str


@dataclass(frozen=True)
class PairView:
    """A key and its value as Python literals (a fallback status, a retired code, a context field)."""

    key: str
    value: str


@dataclass(frozen=True)
class RangeView:
    """An inclusive code point range, in hexadecimal, with its name."""

    first: str
    last: str
    name: str


@dataclass(frozen=True)
class RuleView:
    """A sanitizer rule, every value a Python literal."""

    name: str
    prefix: str
    pattern: str
    triggers: str


@dataclass(frozen=True)
class ClassFacts:
    """What the facts line of a class docstring says (``python/class_facts.txt.jinja``)."""

    code: str
    http: int
    grpc: str
    retryable: bool
    auth_failure: bool
    cancelled: bool
    action: str
    same_arguments: str
    side_effects: str
    origin: str
    context: tuple[str, ...]
    sdk_local: bool
    fallback_statuses: tuple[str, ...]
    deprecated: str


def class_facts(code: ErrorCode) -> ClassFacts:
    """The facts of ``code`` its class docstring states: code, statuses, classification."""
    return ClassFacts(
        code=code.code,
        http=code.http,
        grpc=code.grpc,
        retryable=code.retryable,
        auth_failure=code.auth_failure,
        cancelled=code.cancelled,
        action=code.recovery.action,
        same_arguments=code.recovery.same_arguments,
        side_effects=code.side_effects,
        origin=code.origin,
        context=tuple(f.name for f in code.context),
        sdk_local=code.sdk_local,
        fallback_statuses=tuple(code.fallback_statuses),
        deprecated=code.deprecated or "",
    )


def _summary(code: ErrorCode) -> str:
    """The facts line of the class docstring of ``code``, one paragraph of text."""
    template = environment().get_template("python/class_facts.txt.jinja")
    return template.render(f=class_facts(code))


def _literals(values: list[str]) -> str:
    """The distinct values, in order, as the inside of ``Literal[...]``."""
    return ", ".join(dict.fromkeys(values))


def class_view(code: ErrorCode, cat: Catalogue) -> ClassView:
    """The view of the exception class of ``code``: it derives from the class of the code it refines."""
    family = [code, *(cat.code(c) for c in code.refined_by)]
    return ClassView(
        name=_class(code),
        base=_class(cat.code(code.refines)) if code.refines else cat.base_class,
        code=py_str(code.code),
        http=code.http,
        grpc=py_str(code.grpc),
        doc=docstring([code.cause, code.remediation, _summary(code)], indent=4),
        code_type=_literals([py_str(c.code) for c in family]),
        http_type=_literals([str(c.http) for c in family]),
        grpc_type=_literals([py_str(c.grpc) for c in family]),
    )


@dataclass(frozen=True)
class TreeRow:
    """One class of the exception tree the package docstring draws (``python/package_doc.txt.jinja``)."""

    branch: str
    """The lines drawn before the class name (``│   ├──``): its depth and whether it is last."""
    name: str
    code: str
    http: int
    sdk_local: bool


def tree_rows(cat: Catalogue) -> list[TreeRow]:
    """The classes under the base class, each refined code's class holding its refinements."""
    children: dict[str | None, list[ErrorCode]] = {}
    for code in cat.codes:
        children.setdefault(code.refines, []).append(code)
    rows: list[TreeRow] = []

    def branches(parent: str | None, indent: str) -> None:  # as deep as a chain: 16 at most
        below = children.get(parent, [])
        for i, code in enumerate(below):
            last = i == len(below) - 1
            branch = indent + ("└──" if last else "├──")
            rows.append(TreeRow(branch, _class(code), code.code, code.http, code.sdk_local))
            branches(code.code, indent + ("    " if last else "│   "))

    branches(None, "")
    return rows


def range_view(r: CharRange) -> RangeView:
    """The view of a sanitizer character range."""
    return RangeView(first=f"0x{r.first:04X}", last=f"0x{r.last:04X}", name=r.name)


def rule_view(rule: TextRule) -> RuleView:
    """The view of a sanitizer rule."""
    return RuleView(
        name=py_str(rule.name),
        prefix=py_str(rule.prefix),
        pattern=py_str(rule.pattern),
        triggers=_tuple(rule.triggers),
    )


def render_init(cat: Catalogue) -> str:
    """The package ``__init__``: the classes, their table and the base class's name and docstring."""
    classes = [class_view(c, cat) for c in cat.class_order]
    return render_template(
        "python/init.py.jinja",
        cat,
        base_import=PYTHON.runtime_base
        if cat.base_class == PYTHON.runtime_base
        else f"{PYTHON.runtime_base} as {cat.base_class}",
        tree=prose("python/package_doc.txt.jinja", cat, rows=tree_rows(cat)),
        base_doc=prose("python/base_doc.txt.jinja", cat),
        base_name=py_str(cat.base_class),
        module=py_str(_package(cat, PYTHON.import_field)),
        classes=classes,
        all_names=[py_str(cat.base_class)] + [py_str(_class(c)) for c in cat.codes],
        helpers=[PairView(py_str(n), py_str(m)) for n, m in sdk_helpers(cat).items()],
        helper_imports=helper_imports(sdk_helpers(cat)),
    )


def render_overloads(cat: Catalogue) -> str:
    """The stub-only ``overloads`` module: ``lookup`` and ``error_for_code`` typed per code."""
    classes = [class_view(c, cat) for c in cat.codes]
    # in the order isort keeps: by name, ignoring case
    imported = sorted({cat.base_class, *(c.name for c in classes)}, key=lambda n: (n.lower(), n))
    return render_template("python/overloads.pyi.jinja", cat, classes=classes, imported=imported)


def render_catalogue(cat: Catalogue) -> str:
    """The ``catalogue`` module: specs, limits, the fallback map, retired codes, the catch-all."""
    unknown = cat.unknown
    return render_template(
        "python/catalogue.py.jinja",
        cat,
        api_name=py_str(cat.api_name),
        distribution=py_str(_package(cat, PYTHON.install_field)),
        base_class=py_str(cat.base_class),
        refines_max=refines.MAX_CHAIN,
        **catalogue_values(cat),
        by_status=[PairView(str(status), py_str(code)) for status, code in cat.fallback.by_status],
        client_error=py_str(cat.fallback.client_error),
        server_error=py_str(cat.fallback.server_error),
        default=py_str(cat.fallback.default),
        retired=[PairView(py_str(r.code), py_str(r.replaced_by or "")) for r in cat.retired],
        surfaces=[
            PairView(
                py_str(c.code),
                "{"
                + ", ".join(
                    f"{py_str(s)}: ({py_str(m)}, {py_str(r)})" for s, m, r in c.surface_texts
                )
                + "}",
            )
            for c in cat.codes
            if c.surfaces
        ],
        chains=[PairView(py_str(c.code), _tuple(list(c.chain))) for c in cat.codes if c.chain],
        context_fields=[PairView(py_str(f.name), py_str(f.type)) for f in cat.context_fields],
        grpc_names=_tuple([s.name for s in cat.grpc_gateway.statuses]),
        grpc_proto_names=_tuple([s.proto_name for s in cat.grpc_gateway.statuses]),
        grpc_map=[PairView(py_str(s), py_str(c)) for s, c in cat.grpc_gateway.by_status],
        grpc_default=py_str(cat.grpc_gateway.default),
        grpc_channels=[
            PairView(
                py_str(ch.name),
                "{"
                + ", ".join(f"{py_str(o.status)}: {py_str(o.code)}" for o in ch.overrides)
                + "}",
            )
            for ch in cat.grpc_gateway.channels
        ],
        unknown=UnknownView(
            retryable=unknown.retryable,
            action=py_str(unknown.recovery.action),
            same_arguments=py_str(unknown.recovery.same_arguments),
            guidance=py_str(unknown.recovery.guidance),
            side_effects=py_str(unknown.side_effects),
            origin=py_str(unknown.origin),
        ),
    )


def render_sanitizer_rules(cat: Catalogue) -> str:
    """The ``sanitizer_rules`` module: markers, character ranges, rules and the trigger test."""
    s = cat.sanitizer
    return render_template(
        "python/sanitizer_rules.py.jinja",
        cat,
        redaction=py_str(s.redaction),
        filtered=py_str(s.filtered),
        truncation_marker=py_str(s.truncation_marker),
        remove=[range_view(r) for r in s.remove],
        to_space=[range_view(r) for r in s.to_space],
        secrets=[rule_view(r) for r in s.secrets],
        injection=[rule_view(r) for r in s.injection],
        trigger_groups=trigger_groups(cat),
        unicode_version=py_str(s.unicode_version),
    )


class PythonTarget(SdkTarget):
    """The Python SDK: the package ``<module>._generated``."""

    language = PYTHON

    def errors(self, cat: Catalogue) -> dict[str, str]:
        """The classes in the package ``__init__``, and the per-code typing of ``lookup``."""
        base = self.output_dir(cat)
        return {
            f"{base}/__init__.py": render_init(cat),
            f"{base}/overloads.pyi": render_overloads(cat),
        }

    def catalogue_data(self, cat: Catalogue) -> dict[str, str]:
        """The catalogue's rows, limits and maps, and the records (``CodeSpec``, ``Recovery``) they fill."""
        base = self.output_dir(cat)
        return {
            f"{base}/catalogue.py": render_catalogue(cat),
            f"{base}/record.py": render_record(cat),
        }

    def sanitizer_rules(self, cat: Catalogue) -> dict[str, str]:
        return {f"{self.output_dir(cat)}/sanitizer_rules.py": render_sanitizer_rules(cat)}

    def envelope_types(self, cat: Catalogue) -> dict[str, str]:
        """The envelope ``TypedDict`` models (:mod:`errcat.render.python.envelope`)."""
        return {f"{self.output_dir(cat)}/envelope.py": envelope_models(cat)}

    def package_files(self, cat: Catalogue) -> dict[str, str]:
        """The version file the package build reads (hatch ``[tool.hatch.version]``), if versioned."""
        if cat.version is None:
            return {}
        text = render_template("python/version.py.jinja", cat, version=py_str(cat.version))
        return {f"{self.output_dir(cat)}/version.py": text}


TARGET = PythonTarget()
"""The Python target (:func:`errcat.render.target.sdk_target` finds it)."""
