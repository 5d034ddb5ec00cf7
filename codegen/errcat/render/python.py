"""Render the generated modules of the Python SDK.

Everything written here is declarations and data: one exception class per
code (its code, statuses and public module name set in its body, and a
code-to-class table), the per-code spec table, fallback map and unknown-code
catch-all, the sanitizer's character table, patterns and trigger test, and
the envelope ``TypedDict`` models. The behaviour that reads them lives in the
SDK's hand-written modules, which name nothing from any particular
catalogue.

Output goes to ``python-sdk/src/<module>/_generated/``. Every literal is
printed by :func:`py_str`, so the same catalogue gives the same bytes on any
machine. The envelope models come from the generated JSON Schema through
datamodel-code-generator, imported only when this target is rendered.
"""

from __future__ import annotations

import json
import textwrap
from collections import Counter
from collections.abc import Callable
from typing import Any

from errcat.model import Catalogue, CharRange, ErrorCode, TextRule
from errcat.render import header_lines, render_template
from errcat.render.schema import envelope_schema

WIDTH = 99
"""The line length the generated modules are wrapped to."""

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def package_dir(cat: Catalogue) -> str:
    """The directory, relative to the output root, of the generated package."""
    return f"python-sdk/src/{cat.python_module}/_generated"


def py_str(text: str) -> str:
    """A deterministic double-quoted Python literal of ``text``.

    A raw literal is used when ``text`` has backslashes and a raw literal can
    hold it unchanged (regular expressions read better that way). Characters
    that are not printable are escaped, so the file is plain readable UTF-8.
    """
    printable = all(ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF for ch in text)
    if "\\" in text and printable and '"' not in text and not text.endswith("\\"):
        return f'r"{text}"'
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF:
            out.append(ch)
        elif ord(ch) <= 0xFF:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return '"' + "".join(out) + '"'


def docstring(paragraphs: list[str], indent: int) -> str:
    """A triple-quoted docstring of ``paragraphs``, wrapped, indented by ``indent`` spaces.

    Each paragraph is collapsed onto words and wrapped at :data:`WIDTH`; a
    paragraph starting with two spaces is kept as preformatted lines.
    """
    pad = " " * indent
    lines: list[str] = []
    for i, para in enumerate(paragraphs):
        if i:
            lines.append("")
        if para.startswith("  "):
            lines.extend(para[2:].splitlines())
            continue
        lines.extend(textwrap.wrap(" ".join(para.split()), width=WIDTH - indent, break_long_words=False, break_on_hyphens=False))
    text = "\n".join(f"{pad}{line}" if line else "" for line in lines)
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"').lstrip(" ")
    closing = f"\n{pad}" if len(lines) > 1 else ""
    if text.endswith('"'):
        text += " "
    return f'"""{text}{closing}"""'


def _summary(code: ErrorCode) -> str:
    """The facts line of a class docstring: code, statuses, classification."""
    facts = [f"Code ``{code.code}``", f"HTTP {code.http}", f"gRPC {code.grpc}"]
    facts.append("retryable" if code.retryable else "not retryable")
    if code.auth_failure:
        facts.append("an authentication failure")
    if code.cancelled:
        facts.append("a cancellation")
    facts.append(f"recovery ``{code.recovery.action}`` (same arguments: {code.recovery.same_arguments})")
    facts.append(f"side effects: {code.side_effects}")
    text = "; ".join(facts) + "."
    if code.context:
        text += " Context: " + ", ".join(f"``{f.name}``" for f in code.context) + "."
    if code.sdk_local:
        statuses = ", ".join(code.fallback_statuses) or "no status"
        text += f" SDK-local: synthesized for a response without an envelope ({statuses})."
    if code.deprecated:
        text += f" Deprecated: {code.deprecated}"
    return text


def _class_entry(code: ErrorCode, base: str) -> dict[str, Any]:
    return {
        "name": code.python_class,
        "base": base,
        "code": py_str(code.code),
        "http": code.http,
        "grpc": py_str(code.grpc),
        "doc": docstring([code.cause, code.remediation, _summary(code)], indent=4),
    }


def _tree(cat: Catalogue) -> str:
    """The exception tree drawn in the module docstring."""
    lines = [cat.base_class]
    for i, code in enumerate(cat.codes):
        branch = "└──" if i == len(cat.codes) - 1 else "├──"
        where = "SDK-local" if code.sdk_local else "server"
        lines.append(f"{branch} {code.python_class} ({code.code}, HTTP {code.http}, {where})")
    return "  " + "\n".join(lines)


