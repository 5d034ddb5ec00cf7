"""The validator: meta-schema and semantic rules, on fixtures and on targeted variants."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from catalogue_variants import VARIANTS, edited
from hypothesis import given, settings
from hypothesis import strategies as st

from errcat.check.limits import CEILING_FIELDS
from errcat.check.patterns import NON_PORTABLE, NON_REGULAR, SIDE_CONDITIONS, findings
from errcat.check.validate import validate
from errcat.metaschema import schema_text, schema_validator
from errcat.model.catalogue import build_model
from errcat.model.defaults import effective_sanitizer
from errcat.model.sanitizer import stage_one
from errcat.names import naming
from errcat.problems import CatalogueError, Problem, one_line
from errcat.source.document import Document
from errcat.source.load import load_catalogue, parse_catalogue

HERE = Path(__file__).resolve().parent
MINIMAL = edited()
REPO = HERE.parents[1]
GOOD = HERE / "fixtures" / "good"
BAD = HERE / "fixtures" / "bad"
EXPECTED: dict[str, list[dict[str, Any]]] = json.loads(
    (BAD / "expected.json").read_text(encoding="utf-8")
)


def problems_in(path: Path) -> list[Problem]:
    """Load and validate like the command line does, showing the file's name."""
    try:
        doc = load_catalogue(path, display=path.name)
    except CatalogueError as exc:
        return exc.problems
    return validate(doc)


def problems_of_text(text: str, display: str) -> list[Problem]:
    """Load and validate catalogue text, showing ``display`` as its file."""
    try:
        doc = parse_catalogue(text, display)
    except CatalogueError as exc:
        return exc.problems
    return validate(doc)


def variant(*edits: tuple[str, str]) -> list[Problem]:
    """Validate the minimal catalogue with each (old, new) edit applied once."""
    return problems_of_text(edited(*edits), "v.yaml")


def rules(problems: list[Problem]) -> list[str]:
    return [p.rule for p in problems]


# -- the fixtures -------------------------------------------------------------------


def test_every_bad_catalogue_has_expectations() -> None:
    files = {p.name for p in BAD.glob("*.yaml")}
    assert not files & set(VARIANTS), "a case is both a file and an edit"
    assert sorted(files | set(VARIANTS)) == sorted(EXPECTED)
    assert len(EXPECTED) >= 50


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_catalogue_fails_where_expected(name: str) -> None:
    if name in VARIANTS:
        problems = problems_of_text(edited(VARIANTS[name]), name)
    else:
        problems = problems_in(BAD / name)
    expected = EXPECTED[name]
    assert all(one_line(str(p)) == str(p) for p in problems), "a problem is not one safe line"
    assert sorted((p.line, p.column, p.rule) for p in problems) == sorted(
        (e["line"], e["column"], e["rule"]) for e in expected
    ), "\n".join(map(str, problems))
    for entry in expected:
        prefix = f"{name}:{entry['line']}:{entry['column']}: "
        matching = [
            p
            for p in problems
            if str(p).startswith(prefix)
            and p.rule == entry["rule"]
            and entry["message"] in p.message
        ]
        assert matching, f"no {entry['rule']} problem at {prefix} saying {entry['message']!r}"
        assert all(f"; fix: {entry['fix']}" in str(p) for p in matching)


@pytest.mark.parametrize("name", ["minimal.yaml", "gateway.yaml"])
def test_good_fixture_is_valid_and_models(name: str) -> None:
    doc = load_catalogue(GOOD / name)
    assert validate(doc) == []
    cat = build_model(doc.data, source=name, regenerate="nox -s generate")
    assert cat.codes


def test_the_real_catalogue_is_valid() -> None:
    doc = load_catalogue(REPO / "catalogue" / "errors.yaml")
    assert validate(doc) == []


