"""Render the generated modules of the Python SDK.

Everything written here is declarations and data: one exception class per
code in the package ``__init__`` (its code, statuses and public module name
set in its body, and a code-to-class table), the per-code spec table, fallback map and unknown-code
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
from typing import Any

from errcat.model import Catalogue, CharRange, ErrorCode, TextRule
from errcat.naming import ENVELOPE_TYPE, PYTHON_RUNTIME_BASE
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
        lines.extend(
            textwrap.wrap(
                " ".join(para.split()),
                width=WIDTH - indent,
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
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
    facts.append(
        f"recovery ``{code.recovery.action}`` (same arguments: {code.recovery.same_arguments})"
    )
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

_MAX_GUARD_SET = 3
"""A guard is at most this many characters (one ``memchr`` each)."""
_MAX_GUARD_SHARE = 0.6
"""A character set held by more of the catalogue's texts than this is no guard worth testing."""


class _Corpus:
    """How common characters are in the catalogue's own prose (the kind of text the SDKs sanitize)."""

    def __init__(self, cat: Catalogue) -> None:
        self.texts = [
            text.lower()
            for code in cat.codes
            for text in (code.message, code.cause, code.remediation, code.recovery.guidance)
        ]
        self.holding = Counter(ch for text in self.texts for ch in set(text))

    def char_key(self, ch: str) -> tuple[int, int, str]:
        """A sort key of characters, rarest first; ties go by :data:`_FREQUENT`."""
        common = len(_FREQUENT) - _FREQUENT.index(ch) if ch in _FREQUENT else 0
        return (self.holding[ch], common, ch)

    def share(self, chars: frozenset[str]) -> float:
        """The share of the catalogue's texts that hold at least one of ``chars``."""
        return sum(1 for text in self.texts if not chars.isdisjoint(text)) / max(1, len(self.texts))

    def set_key(self, chars: frozenset[str]) -> tuple[float, int, tuple[tuple[int, int, str], ...]]:
        return (self.share(chars), len(chars), tuple(sorted(map(self.char_key, chars))))


