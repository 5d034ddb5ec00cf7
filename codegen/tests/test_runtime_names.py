"""The names no class may take are the packages' own, derived by parsing them, and refused.

``errcat/names/reserved.json`` must equal a fresh derivation from the
runtimes and the generated modules; every name in it is refused as a class
name and as the base class; the parsers find a name however a module binds it.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.check.validate import validate
from errcat.model.catalogue import build_model
from errcat.names import module_names, naming, reserved
from errcat.names.languages import LANGUAGES, PYTHON, Language
from errcat.problems import Problem
from errcat.render import renderer
from errcat.source.load import parse_catalogue

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
MINIMAL = (HERE / "fixtures" / "good" / "minimal.yaml").read_text(encoding="utf-8")
NAMES = sorted(naming.runtime_names())
RUNTIME_BASES = {lang.runtime_base for lang in LANGUAGES}


def _needs_typescript() -> None:
    if shutil.which("node") and (REPO / module_names.TS_COMPILER / "package.json").is_file():
        return
    if os.environ.get("CI"):
        pytest.fail("TypeScript is not installed: run npm ci in ts-sdk first (nox -s tests does)")
    pytest.skip("TypeScript is not installed (npm ci in ts-sdk)")


def _validate(old: str, new: str) -> list[Problem]:
    assert MINIMAL.count(old) == 1, old
    return validate(parse_catalogue(MINIMAL.replace(old, new), "v.yaml"))


def test_the_names_file_follows_the_packages() -> None:
    _needs_typescript()
    fresh = reserved.dumps(reserved.derive(REPO))
    assert (REPO / reserved.DATA).read_text(encoding="utf-8") == fresh, (
        f"errcat/names/reserved.json is stale: run {reserved.COMMAND}"
    )


def test_the_names_file_has_a_list_per_language() -> None:
    data = json.loads((REPO / reserved.DATA).read_text(encoding="utf-8"))
    assert sorted(data) == sorted(lang.key for lang in LANGUAGES)
    for lang in LANGUAGES:
        assert lang.runtime_base in data[lang.key], lang.key


@pytest.mark.parametrize(
    "name", ["CatchAll", "CLASSES", "ErrorHook", "ErrorEnvelope", "ErrorClassOf"]
)
def test_a_class_may_not_take_a_name_of_either_package(name: str) -> None:
    problems = _validate("  internal:\n", f"  internal:\n    class_name: {name}\n")
    assert [p.rule for p in problems] == ["class-name"], problems
    assert "already a name of the SDK runtime" in problems[0].message


@pytest.mark.parametrize(
    "name",
    ["ErrorEnvelope", "Code", "Context", "Recovery", "ErrorObject", "ErrorClassOf", "CLASSES"],
)
def test_the_base_class_may_not_take_a_name_of_either_package(name: str) -> None:
    problems = _validate("base_class: MinimalError", f"base_class: {name}")
    assert [p.rule for p in problems] == ["base-class"], problems


@pytest.mark.parametrize("name", sorted(RUNTIME_BASES))
def test_the_base_class_may_be_named_as_a_runtime_base(name: str) -> None:
    assert _validate("base_class: MinimalError", f"base_class: {name}") == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES))
def test_every_reserved_name_is_refused_for_a_class_and_the_base(name: str) -> None:
    as_class = _validate("  internal:\n", f"  internal:\n    class_name: {name}\n")
    assert "class-name" in [p.rule for p in as_class]
    if name not in RUNTIME_BASES:
        as_base = _validate("base_class: MinimalError", f"base_class: {name}")
        assert "base-class" in [p.rule for p in as_base]


@pytest.mark.parametrize("language", LANGUAGES, ids=lambda lang: lang.key)
def test_validation_refuses_every_name_the_generated_modules_declare(language: Language) -> None:
    # The renderers do not re-check names: every name a generated module of the
    # minimal catalogue declares (other classes, the base, Known<base>, context
    # types, envelope types) must be refused as the class of one of its codes.
    if language.key == "typescript":
        _needs_typescript()
    doc = parse_catalogue(MINIMAL, "v.yaml")
    cat = build_model(doc.data, source="v.yaml", regenerate="-")
    files = renderer(language.key)(cat)
    texts = [text for path, text in sorted(files.items()) if path.endswith(language.suffix)]
    own = cat.code("internal").class_names[language.key]
    exports = language.class_exports(own) if language.class_exports else (own,)
    declared = set().union(*language.module_names(texts, REPO)) - language.globals - set(exports)
    accepted = [
        name
        for name in sorted(declared)
        if naming.CLASS_RE.match(name)
        and not _validate(
            "  internal:\n", f"  internal:\n    class_name: {_override(language, name)}\n"
        )
    ]
    assert accepted == []


def _override(language: Language, name: str) -> str:
    """The class_name that names ``name`` in ``language`` (its own key where a string does not reach it)."""
    return name if language.shared_class_name else f"{{{language.key}: {name}}}"


def test_the_derivation_reads_whatever_modules_exist(tmp_path: Path) -> None:
    _needs_typescript()
    (tmp_path / "catalogue").mkdir()
    shutil.copy(REPO / "catalogue" / "errors.yaml", tmp_path / "catalogue" / "errors.yaml")
    for lang in LANGUAGES:
        shutil.copytree(REPO / lang.runtime_dir, tmp_path / lang.runtime_dir)
    python_dir = tmp_path / LANGUAGES[0].runtime_dir
    (python_dir / "_split_module.py").write_text("class FreshPythonName:\n    pass\n")
    (tmp_path / LANGUAGES[1].runtime_dir / "fresh.ts").write_text(
        "export interface FreshTsName {}\n"
    )
    (tmp_path / module_names.TS_COMPILER).parent.parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / module_names.TS_COMPILER).parent.symlink_to(REPO / module_names.TS_COMPILER.parent)
    derived = reserved.derive(tmp_path)
    assert "FreshPythonName" in derived["python"]
    assert "FreshTsName" in derived["typescript"]
    # A name of the catalogue (a class, a context type) is not a name of the package.
    assert "RateLimitedError" not in derived["python"] + derived["typescript"]
    assert "RateLimitedContext" not in derived["python"] + derived["typescript"]


PYTHON_FORMS = [
    "{n} = 1",
    "{n}: int = 1",
    "class {n}:\n    pass",
    "def {n}() -> None:\n    pass",
    "import os as {n}",
    "from os import path as {n}",
    "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from os import {n}",
    '__all__ = ["{n}"]',
    "try:\n    {n} = 1\nexcept ImportError:\n    pass",
    "class A({n}):\n    pass",
]
TS_FORMS = [
    "export const {n} = 1;",
    "const {n} = 1;",
    "export class {n} {{}}",
    "export interface {n} {{}}",
    "export type {n} = string;",
    "export function {n}(): void {{}}",
    'import {{ x as {n} }} from "./x.js";',
    'import type {{ {n} }} from "./x.js";',
    'export {{ x as {n} }} from "./x.js";',
    'export type {{ {n} }} from "./x.js";',
    "export enum {n} {{ A }}",
]
IDENT = st.from_regex(r"[A-Z][A-Za-z0-9]{0,12}", fullmatch=True)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(IDENT, st.sampled_from(PYTHON_FORMS)), min_size=1, max_size=5))
def test_the_python_parser_finds_a_name_however_a_module_binds_it(
    items: list[tuple[str, str]],
) -> None:
    usable = [(name, form) for name, form in items if name not in PYTHON.keywords]
    found = module_names.python([form.format(n=name) for name, form in usable], REPO)
    for (name, _form), names in zip(usable, found, strict=True):
        assert name in names


def test_the_python_parser_leaves_function_bodies_alone() -> None:
    (names,) = module_names.python(["def f() -> None:\n    Local = 1\n"], REPO)
    assert "Local" not in names


# One Node run per example: few examples, many modules each.
@settings(max_examples=3, deadline=None)
@given(st.lists(st.tuples(IDENT, st.sampled_from(TS_FORMS)), min_size=20, max_size=40))
def test_the_typescript_parser_finds_a_name_however_a_module_declares_it(
    items: list[tuple[str, str]],
) -> None:
    _needs_typescript()
    found = module_names.typescript([form.format(n=name) for name, form in items], REPO)
    for (name, _form), names in zip(items, found, strict=True):
        assert name in names


def test_another_apis_typescript_package_exports_its_base_under_its_own_name_only() -> None:
    # The runtime's base class is AgentRunError in base.ts; the package exports it, and its
    # Init and JSON types, under the catalogue's base_class alone.
    doc = parse_catalogue(MINIMAL, "v.yaml")
    cat = build_model(doc.data, source="v.yaml", regenerate="-")
    files = renderer("typescript")(cat)
    exported = "".join(text for path, text in files.items() if path.endswith(".ts"))
    base = cat.base_class
    assert base != "AgentRunError"
    assert f"export {{ {base} }};" in exported
    assert f"AgentRunErrorInit as {base}Init, AgentRunErrorJSON as {base}JSON" in exported
    index = next(text for path, text in files.items() if path.endswith("src/index.ts"))
    assert "AgentRunError" not in index.split("*/", 1)[1], index