def _spec_entry(code: ErrorCode) -> dict[str, Any]:
    return {
        "code": py_str(code.code),
        "cls": py_str(code.python_class),
        "message": py_str(code.message),
        "cause": py_str(code.cause),
        "remediation": py_str(code.remediation),
        "http": code.http,
        "grpc": py_str(code.grpc),
        "retryable": code.retryable,
        "auth_failure": code.auth_failure,
        "cancelled": code.cancelled,
        "action": py_str(code.recovery.action),
        "same_arguments": py_str(code.recovery.same_arguments),
        "guidance": py_str(code.recovery.guidance),
        "side_effects": py_str(code.side_effects),
        "emitted_by": py_str(code.emitted_by),
        "context": "(" + "".join(f"{py_str(f.name)}, " for f in code.context).rstrip(" ") + ")",
    }


# Characters from most to least frequent in English prose and error text; it
# breaks ties between characters equally rare in the catalogue's own texts.
_FREQUENT = " etaoinsrhldcumfpgwyb.,v0123456789-_:/"


def _rarity(cat: Catalogue) -> Callable[[str], tuple[int, int, str]]:
    """A sort key of characters, rarest first, measured on the catalogue's own prose.

    The catalogue's messages, causes, remediations and guidance are the kind
    of text the SDKs sanitize, so a character few of them hold is a cheap
    first test for a trigger. A character none of them holds ties with the
    others by :data:`_FREQUENT`.
    """
    texts = [
        text.lower()
        for code in cat.codes
        for text in (code.message, code.cause, code.remediation, code.recovery.guidance)
    ]
    holding = Counter(ch for text in texts for ch in set(text))

    def key(ch: str) -> tuple[int, int, str]:
        common = len(_FREQUENT) - _FREQUENT.index(ch) if ch in _FREQUENT else 0
        return (holding[ch], common, ch)

    return key


def trigger_groups(cat: Catalogue) -> list[str]:
    """The terms of the generated ``has_trigger`` test, one per guard character.

    A trigger that contains another trigger is implied by it and left out.
    The others are grouped under their rarest character (see :func:`_rarity`),
    so a group is searched only when a ``memchr`` for that character succeeds;
    within a group, three or more triggers that start with the same two
    characters are searched only when those two are there.
    """
    unique = sorted(set(cat.sanitizer.triggers))
    kept = [t for t in unique if not any(o != t and o in t for o in unique)]
    rarity = _rarity(cat)
    groups: dict[str, list[str]] = {}
    for trigger in kept:
        groups.setdefault(min(trigger, key=rarity), []).append(trigger)
    terms = []
    for guard, members in sorted(groups.items()):
        by_prefix: dict[str, list[str]] = {}
        for trigger in members:
            by_prefix.setdefault(trigger[:2] if len(trigger) > 2 else trigger, []).append(trigger)
        tests = []
        for prefix, cluster in by_prefix.items():
            if len(cluster) >= 3:
                inner = " or ".join(f"{py_str(t)} in low" for t in cluster)
                tests.append(f"({py_str(prefix)} in low and ({inner}))")
            else:
                tests.extend(f"{py_str(t)} in low" for t in cluster)
        if members == [guard]:
            terms.append(f"{py_str(guard)} in low")
        elif len(tests) == 1:
            terms.append(f"({py_str(guard)} in low and {tests[0]})")
        else:
            terms.append(f"({py_str(guard)} in low and ({' or '.join(tests)}))")
    return terms


def _range_entry(r: CharRange) -> dict[str, str]:
    return {"first": f"0x{r.first:04X}", "last": f"0x{r.last:04X}", "name": r.name}


def _rule_entry(rule: TextRule) -> dict[str, str]:
    triggers = "(" + "".join(f"{py_str(t)}, " for t in rule.triggers).rstrip(" ") + ")"
    return {"name": py_str(rule.name), "regex": py_str(rule.regex), "triggers": triggers}


