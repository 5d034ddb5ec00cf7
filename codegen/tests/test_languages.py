"""Every per-language list follows the one list of target languages (errcat.names.languages).

A new language is an entry in ``LANGUAGES`` plus what the README's "Adding a
target language" names; these tests fail, naming the list, when something
else still spells the languages out.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import given
from hypothesis import strategies as st

from errcat.check import patterns
from errcat.model.catalogue import Catalogue, build_model
from errcat.model.package import OVERLAY_KEY
from errcat.names import languages, naming
from errcat.names.languages import LANGUAGES, Language, RegexDialect
from errcat.render import NEUTRAL_TARGETS, TARGETS, environment, renderer
from errcat.render.target import PARTS, SdkTarget, missing_parts, sdk_target
from errcat.source.load import load_catalogue

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
KEYS = [lang.key for lang in LANGUAGES]


def test_every_language_is_a_render_target_after_the_neutral_ones() -> None:
    assert list(TARGETS) == [*NEUTRAL_TARGETS, *KEYS]


def test_the_meta_schema_class_name_keys_are_the_languages() -> None:
    schema = json.loads((REPO / "schemas" / "catalogue.schema.json").read_text(encoding="utf-8"))
    code = schema["properties"]["codes"]["additionalProperties"]["properties"]
    per_language = [b for b in code["class_name"]["oneOf"] if b.get("type") == "object"]
    assert len(per_language) == 1
    assert sorted(per_language[0]["properties"]) == sorted(KEYS), (
        "schemas/catalogue.schema.json: give class_name one key per language of errcat.names.languages"
    )
    assert per_language[0]["additionalProperties"] is False


def test_the_meta_schema_packages_are_each_languages_package_fields() -> None:
    schema = json.loads((REPO / "schemas" / "catalogue.schema.json").read_text(encoding="utf-8"))
    packages = schema["properties"]["packages"]
    assert sorted(packages["properties"]) == sorted([*KEYS, OVERLAY_KEY])
    # An overlay is for a package folder errcat check holds (Language.package_dir).
    held = [lang.key for lang in LANGUAGES if lang.package_dir]
    assert sorted(packages["properties"][OVERLAY_KEY]["properties"]) == sorted(held)
    for lang in LANGUAGES:
        entry = packages["properties"][lang.key]
        assert sorted(entry["properties"]) == sorted(lang.package_fields), lang.key
        assert {lang.install_field, lang.import_field} <= set(lang.package_fields), lang.key
        placeholders = {part.split("}")[0] for part in lang.generated_dir.split("{")[1:]}
        assert placeholders <= set(lang.package_fields), lang.generated_dir


def test_every_language_has_templates_and_a_runtime() -> None:
    templates = environment().list_templates()
    for lang in LANGUAGES:
        assert any(t.startswith(f"{lang.key}/") for t in templates), lang.key
        assert (REPO / lang.runtime_dir).is_dir(), lang.runtime_dir


def _mitos() -> Catalogue:
    doc = load_catalogue(REPO / "catalogue" / "errors.yaml")
    return build_model(doc.data, source="catalogue/errors.yaml", regenerate="-")


def test_the_model_names_each_class_in_every_language() -> None:
    cat = _mitos()
    for code in cat.codes:
        assert sorted(code.class_names) == sorted(KEYS), code.code


CLASS = st.from_regex(r"[A-Z][A-Za-z0-9]{0,10}", fullmatch=True)


@given(
    st.from_regex(r"[a-z][a-z0-9_]{0,15}", fullmatch=True),
    st.one_of(
        st.none(),
        CLASS,
        st.dictionaries(st.sampled_from(KEYS), CLASS, min_size=1),
    ),
)
def test_class_names_are_resolved_for_every_language_in_one_place(
    code: str, override: object
) -> None:
    names = naming.class_names(code, override)
    assert sorted(names) == sorted(KEYS)
    for key, choice in names.items():
        if isinstance(override, str) and languages.language(key).shared_class_name:
            assert (choice.name, choice.keys) == (override, ("class_name",))
        elif isinstance(override, dict) and key in override:
            assert (choice.name, choice.keys) == (override[key], ("class_name", key))
        else:
            derive = languages.language(key).derive_class_name or naming.class_name_for
            assert (choice.name, choice.keys) == (derive(code), ())


# -- a language target is a declared contract -------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES, ids=KEYS)
def test_every_language_target_implements_every_part(lang: Language) -> None:
    target = sdk_target(lang)
    assert missing_parts(type(target)) == []
    cat = _mitos()
    files = target.render(cat)
    assert files == renderer(target.language.key)(cat)
    out = PurePosixPath(target.output_dir(cat))
    package = PurePosixPath(lang.package_dir)
    assert all(package in PurePosixPath(path).parents for path in files), sorted(files)
    for part in PARTS:
        produced = getattr(target, part)(cat)
        assert set(produced) <= set(files), part
        assert produced, f"{lang}: the {part} part renders nothing"
        if part != "package_files":  # the package around them: manifest, runtime, README...
            assert all(PurePosixPath(path).parent == out for path in produced), part


def test_a_target_missing_a_part_is_refused() -> None:
    class Incomplete(SdkTarget):
        language = LANGUAGES[0]

        def errors(self, cat: Catalogue) -> dict[str, str]:
            return {}

        def catalogue_data(self, cat: Catalogue) -> dict[str, str]:
            return {}

        def sanitizer_rules(self, cat: Catalogue) -> dict[str, str]:
            return {}

        def package_files(self, cat: Catalogue) -> dict[str, str]:
            return {}

    assert missing_parts(Incomplete) == ["envelope_types"]
    with pytest.raises(TypeError, match="envelope_types"):
        Incomplete()  # type: ignore[abstract]


def test_the_writer_owns_each_languages_generated_folder() -> None:
    from errcat.write import GENERATED_DIRS

    assert tuple(PurePosixPath(lang.generated_dir).name for lang in LANGUAGES) == GENERATED_DIRS


LANGUAGE_HOMES = (
    "names/languages.py",
    "names/module_names.py",
    *(f"names/{lang.key}_names.py" for lang in LANGUAGES),
    *(f"render/{lang.key}/" for lang in LANGUAGES),
)
"""Where a language may be named: the records, the module-name parsers, and each language's
words (``names/<key>_names.py``) and target folder."""

NAMED_FOR_ANOTHER_REASON = {
    "check/validate.py": "Python",  # the meta-schema's pattern of a PyPI distribution name
    "source/scalars.py": "JavaScript",  # the integers a JSON reader in JavaScript holds exactly
}
"""Messages that name a language for what it is outside the targets, not as one."""

_LANGUAGE_WORD = re.compile(
    r"\b(?:"
    + "|".join(
        re.escape(word)
        for lang in LANGUAGES
        for word in (lang.label, lang.regex_dialect.name.split()[0])
    )
    + r")\b"
)
"""A language's label or its regex engine's first word (``JavaScript``, ``RE2``), as a word."""


def test_every_names_module_of_a_language_is_its_home() -> None:
    modules = sorted((REPO / "codegen" / "errcat" / "names").glob("*_names.py"))
    assert {p.stem.removesuffix("_names") for p in modules} - {"module"} <= set(KEYS), (
        "a names/<key>_names.py module is a language's own only when <key> is its record's key"
    )


def _prose(tree: ast.AST) -> set[int]:
    """The ids of the string statements (docstrings, attribute docstrings): prose, not values."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def _names_a_language(source: str) -> list[tuple[int, str]]:
    words = {lang.key for lang in LANGUAGES} | {lang.label for lang in LANGUAGES}
    records = {lang.key.upper() for lang in LANGUAGES}
    found = []
    tree = ast.parse(source)
    prose = _prose(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in words:
            found.append((node.lineno, node.value))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in prose
            and (word := _LANGUAGE_WORD.search(node.value))
        ):
            found.append((node.lineno, word.group()))
        elif isinstance(node, ast.Name) and node.id in records:
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.alias) and node.name in records:
            found.append((node.lineno, node.name))
        elif isinstance(node, ast.Attribute) and node.attr.startswith(("python_", "ts_")):
            found.append((node.lineno, node.attr))
    return found