def test_gateway_is_another_api() -> None:
    cat = build_model(
        load_catalogue(GOOD / "gateway.yaml").data, source="gateway.yaml", regenerate="x"
    )
    assert (cat.base_class, cat.packages) == (
        "ToolError",
        {
            "python": {"distribution": "labby-errors", "module": "labby_errors"},
            "typescript": {"package": "@labby/errors"},
            "go": {"module": "example.com/labby/go-sdk", "package": "labbyerr"},
            "rust": {"crate": "labby-errors"},
        },
    )
    assert cat.code("timeout").class_names["python"] == "ToolTimeoutError"
    assert {r.code for r in cat.retired} == {"code_mode_timeout", "code_mode_fuel_exhausted"}
    assert len(cat.codes) >= 15


# -- the meta-schema ----------------------------------------------------------------


def test_one_schema_validator_is_reused() -> None:
    assert schema_validator() is schema_validator()
    assert json.loads(schema_text())["$schema"].endswith("2020-12/schema")


def test_schema_problems_read_well() -> None:
    problems = variant(
        ("    http: 500", "    http: 500.0"), ("  json_max_depth: 64", "  json_max_depth: 1")
    )
    assert [(p.rule, p.message, p.fix) for p in problems] == [
        ("out-of-range", "limits.json_max_depth: 1 is below the minimum 2", "write 2 or more"),
        (
            "wrong-type",
            "codes.internal.http: 500.0 is a number; an integer is expected",
            "write 500",
        ),
    ]


def test_contract_version_starts_at_one() -> None:
    problems = variant(("contract_version: 1", "contract_version: 0"))
    assert [(p.line, p.column, p.rule, p.message) for p in problems] == [
        (2, 19, "out-of-range", "contract_version: 0 is below the minimum 1")
    ]


def test_missing_top_level_section() -> None:
    start = MINIMAL.index("families:")
    end = MINIMAL.index("retired:")
    assert variant((MINIMAL[start:end], "")) == []  # families are optional
    start, end = MINIMAL.index("limits:"), MINIMAL.index("context_fields:")
    problems = variant((MINIMAL[start:end], ""))
    assert [(p.rule, p.fix) for p in problems] == [
        ("missing-key", "add a limits entry (a mapping) to the top level")
    ]


def test_class_name_of_the_wrong_kind() -> None:
    problems = variant(("    http: 500\n", "    http: 500\n    class_name: 5\n"))
    assert rules(problems) == ["wrong-type"]
    assert "a string or a mapping is expected" in problems[0].message
    problems = variant(("    http: 500\n", "    http: 500\n    class_name: {}\n"))
    assert rules(problems) == ["empty-section"]
    assert "python, typescript" in problems[0].fix
    problems = variant(("    http: 500\n", "    http: 500\n    class_name: internalError\n"))
    assert rules(problems) == ["invalid-format"]
    assert problems[0].fix == 'write "InternalError"'


def test_duplicate_list_items_and_bad_keys() -> None:
    problems = variant(("[retry_after_ms]", "[retry_after_ms, retry_after_ms]"))
    assert [(p.rule, p.column) for p in problems] == [("duplicate-item", 31)]
    problems = variant(('    "400": bad_request', '    "4000": bad_request'))
    assert rules(problems) == ["key-format"]
    assert 'the key "4000" is not an HTTP status' in problems[0].message


# -- semantic rules -----------------------------------------------------------------


def test_codes_equal_after_folding_are_refused() -> None:
    block = MINIMAL[MINIMAL.index("  internal:\n") : MINIMAL.index("fallback:")]
    problems = variant(
        ("fallback:\n", block.replace("  internal:", "  inter_nal:") + "fallback:\n")
    )
    assert rules(problems) == ["code-collision"]
    assert '"inter_nal" is the code "internal"' in problems[0].message


def test_two_codes_with_the_same_override() -> None:
    problems = variant(
        ("    http: 400\n", "    http: 400\n    class_name: SameError\n"),
        ("    http: 500\n", "    http: 500\n    class_name: SameError\n"),
    )
    assert rules(problems) == ["class-collision"]
    assert "is also the class name of codes.bad_request" in problems[0].message


