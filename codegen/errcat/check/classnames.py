"""Class-name rules: every generated class is legal and unique in both languages.

Names come from :mod:`errcat.names.naming` (derived, or the ``class_name``
override) and are checked with its ``python_problem`` and
``typescript_problem``, so the validator checks exactly what the renderers
emit. Two codes may not share a class name in any language, not even one
that differs only in letter case (case-insensitive file systems, and readers,
would confuse them), nor an identifier a language makes from their class
names (a Rust ``Code`` variant, a context type).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple

from errcat.check.codes import collided_codes, usable_codes
from errcat.check.context import Context
from errcat.names import naming
from errcat.names.languages import LANGUAGES, Language
from errcat.source.document import KeyPath, format_path
from errcat.wording import quoted, snake_suggestion

DERIVED = "derived from the code"


class ClassName(NamedTuple):
    """One language's class name of a code, and where the catalogue decides it."""

    name: str
    where: KeyPath
    at_key: bool
    origin: str


def names_of(code: str, spec: dict[str, Any]) -> dict[str, ClassName]:
    """Each language's class name of ``code`` (:func:`errcat.names.naming.class_names`), and where it is set."""
    result: dict[str, ClassName] = {}
    for lang, choice in naming.class_names(code, spec.get("class_name")).items():
        if choice.keys:
            origin = "set by " + ".".join(choice.keys)
            result[lang] = ClassName(choice.name, ("codes", code, *choice.keys), False, origin)
        else:
            result[lang] = ClassName(choice.name, ("codes", code), True, DERIVED)
    return result


class _Style(NamedTuple):
    """What every class-name rule reads besides the names: the base class and a prefix to offer."""

    base: str
    """The catalogue's base class name ("" when absent or rejected)."""
    prefix: str
    """The word a suggested name starts with: the first word of the first language's
    import name (``mitos_errors`` gives ``Mitos``)."""


def _style(ctx: Context) -> _Style:
    base = ctx.data.get("base_class")
    first = LANGUAGES[0]
    names = ctx.section("packages").get(first.key)
    module = names.get(first.import_field) if isinstance(names, dict) else None
    return _Style(
        base if isinstance(base, str) and ctx.ok(("base_class",)) else "",
        module.split("_")[0].capitalize() if isinstance(module, str) else "Api",
    )


def _suggestion(
    style: _Style, code: str, name: str, held: Counter[str], own: Counter[str]
) -> str | None:
    """A legal, unused name to offer: the derived one, else the name with a prefix.

    A name is used when its folded form holds more names (``held``, every
    code's) than ``code``'s own (``own``): another code has it.

    A name with a letter that has no ASCII form gets no prefixed form: it
    would drop that letter and offer a different name.
    """
    stem = name if naming.CLASS_RE.match(name) else _class_stem(name)
    candidates = [naming.class_name_for(code)]
    if stem is not None:
        candidates.append(
            style.prefix + stem if stem.endswith("Error") else style.prefix + stem + "Error"
        )
    for candidate in candidates:
        if (
            all(naming.class_problem(lang.key, candidate, style.base) is None for lang in LANGUAGES)
            and held[naming.fold(candidate)] <= own[naming.fold(candidate)]
        ):
            return candidate
    return None


def base_class(ctx: Context) -> None:
    """The base class name is a legal class name in every language."""
    style = _style(ctx)
    if not style.base:
        return
    found: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        reason = naming.base_class_problem(lang.key, style.base)
        if reason is not None:
            found.setdefault(reason, []).append(lang.label)
    for reason, labels in found.items():
        ctx.add(
            ("base_class",),
            "base-class",
            f"the {' and '.join(labels)} base class name {reason}",
            f"choose another PascalCase base class name, e.g. {style.prefix}Error",
            at_key=False,
        )


def _legal(
    ctx: Context, style: _Style, names: dict[str, dict[str, ClassName]]
) -> set[tuple[str, str]]:
    """Report illegal names; return the (code, language) pairs that have one."""
    # How many names fold to each key: a key is taken by the other codes when
    # it holds more names than this code's own, with no scan of every code per bad name.
    held = Counter(naming.fold(n.name) for e in names.values() for n in e.values())
    bad: set[tuple[str, str]] = set()
    for code, entry in names.items():
        found: dict[tuple[KeyPath, str], list[str]] = {}
        for lang in LANGUAGES:
            chosen = entry[lang.key]
            reason = naming.class_problem(lang.key, chosen.name, style.base)
            if reason is not None:
                bad.add((code, lang.key))
                found.setdefault((chosen.where, f"{reason} ({chosen.origin})"), []).append(
                    lang.label
                )
        own = Counter(naming.fold(n.name) for n in entry.values())
        for (where, reason), labels in found.items():
            langs = [lang.key for lang in LANGUAGES if lang.label in labels]
            chosen = entry[langs[0]]
            example = _suggestion(style, code, chosen.name, held, own)
            ctx.add(
                where,
                "class-name",
                f"the {' and '.join(labels)} class name {reason}",
                _rename_fix(code, langs, chosen.origin, example),
                chosen.at_key,
            )
    return bad