def test_nothing_else_names_a_language() -> None:
    root = REPO / "codegen" / "errcat"
    offenders = [
        f"{rel}:{line}: {word}"
        for path in sorted(root.rglob("*.py"))
        if not (rel := path.relative_to(root).as_posix()).startswith(LANGUAGE_HOMES)
        for line, word in _names_a_language(path.read_text(encoding="utf-8"))
        if NAMED_FOR_ANOTHER_REASON.get(rel) != word
    ]
    assert offenders == [], "read the language record (errcat.names.languages) instead"


@pytest.mark.parametrize(
    "source",
    [
        'KEY = "python"',
        "from errcat.names.languages import TYPESCRIPT",
        "label = lang.label if lang else 'TypeScript'",
        "name = entry.python_class",
        'ENGINES = "RE2 (Go) and Rust regex"',
        'found = (PORTABLE, "the escape \\\\0 (Rust regex refuses it)", fix)',
        'name = f"{shown} inside a class (a set operation in Rust)"',
        'def f() -> None:\n    """Python re reads it."""\n    return "in JavaScript"',
    ],
)
def test_the_language_scan_finds_a_language_named(source: str) -> None:
    assert _names_a_language(source) != []


def test_the_language_scan_reads_prose_as_prose() -> None:
    source = '"""Python re and RE2 (Go) read it."""\nX = 1\n"""What X is in TypeScript."""\n'
    assert _names_a_language(source) == []