def test_base_class_must_be_legal_in_both_languages() -> None:
    problems = variant(("base_class: MinimalError", "base_class: Exception"))
    assert rules(problems) == ["base-class"]
    assert "Python builtin" in problems[0].message
    problems = variant(("base_class: MinimalError", "base_class: Object"))
    assert rules(problems) == ["base-class"]
    assert "JavaScript global" in problems[0].message
    assert variant(("base_class: MinimalError", "base_class: AgentRunError")) == []


def test_retired_codes_stay_retired() -> None:
    problems = variant(
        ("    codes: [rate_limited]", "    codes: [rate_limited, too_many_requests]")
    )
    assert rules(problems) == ["retired-code-referenced"]
    problems = variant(
        ("  too_many_requests:\n", "  old_internal:\n    reason: Gone.\n  too_many_requests:\n"),
        ("    replaced_by: rate_limited", "    replaced_by: old_internal"),
    )
    assert rules(problems) == ["unknown-replacement"]
    assert "itself retired" in problems[0].message


def test_text_rules_name_the_character() -> None:
    problems = variant(("    message: internal error", '    message: "internal\\x07 error"'))
    assert [(p.rule, p.message) for p in problems] == [
        (
            "control-character",
            "codes.internal.message: the text contains U+0007 BELL at character 9",
        )
    ]
    problems = variant(("    guidance: Retry with back-off.", '    guidance: "Retry \\u2066now"'))
    assert rules(problems) == ["bidi-control"]
    assert "U+2066 LEFT-TO-RIGHT ISOLATE" in problems[0].message
    problems = variant(("  name: Minimal API", '  name: "Minimal\\u00adAPI"'))
    assert rules(problems) == ["invisible-character"]
    assert "U+00AD SOFT HYPHEN" in problems[0].message


_C0 = '    - {first: "U+0000", last: "U+0008", name: C0 controls before tab}'


def test_a_text_holds_no_character_its_sanitizer_changes() -> None:
    # The catalogue's own sanitizer removes the tag block (as the standard one does). U+E0C1A
    # is unassigned there: Unicode gives it no category a text rule refuses. An error would
    # write the catalogue text with it, and an error rebuilt from its fields without.
    tags = _C0 + '\n    - {first: "U+E0000", last: "U+E0FFF", name: tags}'
    problems = variant(
        ("    message: internal error", '    message: "internal\\U000E0C1A error"'), (_C0, tags)
    )
    assert rules(problems) == ["invisible-character"]
    assert "U+E0C1A unnamed character at character 9" in problems[0].message
    assert "sanitizer removes it" in problems[0].fix
    # Without that range the character stays, and so may the text; a letter the sanitizer
    # removes (here ÿ) is refused like any other.
    assert (
        variant(("    message: internal error", '    message: "internal\\U000E0C1A error"')) == []
    )
    letter = _C0 + '\n    - {first: "U+00FF", last: "U+00FF", name: y with diaeresis}'
    problems = variant(
        ("    message: internal error", "    message: internal ÿ error"), (_C0, letter)
    )
    assert rules(problems) == ["invisible-character"]


_STAGE_ONE = stage_one(effective_sanitizer(None))
_OWN = MINIMAL[MINIMAL.index("\nsanitizer:\n") : MINIMAL.index("\ngrpc_gateway:")]
_STANDARD = ((_OWN, ""),)
"""The minimal catalogue with no sanitizer section: it takes the standard sanitizer."""


def _yaml_escape(char: str) -> str:
    """``char`` as a YAML double-quoted escape (YAML takes no surrogate pairs)."""
    point = ord(char)
    return f"\\u{point:04X}" if point < 0x10000 else f"\\U{point:08X}"


_TEXT_RULES = {"control-character", "bidi-control", "invisible-character"}


