"""Class-name rules: every generated class is legal and unique in both languages.

Names come from :mod:`errcat.names.naming` (derived, or the ``class_name``
override) and are checked with its ``python_problem`` and
``typescript_problem``, so the validator checks exactly what the renderers
emit. Two codes may not share a class name in either language, not even one
that differs only in letter case (case-insensitive file systems, and readers,
would confuse them).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from errcat.names import naming
from errcat.names.languages import LANGUAGES
from errcat.problems import Problem
from errcat.source.document import Document, KeyPath, format_path, is_rejected
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


class _Checker:
    def __init__(self, doc: Document, rejected: set[KeyPath], skip: set[str]) -> None:
        self.doc = doc
        self.skip = skip
        self.problems: list[Problem] = []
        data = doc.data if isinstance(doc.data, dict) else {}
        base = data.get("base_class")
        self.base = (
            base if isinstance(base, str) and not is_rejected(("base_class",), rejected) else ""
        )
        packages = data.get("packages")
        python = packages.get("python") if isinstance(packages, dict) else None
        module = python.get("module") if isinstance(python, dict) else None
        self.prefix = module.split("_")[0].capitalize() if isinstance(module, str) else "Api"

    def add(self, where: KeyPath, rule: str, message: str, fix: str, at_key: bool) -> None:
        self.problems.append(self.doc.problem(where, rule, message, fix, at_key=at_key))

    def suggestion(self, code: str, name: str, held: Counter[str], own: Counter[str]) -> str | None:
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
                self.prefix + stem if stem.endswith("Error") else self.prefix + stem + "Error"
            )
        for candidate in candidates:
            if (
                all(
                    naming.class_problem(lang.key, candidate, self.base) is None
                    for lang in LANGUAGES
                )
                and held[naming.fold(candidate)] <= own[naming.fold(candidate)]
            ):
                return candidate
        return None

    def base_class(self) -> None:
        if not self.base:
            return
        found: dict[str, list[str]] = {}
        for lang in LANGUAGES:
            reason = naming.base_class_problem(lang.key, self.base)
            if reason is not None:
                found.setdefault(reason, []).append(lang.label)
        for reason, labels in found.items():
            self.add(
                ("base_class",),
                "base-class",
                f"the {' and '.join(labels)} base class name {reason}",
                f"choose another PascalCase base class name, e.g. {self.prefix}Error",
                at_key=False,
            )

    def legal(self, names: dict[str, dict[str, ClassName]]) -> set[tuple[str, str]]:
        """Report illegal names; return the (code, language) pairs that have one."""
        # How many names fold to each key: a key is taken by the other codes when
        # it holds more names than this code's own, with no scan of every code per bad name.
        held = Counter(naming.fold(n.name) for e in names.values() for n in e.values())
        bad: set[tuple[str, str]] = set()
        for code, entry in names.items():
            found: dict[tuple[KeyPath, str], list[str]] = {}
            for lang in LANGUAGES:
                chosen = entry[lang.key]
                reason = naming.class_problem(lang.key, chosen.name, self.base)
                if reason is not None:
                    bad.add((code, lang.key))
                    found.setdefault((chosen.where, f"{reason} ({chosen.origin})"), []).append(
                        lang.label
                    )
            own = Counter(naming.fold(n.name) for n in entry.values())
            for (where, reason), labels in found.items():
                langs = [lang.key for lang in LANGUAGES if lang.label in labels]
                chosen = entry[langs[0]]
                example = self.suggestion(code, chosen.name, held, own)
                self.add(
                    where,
                    "class-name",
                    f"the {' and '.join(labels)} class name {reason}",
                    _rename_fix(code, langs, chosen.origin, example),
                    chosen.at_key,
                )
        return bad

    def catalogue_types(
        self,
        names: dict[str, dict[str, ClassName]],
        bad: set[tuple[str, str]],
        with_context: list[str],
        fields: list[str],
        lang: str,
    ) -> dict[str, tuple[str, str, str | None]]:
        """Types of language ``lang``'s envelope named after the catalogue, by folded name.

        Each code's context type (after its class in ``lang``) and each context
        field's value type, with what owns it and the fix when a class takes it.
        """
        types: dict[str, tuple[str, str, str | None]] = {}
        for code in with_context:
            if (code, lang) not in bad:
                line = self.doc.key_mark(("codes", code))[0]
                owner = f"the context type of {format_path(('codes', code))} (line {line})"
                name = naming.context_type_name(names[code][lang].name)
                types[naming.fold(name)] = (
                    owner,
                    name,
                    "a class_name that does not end in Context",
                )
        for field in fields:
            name = naming.context_field_type_name(field)
            owner = f"the value type of {format_path(('context_fields', field))}"
            types.setdefault(naming.fold(name), (owner, name, f"a class_name other than {name}"))
        return types

    def unique(
        self,
        names: dict[str, dict[str, ClassName]],
        bad: set[tuple[str, str]],
        with_context: list[str],
        fields: list[str],
    ) -> None:
        clashes: dict[tuple[str, KeyPath, str], list[str]] = {}
        fixes: dict[tuple[str, KeyPath, str], tuple[str, bool]] = {}
        # folded name -> (owner, name, the fix when a class takes it; None for a class)
        for lang in LANGUAGES:
            seen = self.catalogue_types(names, bad, with_context, fields, lang.key)
            if self.base:
                seen[naming.fold(self.base)] = ("the base class", self.base, None)
            for code, entry in names.items():
                chosen = entry[lang.key]
                if (code, lang.key) in bad or code in self.skip:
                    continue
                key = naming.fold(chosen.name)
                if key not in seen:
                    line = self.doc.key_mark(("codes", code))[0]
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
            self.add(
                where,
                "class-collision",
                f"the {' and '.join(labels)} class name {text}",
                fix,
                at_key,
            )


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


def check(
    doc: Document,
    rejected: set[KeyPath],
    codes: dict[str, dict[str, Any]],
    skip: set[str],
) -> list[Problem]:
    """Check the base class and every code's class names.

    Args:
        doc: the loaded catalogue.
        rejected: key paths the meta-schema already rejected; they are skipped.
        codes: the codes whose names and entries are usable, in catalogue order.
        skip: codes already reported as colliding with another code (not reported again).

    Returns:
        The problems found.
    """
    checker = _Checker(doc, rejected, skip)
    checker.base_class()
    names = {
        code: names_of(code, spec)
        for code, spec in codes.items()
        if not is_rejected(("codes", code, "class_name"), rejected)
    }
    with_context = [code for code in names if codes[code].get("context")]
    data = doc.data if isinstance(doc.data, dict) else {}
    fields = data.get("context_fields")
    usable_fields = [
        f
        for f in (fields if isinstance(fields, dict) else {})
        if isinstance(f, str) and not is_rejected(("context_fields", f), rejected)
    ]
    checker.unique(names, checker.legal(names), with_context, usable_fields)
    return checker.problems