def envelope_models(cat: Catalogue) -> str:
    """The envelope ``TypedDict`` models, made by datamodel-code-generator from the schema.

    The import is here, not at the top, so only rendering this target pays for it.
    """
    from datamodel_code_generator import InputFileType, LiteralType, PythonVersion, generate
    from datamodel_code_generator.enums import DataModelType
    from datamodel_code_generator.format import Formatter

    header = "\n".join(f"# {line}" for line in header_lines(cat))
    doc = docstring(
        [
            f"The error envelope of the {cat.api_name} as ``TypedDict`` models, for type checkers.",
            "Made by datamodel-code-generator from the generated JSON Schema of the envelope. "
            "Members a newer server adds are allowed and ignored; nothing here validates at run time.",
        ],
        indent=0,
    )
    out = generate(
        json.dumps(envelope_schema(cat)),
        input_file_type=InputFileType.JsonSchema,
        output_model_type=DataModelType.TypingTypedDict,
        target_python_version=PythonVersion.PY_311,
        disable_timestamp=True,
        formatters=[Formatter.BUILTIN],
        builtin_format_line_length=WIDTH,
        custom_file_header=f"{header}\n{doc}",
        class_name="ErrorEnvelope",
        use_schema_description=True,
        use_field_description=True,
        use_single_line_docstring=True,
        enum_field_as_literal=LiteralType.All,
        use_double_quotes=True,
        use_standard_collections=True,
        use_union_operator=True,
    )
    if not isinstance(out, str):
        raise TypeError("datamodel-code-generator returned several modules for one schema")
    return out if out.endswith("\n") else out + "\n"


def render(cat: Catalogue) -> dict[str, str]:
    """Render the ``_generated`` package of the Python SDK."""
    base = package_dir(cat)
    classes = [_class_entry(c, cat.base_class) for c in cat.codes]
    s = cat.sanitizer
    return {
        f"{base}/__init__.py": render_template("python/init.py.jinja", cat),
        f"{base}/errors.py": render_template(
            "python/errors.py.jinja",
            cat,
            tree=docstring(
                [
                    f"The exception classes of the {cat.api_name}, one per catalogue code.",
                    _tree(cat),
                    f"Each class is a declaration: ``{cat.base_class}``'s hand-written base registers it "
                    "under its code, sets its statuses and its public module name.",
                ],
                indent=0,
            ),
            base_doc=docstring(
                [
                    f"The base of every error of the {cat.api_name}; ``except {cat.base_class}`` catches them all.",
                    "A code that is not in the catalogue gives this class itself, with the code kept as sent "
                    "(sanitized) and the catalogue's catch-all classification: "
                    f"{'retryable' if cat.unknown.retryable else 'not retryable'}, recovery "
                    f"``{cat.unknown.recovery.action}`` (same arguments: {cat.unknown.recovery.same_arguments}), "
                    f"side effects {cat.unknown.side_effects}.",
                ],
                indent=4,
            ),
            module=py_str(cat.python_module),
            classes=classes,
            all_names=[py_str(cat.base_class)] + [py_str(c.python_class) for c in cat.codes],
        ),
        f"{base}/catalogue.py": render_template(
            "python/catalogue.py.jinja",
            cat,
            api_name=py_str(cat.api_name),
            distribution=py_str(cat.python_distribution),
            base_class=py_str(cat.base_class),
            specs=[_spec_entry(c) for c in cat.codes],
            by_status=[{"status": st, "code": py_str(code)} for st, code in cat.fallback.by_status],
            client_error=py_str(cat.fallback.client_error),
            server_error=py_str(cat.fallback.server_error),
            default=py_str(cat.fallback.default),
            retired=[{"code": py_str(r.code), "replaced_by": py_str(r.replaced_by or "")} for r in cat.retired],
            context_fields=[{"name": py_str(f.name), "type": py_str(f.type)} for f in cat.context_fields],
            unknown={
                "retryable": cat.unknown.retryable,
                "action": py_str(cat.unknown.recovery.action),
                "same_arguments": py_str(cat.unknown.recovery.same_arguments),
                "guidance": py_str(cat.unknown.recovery.guidance),
                "side_effects": py_str(cat.unknown.side_effects),
            },
        ),
        f"{base}/sanitizer_rules.py": render_template(
            "python/sanitizer_rules.py.jinja",
            cat,
            redaction=py_str(s.redaction),
            filtered=py_str(s.filtered),
            truncation_marker=py_str(s.truncation_marker),
            remove=[_range_entry(r) for r in s.remove],
            to_space=[_range_entry(r) for r in s.to_space],
            secrets=[_rule_entry(r) for r in s.secrets],
            injection=[_rule_entry(r) for r in s.injection],
            trigger_groups=trigger_groups(cat),
        ),
        f"{base}/envelope.py": envelope_models(cat),
    }