_CHANGED = (
    st.sampled_from(_STAGE_ONE.ranges)
    .flatmap(lambda r: st.integers(r.first, r.last))
    .filter(lambda point: not 0xD800 <= point <= 0xDFFF)  # a surrogate is no YAML text
    .map(chr)
)


@settings(max_examples=60, deadline=None)
@given(_CHANGED)
def test_every_character_stage_one_changes_is_refused_in_a_text(char: str) -> None:
    """The text rule and the sanitizer agree: each character stage 1 of the catalogue's
    sanitizer (here the standard one) removes or turns into a space is refused in a text."""
    escaped = f'"internal{_yaml_escape(char)}error"'
    problems = problems_of_text(
        edited(("    message: internal error", f"    message: {escaped}"), *_STANDARD), "v.yaml"
    )
    assert problems, char
    assert {p.rule for p in problems} <= _TEXT_RULES, (char, problems)


def test_sanitizer_patterns_are_exempt_from_text_rules() -> None:
    assert (
        variant(('      prefix: "[Bb][Ee][Aa][Rr][Ee][Rr] +"', '      prefix: "[Bb]earer\\\\x20"'))
        == []
    )


def test_a_prefix_that_can_match_nothing_is_refused() -> None:
    problems = variant(
        ('      prefix: "[Bb][Ee][Aa][Rr][Ee][Rr] +"', '      prefix: "(?:[Bb]earer +)?"')
    )
    assert rules(problems) == ["empty-prefix"]
    assert problems[0].message.endswith(
        "so it cannot say where a secret starts (docs/sdk-contract.md section 2)"
    )


def test_a_status_the_schema_pattern_lets_through_is_refused() -> None:
    # The schema's ^...$ accepts a trailing line break; the status rule does not.
    problems = variant(('    "400": bad_request', '    "400\\n": bad_request'))
    assert rules(problems) == ["invalid-status"]


def test_a_blank_guidance_is_refused() -> None:
    problems = variant(("    guidance: Retry with back-off.", '    guidance: " "'))
    assert [(p.rule, p.fix) for p in problems] == [
        ("blank-text", "write the recovery guidance: what to do next")
    ]


def test_limits_and_fallback_classes() -> None:
    problems = variant(("  default_run_code_timeout_s: 60", "  default_run_code_timeout_s: 3601"))
    assert rules(problems) == ["timeout-above-ceiling"]
    problems = variant(("    5xx: internal", "    5xx: internl"))
    assert [(p.rule, p.fix) for p in problems] == [("unknown-fallback-target", 'write "internal"')]


def test_the_execution_timeouts_are_optional_unless_sdk_validation_needs_the_ceiling() -> None:
    no_exec = (
        ("  max_exec_timeout_s: 3600\n", ""),
        ("  default_exec_timeout_s: 30\n", ""),
        ("  default_run_code_timeout_s: 60\n", ""),
    )
    validation = (
        "\ncodes:\n",
        "\nsdk:\n  validation:\n    invalid: bad_request\n    too_large: bad_request\ncodes:\n",
    )
    assert variant(*no_exec) == []
    assert variant(validation) == []
    problems = variant(*no_exec, validation)
    assert [(p.rule, p.fix) for p in problems] == [
        (
            "validation-without-ceiling",
            "add limits.max_exec_timeout_s (the longest timeout a request may ask for), "
            "or remove sdk.validation",
        )
    ]


