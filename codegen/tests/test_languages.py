"""Every per-language list follows the one list of target languages (errcat.names.languages).

A new language is an entry in ``LANGUAGES`` plus what the README's "Adding a
target language" names; these tests fail, naming the list, when something
else still spells the languages out.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from errcat.model.catalogue import build_model
from errcat.names import naming
from errcat.names.languages import LANGUAGES
from errcat.render import NEUTRAL_TARGETS, TARGETS, environment
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


def test_every_language_has_templates_and_a_runtime() -> None:
    templates = environment().list_templates()
    for lang in LANGUAGES:
        assert any(t.startswith(f"{lang.key}/") for t in templates), lang.key
        assert (REPO / lang.runtime_dir).is_dir(), lang.runtime_dir


def test_the_model_names_each_class_in_every_language() -> None:
    doc = load_catalogue(REPO / "catalogue" / "errors.yaml")
    cat = build_model(doc.data, source="catalogue/errors.yaml", regenerate="-")
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
        if isinstance(override, str):
            assert (choice.name, choice.keys) == (override, ("class_name",))
        elif isinstance(override, dict) and key in override:
            assert (choice.name, choice.keys) == (override[key], ("class_name", key))
        else:
            assert (choice.name, choice.keys) == (naming.class_name_for(code), ())