# -- the regex engines are the records' -------------------------------------------------------

REFUSED_SAMPLES = {
    "\\A": r"\Aa",
    "\\Z": r"a\Z",
    "\\p": r"\p{L}",
    "\\P": r"\P{L}",
    "\\u": r"\u00e9",
    "\\0": r"a\0",
    patterns.CLASS_SET: "[a&&b]",
    patterns.LONG_COUNT: "a{1001}",
}
"""A pattern with each construct a regex dialect may refuse."""


def test_every_refusal_a_record_lists_is_one_the_checker_words() -> None:
    assert set(REFUSED_SAMPLES) == patterns.REFUSABLE
    for lang in LANGUAGES:
        assert lang.regex_dialect.refuses <= patterns.REFUSABLE, lang.key
    assert patterns.Engines.of(LANGUAGES) == patterns.ENGINES


@given(
    name=st.from_regex(r"[A-Z][a-z]{2,8} engine", fullmatch=True),
    linear=st.booleans(),
    refuses=st.frozensets(st.sampled_from(sorted(patterns.REFUSABLE))),
)
def test_a_new_records_engine_is_named_where_it_refuses(
    name: str, linear: bool, refuses: frozenset[str]
) -> None:
    dialect = RegexDialect(name, linear=linear, refuses=refuses)
    new = dataclasses.replace(LANGUAGES[-1], key="new", label="New", regex_dialect=dialect)
    engines = patterns.Engines.of((*LANGUAGES, new))
    assert name in engines.all
    assert (name in engines.linear) == linear
    others = patterns.Engines.of(LANGUAGES)
    for construct, sample in REFUSED_SAMPLES.items():
        said = " ".join(found for _rule, found, _fix in patterns.findings(sample, engines))
        assert (name in said) == (construct in refuses), (construct, said)
        before = " ".join(found for _rule, found, _fix in patterns.findings(sample, others))
        if construct not in refuses:
            assert said == before, construct


def test_the_checker_names_the_records_linear_engines() -> None:
    linear = [lang.regex_dialect.name for lang in LANGUAGES if lang.regex_dialect.linear]
    assert patterns.ENGINES.linear == f"{patterns.listed(linear)} refuse"
    assert len(linear) > 1