class _Classes(NamedTuple):
    """The class names the uniqueness rule compares, and what else the envelope names."""

    names: dict[str, dict[str, ClassName]]
    """Each usable code's class name in each language."""
    bad: set[tuple[str, str]]
    """The (code, language) pairs whose name is illegal (reported already)."""
    with_context: list[str]
    """The codes with a context, whose context type is named after their class."""
    fields: list[str]
    """The usable context fields, whose value types are named after them."""


def _catalogue_types(
    ctx: Context, classes: _Classes, lang: str
) -> dict[str, tuple[str, str, str | None]]:
    """Types of language ``lang``'s envelope named after the catalogue, by folded name.

    Each code's context type (after its class in ``lang``) and each context
    field's value type, with what owns it and the fix when a class takes it.
    """
    names, bad = classes.names, classes.bad
    types: dict[str, tuple[str, str, str | None]] = {}
    for code in classes.with_context:
        if (code, lang) not in bad:
            line = ctx.doc.key_mark(("codes", code))[0]
            owner = f"the context type of {format_path(('codes', code))} (line {line})"
            name = naming.context_type_name(names[code][lang].name)
            types[naming.fold(name)] = (
                owner,
                name,
                "a class_name that does not end in Context",
            )
    for field in classes.fields:
        name = naming.context_field_type_name(field)
        owner = f"the value type of {format_path(('context_fields', field))}"
        types.setdefault(naming.fold(name), (owner, name, f"a class_name other than {name}"))
    return types


def _unique(ctx: Context, style: _Style, classes: _Classes, skip: set[str]) -> None:
    """Report two codes (or a code and a type of the envelope) with one class name beyond case.

    ``skip`` holds the codes whose collision the code-name rule reported already.
    """
    names, bad = classes.names, classes.bad
    clashes: dict[tuple[str, KeyPath, str], list[str]] = {}
    fixes: dict[tuple[str, KeyPath, str], tuple[str, bool]] = {}
    # folded name -> (owner, name, the fix when a class takes it; None for a class)
    for lang in LANGUAGES:
        seen = _catalogue_types(ctx, classes, lang.key)
        if style.base:
            seen[naming.fold(style.base)] = ("the base class", style.base, None)
        seen.update(_other_exports(ctx, classes, lang))
        for code, entry in names.items():
            chosen = entry[lang.key]
            if (code, lang.key) in bad or code in skip:
                continue
            key = naming.fold(chosen.name)
            if key not in seen:
                line = ctx.doc.key_mark(("codes", code))[0]
                seen[key] = (
                    f"{format_path(('codes', code))} (line {line})",
                    chosen.name,
                    None,
                )
                continue
            owner, other, type_fix = seen[key]
            if other == chosen.name:
                what = "class name" if type_fix is None else "name"
                text = f"{quoted(chosen.name)} is also the {what} of {owner}"
            else:
                text = (
                    f"{quoted(chosen.name)} collides with {quoted(other)} of {owner} "
                    "when case is ignored"
                )
            clashes.setdefault((code, chosen.where, text), []).append(lang.label)
            fix = f"give {format_path(('codes', code))} " + (
                f"a class_name that differs from {quoted(other)} in more than letter case"
                if type_fix is None
                else type_fix
            )
            fixes[(code, chosen.where, text)] = (fix, chosen.at_key)
    for (_code, where, text), labels in clashes.items():
        fix, at_key = fixes[(_code, where, text)]
        ctx.add(
            where,
            "class-collision",
            f"the {' and '.join(labels)} class name {text}",
            fix,
            at_key,
        )


class _Made(NamedTuple):
    """One kind of identifier a language makes from a code's class name."""

    what: str
    """How messages name it (``code identifier``, ``context type``)."""
    make: Callable[[str], str]
    codes: list[str]
    """The codes that have one."""