@settings(max_examples=25, deadline=None)
@given(
    ceiling=st.integers(2, 10**6),
    name=st.sampled_from(CEILING_FIELDS),
    kind=st.sampled_from(("integer", "number")),
    maximum=st.one_of(st.none(), st.integers(0, 2 * 10**6), st.just(-1)),
    same=st.booleans(),
)
def test_a_ceiling_field_has_the_ceiling_as_its_maximum(
    ceiling: int, name: str, kind: str, maximum: int | None, same: bool
) -> None:
    high = ceiling if same else maximum
    bound = "" if high is None else f"    maximum: {high}\n"
    problems = variant(
        ("  max_exec_timeout_s: 3600\n", f"  max_exec_timeout_s: {ceiling}\n"),
        ("  default_exec_timeout_s: 30\n", "  default_exec_timeout_s: 1\n"),
        ("  default_run_code_timeout_s: 60\n", "  default_run_code_timeout_s: 1\n"),
        (
            "context_fields:\n",
            f"context_fields:\n  {name}:\n    type: {kind}\n    meaning: A timeout.\n{bound}",
        ),
    )
    wrong = high is not None and high != ceiling
    assert rules(problems) == (["maximum-not-ceiling"] if wrong else [])
    assert all(f"({ceiling}), which bounds {name}" in p.message for p in problems)
    assert all(p.fix == f"set it to {ceiling}, or remove it" for p in problems)


@pytest.mark.parametrize(
    ("pattern", "construct", "rule"),
    [
        (r"\d+", r"\d", NON_PORTABLE),
        (r"[\s]", r"\s", NON_PORTABLE),
        (r"\w", r"\w", NON_PORTABLE),
        (r"(?i)x", "inline flag", NON_PORTABLE),
        (r"(?P<n>x)", "named group", NON_PORTABLE),
        (r"(?<n>x)", "named group", NON_PORTABLE),
        (r"(?>a)", "atomic", NON_REGULAR),
        (r"a*+", "possessive", NON_REGULAR),
        (r"a{2}+", "possessive", NON_REGULAR),
        (r"(a)\1", "backreference", NON_REGULAR),
        (r"\Aa", r"\A", NON_PORTABLE),
        (r"a{", "bare {", NON_PORTABLE),
        (r"a]", "bare ]", NON_PORTABLE),
        (r"[]a]", "empty class", NON_PORTABLE),
        (r"\p{L}", r"\p", NON_PORTABLE),
        (r"\_", r"escape \_", NON_PORTABLE),
        (r"(?=x)a", "lookahead (?=", NON_REGULAR),
        (r"a(?!x)", "negative lookahead (?!", NON_REGULAR),
        (r"(?<=a)b", "lookbehind (?<=", NON_REGULAR),
        (r"(?<![A-Za-z])b", "negative lookbehind (?<!", NON_REGULAR),
        (r"(?P<n>a)(?P=n)", "named backreference", NON_REGULAR),
        (r"\u00e9", r"escape \u", NON_PORTABLE),
        (r"a\0", r"escape \0", NON_PORTABLE),
        (r"[[a]]", "[ inside a class", NON_PORTABLE),
        (r"[a&&b]", "&& inside a class", NON_PORTABLE),
        (r"[a--b]", "-- inside a class", NON_PORTABLE),
        (r"a{1001}", "above 1000", NON_PORTABLE),
        (r"a{2,1001}", "above 1000", NON_PORTABLE),
    ],
)
def test_constructs_outside_the_dialect_are_found(pattern: str, construct: str, rule: str) -> None:
    found = [(rule_id, name) for rule_id, name, _fix in findings(pattern)]
    assert any(construct in name and rule_id == rule for rule_id, name in found), found


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?:a|b){1,3}?",
        r"[^ \]\-]",
        r"\x41\.\[\]\{\}\|\/",
        "^a$",
        r"a{2,}",
        r"[{}]",
    ],
)
def test_portable_patterns_pass(pattern: str) -> None:
    assert list(findings(pattern)) == []


def test_the_real_sanitizer_is_portable() -> None:
    data = load_catalogue(REPO / "catalogue" / "errors.yaml").data["sanitizer"]
    for rule in data["secrets"] + data["injection"]:
        for field in ("prefix", "pattern", *SIDE_CONDITIONS):
            assert list(findings(rule.get(field, ""))) == [], (rule["name"], field)