def _class_chars(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    """The lower-cased characters a regex class matches, or ``None`` if it is negated, a category or large."""
    chars: set[str] = set()
    for op, value in items:
        name = str(op)
        if name == "LITERAL":
            chars.add(chr(value).lower())
        elif name == "RANGE" and value[1] - value[0] < 32:
            chars.update(chr(c).lower() for c in range(value[0], value[1] + 1))
        else:
            return None
    return frozenset(chars) if len(chars) <= 2 * _MAX_GUARD_SET else None


def _required(items: list[tuple[Any, Any]], corpus: _Corpus) -> list[frozenset[str]]:
    """Character sets of which every match of the regex ``items`` holds at least one character each.

    Sound by construction: a literal and a small class are required; a repeat
    only if it repeats at least once; a group and a lookahead or lookbehind
    (whose characters are in the text too) as their contents; an alternation
    the union of each branch's rarest set; anything else requires nothing.
    Sets are lower-cased, as the trigger test reads lower-cased text.
    """
    out: list[frozenset[str]] = []
    for op, value in items:
        name = str(op)
        if name == "LITERAL":
            out.append(frozenset(chr(value).lower()))
        elif name == "IN":
            chars = _class_chars(value)
            if chars is not None:
                out.append(chars)
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            if value[0] >= 1:
                out.extend(_required(list(value[2]), corpus))
        elif name == "SUBPATTERN":
            out.extend(_required(list(value[-1]), corpus))
        elif name == "ATOMIC_GROUP":
            out.extend(_required(list(value), corpus))
        elif name == "ASSERT":
            out.extend(_required(list(value[1]), corpus))
        elif name == "BRANCH":
            best = [
                min(_required(list(alt), corpus), key=corpus.set_key, default=None)
                for alt in value[1]
            ]
            if all(b is not None for b in best):
                out.append(frozenset().union(*best))  # type: ignore[arg-type]
    return out


def _parse_regex(regex: str) -> Any:
    """The parse tree of ``regex`` by the ``re`` module's own parser (``re._parser``, untyped)."""
    import importlib

    return importlib.import_module("re._parser").parse(regex)


def _rule_guards(rule: TextRule, corpus: _Corpus) -> tuple[frozenset[str], ...]:
    """Up to two character sets, rare in the catalogue's prose, that every match of ``rule`` holds."""
    sets = {
        s for s in _required(list(_parse_regex(rule.regex)), corpus) if len(s) <= _MAX_GUARD_SET
    }
    ranked = sorted(sets, key=corpus.set_key)
    return tuple(s for s in ranked if corpus.share(s) <= _MAX_GUARD_SHARE)[:2]


def _any_in(chars: frozenset[str], corpus: _Corpus) -> str:
    tests = [f"{py_str(ch)} in low" for ch in sorted(chars, key=corpus.char_key)]
    return tests[0] if len(tests) == 1 else "(" + " or ".join(tests) + ")"


def _trigger_terms(triggers: list[str], corpus: _Corpus, skip: frozenset[str]) -> list[str]:
    """``t in low`` tests for ``triggers``, each group under a ``memchr`` of its rarest character.

    A trigger that contains another is implied by it and left out. Three or
    more triggers of a group that start with the same two characters are
    searched only when those two are there. A group's character is not
    tested when an enclosing guard (``skip``) already did, or when most of
    the catalogue's texts hold it (the test would nearly always pass).
    """
    unique = sorted(set(triggers))
    kept = [t for t in unique if not any(o != t and o in t for o in unique)]
    groups: dict[str, list[str]] = {}
    for trigger in kept:
        groups.setdefault(min(trigger, key=corpus.char_key), []).append(trigger)
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
        body = tests[0] if len(tests) == 1 else "(" + " or ".join(tests) + ")"
        if members == [guard] or guard in skip or corpus.share(frozenset(guard)) > _MAX_GUARD_SHARE:
            terms.append(body)
        else:
            terms.append(f"({py_str(guard)} in low and {body})")
    return terms


def trigger_groups(cat: Catalogue) -> list[str]:
    """The terms of the generated ``has_trigger`` test.

    Each rule can match only text that holds one of its triggers, and one
    character of each set its pattern requires (:func:`_required`). Rules are
    grouped by their guards (the rarest required sets, each a few
    ``memchr``), and their triggers are searched only when the guards pass.
    """
    corpus = _Corpus(cat)
    by_guards: dict[tuple[frozenset[str], ...], list[str]] = {}
    for rule in cat.sanitizer.secrets + cat.sanitizer.injection:
        by_guards.setdefault(_rule_guards(rule, corpus), []).extend(rule.triggers)
    terms = []
    for guards, triggers in sorted(
        by_guards.items(), key=lambda item: [corpus.set_key(s) for s in item[0]]
    ):
        skip = frozenset(next(iter(g)) for g in guards if len(g) == 1)
        inner = _trigger_terms(triggers, corpus, skip)
        if not guards:
            terms.extend(inner)
            continue
        body = inner[0] if len(inner) == 1 else "(" + " or ".join(inner) + ")"
        terms.append("(" + " and ".join([*(_any_in(g, corpus) for g in guards), body]) + ")")
    return terms


def _range_entry(r: CharRange) -> dict[str, str]:
    return {"first": f"0x{r.first:04X}", "last": f"0x{r.last:04X}", "name": r.name}


def _rule_entry(rule: TextRule) -> dict[str, str]:
    triggers = "(" + "".join(f"{py_str(t)}, " for t in rule.triggers).rstrip(" ") + ")"
    return {
        "name": py_str(rule.name),
        "regex": py_str(rule.regex),
        "prefix": py_str(rule.prefix),
        "pattern": py_str(rule.pattern),
        "triggers": triggers,
    }


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
        class_name=ENVELOPE_TYPE,
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
    return _package(cat) | _version(cat)


def _version(cat: Catalogue) -> dict[str, str]:
    """The version file the package build reads (hatch ``[tool.hatch.version]``), if versioned."""
    if cat.version is None:
        return {}
    text = render_template("python/version.py.jinja", cat, version=py_str(cat.version))
    return {f"{package_dir(cat)}/version.py": text}


def _package(cat: Catalogue) -> dict[str, str]:
    base = package_dir(cat)
    classes = [_class_entry(c, cat.base_class) for c in cat.codes]
    s = cat.sanitizer
    return {
        f"{base}/__init__.py": render_template(
            "python/init.py.jinja",
            cat,
            runtime_base=PYTHON_RUNTIME_BASE,
            tree=docstring(
                [
                    f"The exception classes of the {cat.api_name}, one per catalogue code.",
                    _tree(cat),
                    f"Each class is a declaration: its code, statuses and public module name are set in "
                    f"its body. ``{cat.base_class}`` is the SDK's hand-written base class, which holds the "
                    "behaviour, under this catalogue's name. The "
                    "package is imported with the SDK; its modules are imported the first time they are "
                    "needed: ``catalogue`` (the per-code specs, limits, fallback map and unknown-code "
                    "catch-all), ``sanitizer_rules`` (the sanitizer's character table, patterns and "
                    "trigger test) and ``envelope`` (the envelope ``TypedDict`` models).",
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
                indent=0,
            ),
            base_name=py_str(cat.base_class),
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
            retired=[
                {"code": py_str(r.code), "replaced_by": py_str(r.replaced_by or "")}
                for r in cat.retired
            ],
            context_fields=[
                {"name": py_str(f.name), "type": py_str(f.type)} for f in cat.context_fields
            ],
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
            unicode_version=py_str(s.unicode_version),
        ),
        f"{base}/envelope.py": envelope_models(cat),
    }