def _made(classes: _Classes, lang: Language) -> list[_Made]:
    """The identifiers ``lang`` makes from class names, each kind in a namespace of its own."""
    made = []
    if lang.code_identifier is not None:
        made.append(_Made("code identifier", lang.code_identifier, list(classes.names)))
    if lang.context_types:
        made.append(_Made("context type", naming.context_type_name, classes.with_context))
    return made


def _made_unique(ctx: Context, classes: _Classes, skip: set[str]) -> None:
    """Report two codes whose class names differ but make one identifier in some language.

    Every language of :data:`LANGUAGES` is checked, with the identifiers its
    record says it makes (:attr:`Language.code_identifier`, the context types):
    ``RateLimited`` and ``RateLimitedError`` are two classes, but one Rust
    ``Code::RateLimited`` and one ``RateLimitedContext``. Class names equal
    beyond case are :func:`_unique`'s to report; ``skip`` holds the codes the
    code-name rule reported.
    """
    clashes: dict[tuple[KeyPath, str, str], list[str]] = {}
    at_keys: dict[tuple[KeyPath, str, str], bool] = {}
    for lang in LANGUAGES:
        for kind in _made(classes, lang):
            seen: dict[str, tuple[str, str]] = {}
            for code in kind.codes:
                if (code, lang.key) in classes.bad or code in skip:
                    continue
                chosen = classes.names[code][lang.key]
                made = kind.make(chosen.name)
                other = seen.setdefault(naming.fold(made), (code, chosen.name))
                if other[0] == code or naming.fold(other[1]) == naming.fold(chosen.name):
                    continue
                line = ctx.line(("codes", other[0]))
                text = (
                    f"{kind.what} {quoted(made)} of the class name {quoted(chosen.name)} is also "
                    f"the {kind.what} of {format_path(('codes', other[0]))} (line {line}), "
                    f"whose class name is {quoted(other[1])}"
                )
                if chosen.origin == DERIVED:
                    fix = f"add a class_name to {format_path(('codes', code))}"
                else:
                    fix = f"change {format_path(chosen.where)} to a name"
                fix += f" whose {kind.what} is not {quoted(made)}"
                clashes.setdefault((chosen.where, text, fix), []).append(lang.label)
                at_keys[(chosen.where, text, fix)] = chosen.at_key
    for (where, text, fix), labels in clashes.items():
        ctx.add(
            where,
            "class-collision",
            f"the {', '.join(labels)} {text}",
            fix,
            at_keys[(where, text, fix)],
        )


def _other_exports(
    ctx: Context, classes: _Classes, lang: Language
) -> dict[str, tuple[str, str, str | None]]:
    """The names besides its class a code's class name gives ``lang`` (the Go ``Code<Name>``), by folded name."""
    if lang.class_exports is None:
        return {}
    out: dict[str, tuple[str, str, str | None]] = {}
    for code, entry in classes.names.items():
        if (code, lang.key) in classes.bad:
            continue
        line = ctx.doc.key_mark(("codes", code))[0]
        for name in lang.class_exports(entry[lang.key].name)[1:]:
            owner = f"the {lang.label} name {name} of {format_path(('codes', code))} (line {line})"
            out[naming.fold(name)] = (owner, name, f"a class_name.{lang.key} other than {name}")
    return out


def _class_stem(name: str) -> str | None:
    """The class name spelt from ``name``'s ASCII form, or ``None`` if a letter has none."""
    snake = snake_suggestion(name)
    return None if snake is None else naming.class_name_for(snake)


def _rename_fix(code: str, langs: list[str], origin: str, example: str | None) -> str:
    new = example or "<NewName>"
    where = format_path(("codes", code))
    if origin == DERIVED:
        value = new if len(langs) == len(LANGUAGES) else f"{{{langs[0]}: {new}}}"
        return f"add class_name: {value} to {where}"
    key = "class_name" if origin == "set by class_name" else f"class_name.{langs[0]}"
    return f"change {where}.{key} to another PascalCase name, e.g. {new}"


def check(ctx: Context) -> None:
    """Every code's class names are legal and unique in every language, beyond case."""
    style = _style(ctx)
    codes = usable_codes(ctx)
    names = {
        code: names_of(code, spec)
        for code, spec in codes.items()
        if ctx.ok(("codes", code, "class_name"))
    }
    with_context = [code for code in names if codes[code].get("context")]
    usable_fields = [
        f
        for f in ctx.section("context_fields")
        if isinstance(f, str) and ctx.ok(("context_fields", f))
    ]
    classes = _Classes(names, _legal(ctx, style, names), with_context, usable_fields)
    skip = collided_codes(ctx)
    _unique(ctx, style, classes, skip)
    _made_unique(ctx, classes, skip)
