"""The catalogue's ``sdk`` section: its rule, its model, and what each SDK generates from it."""

from __future__ import annotations

from pathlib import Path

import pytest
from catalogue_variants import edited

from errcat.check.validate import validate
from errcat.metaschema import meta_schema
from errcat.model.catalogue import Catalogue, build_model
from errcat.model.sdk import ROLES
from errcat.problems import Problem
from errcat.render.python import target as render_python
from errcat.render.typescript import target as render_typescript
from errcat.source.document import Document
from errcat.source.load import load_catalogue, parse_catalogue

FALLBACK = "fallback:\n"
FULL = """sdk:
  transport:
    failed: internal
    lost: internal
    timed_out: internal
  validation:
    invalid: bad_request
    too_large: bad_request
  exec_deadline:
    code: internal
    exit_status: 124
"""


def with_sdk(section: str) -> Document:
    """The minimal catalogue (codes bad_request 400, rate_limited 429, internal 500) with ``section``."""
    return parse_catalogue(edited((FALLBACK, section + FALLBACK)), "v.yaml")


def problems(section: str) -> list[Problem]:
    return validate(with_sdk(section))


def model(section: str) -> Catalogue:
    doc = with_sdk(section)
    assert validate(doc) == []
    return build_model(doc.data, source="v.yaml", regenerate="nox -s generate")


def test_the_meta_schema_spells_the_roles_of_the_one_list() -> None:
    groups = meta_schema()["properties"]["sdk"]["properties"]
    assert {group: list(entry["properties"]) for group, entry in groups.items()} == {
        "transport": list(ROLES["transport"]),
        "validation": list(ROLES["validation"]),
        "exec_deadline": [*ROLES["exec_deadline"], "exit_status"],
    }


def test_a_full_section_is_valid() -> None:
    assert problems(FULL) == []


def test_a_named_code_must_exist() -> None:
    found = problems(FULL.replace("invalid: bad_request", "invalid: bad_requets"))
    assert [(p.rule, p.fix) for p in found] == [("unknown-sdk-code", 'write "bad_request"')]
    assert (found[0].file, found[0].line) == (
        "v.yaml",
        edited().splitlines().index(FALLBACK.strip()) + 7,
    )


def test_a_named_code_must_not_be_retired() -> None:
    found = problems(FULL.replace("failed: internal", "failed: too_many_requests"))
    assert [p.rule for p in found] == ["retired-code-referenced"]


@pytest.mark.parametrize(
    ("old", "new", "wanted"),
    [
        ("lost: internal", "lost: rate_limited", "5xx"),
        ("too_large: bad_request", "too_large: internal", "4xx"),
        ("    code: internal", "    code: bad_request", "5xx"),
    ],
)
def test_a_named_code_has_its_roles_status_class(old: str, new: str, wanted: str) -> None:
    found = problems(FULL.replace(old, new))
    assert [p.rule for p in found] == ["sdk-code-status"]
    assert f"is a {wanted} code" in found[0].message
    assert found[0].fix.startswith(f"name a code whose http is a {wanted} status")
    line = (
        edited((FALLBACK, FULL.replace(old, new) + FALLBACK))
        .splitlines()
        .index(
            next(
                line for line in FULL.replace(old, new).splitlines() if line.strip() == new.strip()
            )
        )
    )
    assert found[0].line == line + 1


def test_a_group_needs_its_roles_but_aborted() -> None:
    assert [p.rule for p in problems(FULL.replace("    timed_out: internal\n", ""))] != []
    assert (
        problems(
            FULL.replace("    lost: internal\n", "    lost: internal\n    aborted: bad_request\n")
        )
        == []
    )


def test_the_model_lists_each_role_and_the_declared_groups() -> None:
    sdk = model(FULL).sdk
    assert sdk.transport == (
        ("failed", "internal"),
        ("lost", "internal"),
        ("timed_out", "internal"),
        ("aborted", None),
    )
    assert sdk.groups == ("transport", "validation", "exec_deadline")
    assert sdk.codes == ("internal", "bad_request")
    assert model("").sdk.groups == ()


def python_init(cat: Catalogue) -> str:
    """The generated ``_generated/__init__.py`` of ``cat``."""
    return next(
        t
        for p, t in render_python.TARGET.render(cat).items()
        if p.endswith("_generated/__init__.py")
    )


def test_without_a_group_there_is_no_helper_in_either_sdk() -> None:
    cat = model(FULL.split("  validation:")[0])
    init = python_init(cat)
    helpers = init.split('HELPERS: "dict[str, str]" = {\n')[1].split("}")[0].splitlines()
    # Only the constants of the limits the catalogue declares (MAX_EXEC_TIMEOUT_S...).
    assert all(line.endswith('_TIMEOUT_S": "._generated.catalogue",') for line in helpers), helpers
    assert "validate_timeout" not in init
    assert "error_for_exit" not in init
    typescript = render_typescript.TARGET.render(cat)
    helpers = next(text for path, text in typescript.items() if path.endswith("helpers.ts"))
    assert [line for line in helpers.splitlines() if line.startswith("export")] == ["export {};"]
    init = python_init(model(FULL))
    assert '"validate_timeout": "._local"' in init
    assert '"error_for_exit": "._local"' in init


def test_the_real_catalogue_declares_every_group() -> None:
    root = Path(__file__).resolve().parents[2]
    doc = load_catalogue(root / "catalogue" / "errors.yaml")
    cat = build_model(doc.data, source="x", regenerate="y")
    assert cat.sdk.groups == tuple(ROLES)
