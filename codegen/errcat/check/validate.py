"""Validate a loaded catalogue: the meta-schema first, then every rule of :mod:`errcat.check.rules`.

The meta-schema and its one validator come from :mod:`errcat.metaschema`.
Each schema error becomes a :class:`~errcat.problems.Problem` at the line and
column of the offending value, with a message that names the value and a
concrete fix. The rules then
run on every part of the document the schema did not already reject, so one
run reports everything.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from jsonschema.exceptions import ValidationError

from errcat.check import rules
from errcat.check.context import Context
from errcat.metaschema import SCHEMA_NAME, meta_schema, schema_validator
from errcat.names.languages import LANGUAGES
from errcat.problems import Problem
from errcat.source.document import Document, KeyPath, format_path
from errcat.source.scalars import FLOAT_RE, INT_RE
from errcat.wording import (
    close_match,
    kind_of,
    listing,
    quoted,
    schema_kind,
    shown,
    snake_suggestion,
)

_PATTERN_WORDS = {
    "^[a-z][a-z0-9_]*$": "lower snake_case ASCII (a-z, 0-9 and _, starting with a letter)",
    "^[A-Z][A-Za-z0-9]*$": "a PascalCase ASCII class name (a capital, then letters and digits)",
    "^U\\+(?:[0-9A-F]{4,5}|10[0-9A-F]{4})$": 'a code point written like "U+200B" (upper-case hex)',
    "^[1-5][0-9][0-9]$": "an HTTP status (three digits, 100 to 599)",
    "^[A-Za-z0-9][A-Za-z0-9._-]*$": "a Python distribution name (letters, digits, . _ -)",
    "^(?:@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*$": "an npm package name (lower case)",
    "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(?:-[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?"
    "(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?$": "a semantic version (MAJOR.MINOR.PATCH, e.g. 1.4.0)",
}


def _resolved(schema: Any) -> Any:
    """``schema``, or the ``$defs`` entry its local ``$ref`` names."""
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return meta_schema()["$defs"].get(ref.removeprefix("#/$defs/"), {})
    return schema


def validate(doc: Document) -> list[Problem]:
    """Check a loaded catalogue against the meta-schema and every rule of :mod:`errcat.check.rules`.

    Args:
        doc: the document :func:`errcat.source.load.load_catalogue` returned.

    Returns:
        Every problem found, sorted by position; empty when the catalogue is valid.
    """
    problems, rejected = schema_problems(doc)
    ctx = Context(doc, rejected)
    rules.run(ctx)
    return sorted(set(problems + ctx.problems))


def schema_problems(doc: Document) -> tuple[list[Problem], set[KeyPath]]:
    """Check ``doc`` against the meta-schema.

    Returns:
        The problems, and the key paths the schema rejected (the
        rules leave those, and everything under them, alone).
    """
    problems: list[Problem] = []
    rejected: set[KeyPath] = set()
    for error in schema_validator().iter_errors(doc.data):
        for path, problem in _explain(doc, error):
            rejected.add(path)
            if problem is not None:
                problems.append(problem)
    return problems, rejected


Found = Iterator[tuple[KeyPath, Problem | None]]


def _explain(doc: Document, error: ValidationError) -> Found:
    path: KeyPath = tuple(error.absolute_path)
    keyword = str(error.validator)
    schema: Any = error.schema
    instance: Any = error.instance
    if "propertyNames" in error.relative_schema_path:
        yield from _key_name(doc, path, keyword, error.validator_value, instance)
    elif keyword == "required":
        yield from _required(doc, path, schema, instance)
    elif keyword == "additionalProperties":
        yield from _unknown_keys(doc, path, schema, instance)
    elif keyword in ("oneOf", "anyOf"):
        yield from _one_of(doc, path, error)
    elif keyword == "uniqueItems":
        yield from _duplicate_items(doc, path, instance)
    else:
        rule, message, fix = _words(path, keyword, error.validator_value, schema, instance)
        yield path, doc.problem(path, rule, message or error.message, fix)


def _key_name(doc: Document, path: KeyPath, keyword: str, expected: Any, key: str) -> Found:
    key_path = (*path, key)
    if path == ("codes",) and keyword == "pattern":
        yield key_path, None  # the code-name rule explains code names in full
        return
    if keyword == "maxLength":
        message = f"the key {quoted(key)} is {len(key)} characters long; at most {expected} allowed"
        fix = f"shorten it to {expected} characters or fewer"
    elif keyword == "enum":  # a key that names one of a set (a gRPC status)
        options = [str(option) for option in expected]
        message = f"the key {quoted(key)} is not one of {listing(options)}"
        guess = close_match(key, options)
        fix = f"rename it to {guess}" if guess else f"rename it to one of {listing(options)}"
    else:
        words = _PATTERN_WORDS.get(str(expected), f"of the form {expected}")
        message = f"the key {quoted(key)} is not {words}"
        guess = snake_suggestion(key)
        if str(expected) == "^[A-Z][A-Za-z0-9]*$":  # a PascalCase name (a condition reason)
            guess = "".join(part[:1].upper() + part[1:] for part in (guess or "").split("_"))
        fix = f"rename it to {quoted(guess)}" if guess else f"rename it to {words}"
        if str(expected) == "^[1-5][0-9][0-9]$":
            fix = 'write the status as three digits in quotes, e.g. "503"'
    yield key_path, doc.problem(key_path, "key-format", message, fix, at_key=True)


def _required(doc: Document, path: KeyPath, schema: Any, instance: Any) -> Found:
    where = format_path(path) or "the top level"
    properties = schema.get("properties", {})
    for key in schema.get("required", []):
        if key in instance:
            continue
        hint = _expected(properties.get(key, {}))
        yield (
            (*path, key),
            doc.problem(
                path,
                "missing-key",
                f"the required key {quoted(key)} is missing",
                f"add {'an' if key[:1] in 'aeiou' else 'a'} {key} entry ({hint}) to {where}",
                at_key=True,
            ),
        )


def _expected(schema: Any) -> str:
    schema = _resolved(schema)
    if "enum" in schema:
        return "one of " + listing(str(v) for v in schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, str):
        return schema_kind(kind)
    return "a value"


def _unknown_keys(doc: Document, path: KeyPath, schema: Any, instance: Any) -> Found:
    allowed = list(schema.get("properties", {}))
    for key in instance:
        if key in allowed:
            continue
        key_path = (*path, key)
        guess = close_match(key, allowed)
        fix = f"rename it to {guess}" if guess else "remove it, or rename it to an allowed key"
        message = f"unknown key {quoted(key)}; the allowed keys are {listing(allowed)}"
        yield key_path, doc.problem(key_path, "unknown-key", message, fix, at_key=True)


def _one_of(doc: Document, path: KeyPath, error: ValidationError) -> Found:
    branches: list[Any] = (
        list(error.validator_value) if isinstance(error.validator_value, list) else []
    )
    instance: Any = error.instance
    for index, branch in enumerate(branches):
        kind = branch.get("type") if isinstance(branch, dict) else None
        if kind is None or not schema_validator().is_type(instance, kind):
            continue
        subs = [e for e in error.context or () if e.relative_schema_path[0] == index]
        if subs:
            for sub in subs:
                yield from _explain(doc, sub)
            return
    kinds = [schema_kind(b["type"]) for b in branches if isinstance(b, dict) and "type" in b]
    message = f"{_this(instance)} is {kind_of(instance)}; {' or '.join(kinds)} is expected"
    fix = f"write {' or '.join(kinds)} here"
    if path and path[-1] == "class_name":
        keys = " and/or ".join(lang.key for lang in LANGUAGES)
        fix = f"write a PascalCase class name, or a mapping with {keys} names"
    yield path, doc.problem(path, "wrong-type", message, fix)


def _duplicate_items(doc: Document, path: KeyPath, instance: list[Any]) -> Found:
    seen: list[Any] = []
    for index, item in enumerate(instance):
        if item in seen:
            item_path = (*path, index)
            yield (
                item_path,
                doc.problem(
                    item_path,
                    "duplicate-item",
                    f"{shown(item)} is listed twice",
                    "remove the second occurrence",
                ),
            )
        else:
            seen.append(item)


def _this(instance: Any) -> str:
    return "this" if isinstance(instance, dict | list) or instance is None else shown(instance)


def _words(
    path: KeyPath, keyword: str, expected: Any, schema: Any, instance: Any
) -> tuple[str, str, str]:
    if keyword == "type":
        return "wrong-type", *_type_words(expected, instance)
    if keyword == "enum":
        options = [str(option) for option in expected]
        guess = close_match(str(instance), options) if isinstance(instance, str) else None
        fix = f"write {guess}" if guess else f"write one of {listing(options)}"
        return "invalid-choice", f"{_this(instance)} is not one of {listing(options)}", fix
    if keyword == "pattern":
        if expected == "^[^A-Z]+$":
            return (
                "uppercase-trigger",
                f"the trigger {quoted(instance)} has upper-case letters; triggers are lower case",
                f"write it in lower case: {quoted(instance.lower())}",
            )
        words = _PATTERN_WORDS.get(str(expected), f"of the form {expected}")
        return (
            "invalid-format",
            f"{quoted(instance)} is not {words}",
            _pattern_fix(expected, instance),
        )
    if keyword == "minLength":
        return "empty-text", "the text is empty", "write the text; it may not be empty"
    if keyword == "maxLength":
        return "too-long", f"{quoted(instance)} is longer than {expected}", "shorten it"
    if keyword in ("minimum", "exclusiveMinimum"):
        return (
            "out-of-range",
            f"{instance} is below the minimum {expected}",
            f"write {expected} or more",
        )
    if keyword in ("maximum", "exclusiveMaximum"):
        return (
            "out-of-range",
            f"{instance} is above the maximum {expected}",
            f"write {expected} or less",
        )
    if keyword == "minProperties":
        options = list(schema.get("properties", {}))
        fix = f"add at least one of {listing(options)}" if options else "add at least one entry"
        return "empty-section", "this mapping is empty", fix
    if keyword == "minItems":
        return "empty-list", "this list is empty", "add at least one item"
    where = format_path(path) or "the catalogue"
    return "schema", "", f"change {where} to match schemas/{SCHEMA_NAME}"


def _type_words(expected: Any, instance: Any) -> tuple[str, str]:
    kinds = [expected] if isinstance(expected, str) else list(expected)
    wanted = " or ".join(schema_kind(kind) for kind in kinds)
    message = f"{_this(instance)} is {kind_of(instance)}; {wanted} is expected"
    if isinstance(instance, str):
        if ("integer" in kinds and INT_RE.match(instance)) or (
            "number" in kinds and (INT_RE.match(instance) or FLOAT_RE.match(instance))
        ):
            return message, f"write {instance} without quotes"
        if "boolean" in kinds and instance in ("true", "false"):
            return message, f"write {instance} without quotes"
    if "string" in kinds and isinstance(instance, bool | int | float):
        return message, f"quote it: {quoted(json.dumps(instance))}"
    if "integer" in kinds and isinstance(instance, float) and instance.is_integer():
        return message, f"write {int(instance)}"
    if "array" in kinds and isinstance(instance, str):
        return message, f"write it as a list: [{instance}]"
    return message, f"write {wanted} here"


def _pattern_fix(pattern: Any, instance: str) -> str:
    guess = snake_suggestion(instance)
    if pattern == "^[a-z][a-z0-9_]*$":
        return f"write {quoted(guess)}" if guess else "write it in lower snake_case ASCII"
    if pattern == "^[A-Z][A-Za-z0-9]*$":
        if guess is None:
            return "write it as a PascalCase ASCII name"
        return f"write {quoted(''.join(w.capitalize() for w in guess.split('_')))}"
    if str(pattern).startswith("^U\\+"):
        return f'write it like "U+{instance.upper().removeprefix("U+").zfill(4)}"'
    if str(pattern).startswith("^(0|[1-9]"):
        return "write three numbers without leading zeros, e.g. 1.4.0 (no v in front)"
    return "change it to match"