def test_derived_names_follow_naming() -> None:
    # The validator checks what the renderers emit: names come from errcat.names.naming.
    assert naming.class_name_for("timeout") == "TimeoutError"
    assert naming.class_problem("python", "TimeoutError", "X") is not None


# -- robustness ---------------------------------------------------------------------

STRANGE: list[object] = [1, "x", True, [], {}, [1, "x"], {"a": 1}]


@pytest.mark.parametrize("value", STRANGE, ids=[json.dumps(v) for v in STRANGE])
def test_validate_never_raises_on_any_shape(value: object) -> None:
    base = load_catalogue(GOOD / "minimal.yaml")
    data = base.data
    paths: list[tuple[str | int, ...]] = [()]
    paths += [(key,) for key in data]
    paths += [("codes", code) for code in data["codes"]]
    paths += [("codes", "rate_limited", key) for key in data["codes"]["rate_limited"]]
    paths += [("fallback", key) for key in data["fallback"]]
    paths += [("sanitizer", key) for key in data["sanitizer"]]
    paths += [("sanitizer", "secrets", 0, key) for key in data["sanitizer"]["secrets"][0]]
    for path in paths:
        mutated = json.loads(json.dumps(data))
        if path:
            target = mutated
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
        else:
            mutated = value
        doc = Document(base.file, mutated, base.marks, base.key_marks)
        problems = validate(doc)
        assert all(isinstance(p, Problem) for p in problems), path
        assert problems == sorted(problems)


# -- class-name fix suggestions --------------------------------------------------

# Letters that look like ASCII ones and have no ASCII form (Cyrillic, Greek), and
# letters whose compatibility form is ASCII (accents, a ligature).
LOOK_ALIKES = "аеорсхАВЕКМНОРСТХΑΒΕΖΗΙΚΜΝΟΡΤΥΧο"
FOLDING = "éïñÅçﬁ"


def _offered(name: str) -> str | None:
    """The class name the fix offers for ``internal`` named ``name`` in Python, its derived name taken."""
    problems = variant(
        ("    http: 400\n", "    http: 400\n    class_name: InternalError\n"),
        ("    http: 500\n", f"    http: 500\n    class_name: {{python: {json.dumps(name)}}}\n"),
    )
    fixes = [p.fix for p in problems if p.rule == "class-name" and "internal" in p.fix]
    assert fixes, [(p.rule, p.fix) for p in problems]
    offered = fixes[0].rpartition("e.g. ")[2]
    return None if offered == "<NewName>" else offered


def _alnum(text: str) -> int:
    return sum(c.isalnum() for c in text)


_PART = st.text(alphabet=st.sampled_from("ABCRateLimitd" + LOOK_ALIKES + FOLDING), max_size=6)
# Not ASCII, so never a legal class name: each gets a class-name problem and a fix.
_NAMES = st.builds(
    lambda head, odd, tail: f"R{head}{odd}{tail}",
    _PART,
    st.sampled_from(LOOK_ALIKES + FOLDING),
    _PART,
)


@settings(max_examples=40, deadline=None)
@given(_NAMES)
def test_a_class_name_fix_never_offers_a_silently_changed_name(name: str) -> None:
    offered = _offered(name)
    if any(c in LOOK_ALIKES for c in name):
        assert offered is None, f"{name!r}: a letter was dropped to offer {offered!r}"
    else:
        # Minimal + a letter (or more) for each letter of the name (+ Error).
        assert offered is not None
        assert offered.startswith("Minimal")
        assert _alnum(offered) >= len("Minimal") + _alnum(name), (name, offered)


def test_a_class_name_fix_with_a_look_alike_letter() -> None:
    assert _offered("RаteError") is None  # Cyrillic а: "MinimalRteError" would be another name
    assert _offered("NaïveError") == "MinimalNaiveError"
    assert _offered("Exception") == "MinimalException" + "Error"
