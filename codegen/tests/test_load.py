"""The loader: marks of every node, and every kind of YAML it refuses."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

import pytest
import yaml

from errcat.problems import CatalogueError, Problem
from errcat.source import load
from errcat.source.document import Document, format_path
from errcat.source.load import load_catalogue, parse_catalogue
from errcat.source.scalars import resolve_plain

HERE = Path(__file__).resolve().parent
MINIMAL = HERE / "fixtures" / "good" / "minimal.yaml"


def problems_of(source: bytes | str, display: str = "t.yaml") -> list[Problem]:
    with pytest.raises(CatalogueError) as caught:
        parse_catalogue(source, display)
    return caught.value.problems


def where(source: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """The 1-based line and column of the n-th occurrence of needle in source."""
    index = -1
    for _ in range(occurrence):
        index = source.index(needle, index + 1)
    line = source.count("\n", 0, index) + 1
    return line, index - (source.rfind("\n", 0, index) + 1) + 1


# -- marks and data -----------------------------------------------------------------


def test_minimal_loads_as_plain_data() -> None:
    doc = load_catalogue(MINIMAL)
    assert isinstance(doc, Document)
    json.dumps(doc.data)  # plain JSON-compatible values only
    rate = doc.data["codes"]["rate_limited"]
    assert rate["http"] == 429
    assert rate["retryable"] is True
    assert rate["context"] == ["retry_after_ms"]
    assert list(doc.data["fallback"]["by_status"])[:2] == ["400", "401"]
    assert doc.data["fallback"]["by_class"] == {"4xx": "bad_request", "5xx": "internal"}
    assert doc.data["sanitizer"]["truncation_marker"] == "…[truncated]"


def test_marks_point_at_values_and_keys() -> None:
    text = MINIMAL.read_text(encoding="utf-8")
    doc = load_catalogue(MINIMAL)
    http_line, _ = where(text, "    http: 429")
    assert doc.mark(("codes", "rate_limited", "http")) == (http_line, 11)
    assert doc.key_mark(("codes", "rate_limited", "http")) == (http_line, 5)
    assert doc.key_mark(("codes", "rate_limited")) == where(text, "rate_limited:")
    assert doc.mark(("codes", "rate_limited", "context", 0)) == where(text, "retry_after_ms]")
    assert doc.mark(("sanitizer", "remove", 0, "last")) == where(text, '"U+0008"')
    line, column = where(text, '"429": rate_limited')
    assert doc.mark(("fallback", "by_status", "429")) == (line, column + 7)
    assert doc.key_mark(("fallback", "by_status", "429")) == (line, column)


def test_marks_fall_back_to_the_nearest_parent() -> None:
    doc = load_catalogue(MINIMAL)
    parent = doc.mark(("codes", "rate_limited"))
    assert doc.mark(("codes", "rate_limited", "no_such_key", 3)) == parent
    assert doc.key_mark(("codes", "rate_limited", "nope")) == parent
    assert doc.mark(()) == doc.mark(("nothing",))


def test_document_is_frozen_and_builds_located_problems() -> None:
    doc = load_catalogue(MINIMAL, display="shown.yaml")
    with pytest.raises(dataclasses.FrozenInstanceError):
        doc.file = "other"  # type: ignore[misc]
    problem = doc.problem(("codes", "internal", "http"), "some-rule", "is wrong", "fix it")
    line, column = doc.mark(("codes", "internal", "http"))
    assert str(problem) == (
        f"shown.yaml:{line}:{column}: codes.internal.http: is wrong [some-rule]; fix: fix it"
    )


def test_format_path() -> None:
    assert format_path(("codes", "rate_limited", "context", 0)) == "codes.rate_limited.context[0]"
    assert format_path(("codes", "naïve code")) == 'codes."naïve code"'
    assert format_path(()) == ""


def test_display_path_defaults_to_the_path_and_is_used_in_messages(tmp_path: Path) -> None:
    bad = tmp_path / "cat.yaml"
    bad.write_text("a: no\n", encoding="utf-8")
    with pytest.raises(CatalogueError) as caught:
        load_catalogue(bad)
    assert str(caught.value).startswith(f"{bad}:1:4: ")
    with pytest.raises(CatalogueError) as caught:
        load_catalogue(bad, display="catalogue/errors.yaml")
    assert [p.file for p in caught.value.problems] == ["catalogue/errors.yaml"]


def test_unreadable_file_is_a_problem(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError) as caught:
        load_catalogue(tmp_path / "missing.yaml", display="missing.yaml")
    (problem,) = caught.value.problems
    assert (problem.file, problem.line, problem.rule) == ("missing.yaml", 1, "unreadable")


# -- refusals -----------------------------------------------------------------------

REFUSALS = [
    pytest.param(b"\xef\xbb\xbfa: 1\n", 1, 1, "bom", "byte order mark", id="bom"),
    pytest.param("a:\n\tb: 1\n", 2, 1, "tab", "tab character", id="tab-indent"),
    pytest.param("a: 1\t# note\n", 1, 5, "tab", "tab character", id="tab-before-comment"),
    pytest.param(b"a: ok\nb: caf\xe9\n", 2, 7, "invalid-utf8", "0xE9", id="invalid-utf8"),
    pytest.param("a: x\x07y\n", 1, 5, "control-character", "U+0007", id="raw-control"),
    pytest.param("a: [1, 2\nb: 3\n", 2, 2, "yaml-syntax", "flow sequence", id="syntax"),
    pytest.param("a: b: c\n", 1, 5, "yaml-syntax", "mapping values", id="syntax-colon"),
    pytest.param("a: 'open\n", 2, 1, "yaml-syntax", "quoted scalar", id="syntax-quote"),
    pytest.param("a: 1\n---\nb: 2\n", 2, 1, "multiple-documents", "second", id="two-docs"),
    pytest.param("a: 1\n...\n---\nb: 2\n", 3, 1, "multiple-documents", "second", id="end-marker"),
    pytest.param("", 1, 1, "empty-catalogue", "empty", id="empty"),
    pytest.param("# only a comment\n", 1, 1, "empty-catalogue", "empty", id="comment-only"),
    pytest.param("a: 1\nb: 2\na: 3\n", 3, 1, "duplicate-key", "first on line 1", id="dup"),
    pytest.param('"a": 1\na: 2\n', 2, 1, "duplicate-key", '"a"', id="dup-quoted"),
    pytest.param("a: &x 1\n", 1, 4, "yaml-anchor", "&x", id="anchor"),
    pytest.param("a: !!str 5\n", 1, 4, "yaml-tag", "!!str", id="tag-core"),
    pytest.param("a: !foo bar\n", 1, 4, "yaml-tag", "!foo", id="tag-local"),
    pytest.param("a: !!map {}\n", 1, 4, "yaml-tag", "!!map", id="tag-map"),
    pytest.param("a:\n  <<: {b: 1}\n", 2, 3, "yaml-merge-key", "<<", id="merge"),
    pytest.param("400: x\n", 1, 1, "non-string-key", "read as a number", id="int-key"),
    pytest.param("true: x\n", 1, 1, "non-string-key", "boolean", id="bool-key"),
    pytest.param("on: x\n", 1, 1, "non-string-key", "YAML 1.1", id="yaml11-key"),
    pytest.param("1.5: x\n", 1, 1, "non-string-key", "number", id="float-key"),
    pytest.param("? [a]\n: x\n", 1, 3, "non-string-key", "list", id="list-key"),
    pytest.param("~: x\n", 1, 1, "non-string-key", "read as null", id="null-key"),
    pytest.param("?\n: x\n", 1, 2, "non-string-key", "empty", id="empty-key"),
    pytest.param("a: no\n", 1, 4, "yaml11-boolean", "boolean false", id="no"),
    pytest.param("a: Yes\n", 1, 4, "yaml11-boolean", "boolean true", id="Yes"),
    pytest.param("a: OFF\n", 1, 4, "yaml11-boolean", "false", id="OFF"),
    pytest.param("a: y\n", 1, 4, "yaml11-boolean", "true", id="y"),
    pytest.param("a: True\n", 1, 4, "yaml11-boolean", "write true", id="True"),
    pytest.param("a: FALSE\n", 1, 4, "yaml11-boolean", "write false", id="FALSE"),
    pytest.param("a: 0400\n", 1, 4, "ambiguous-number", "octal number 256", id="octal"),
    pytest.param("a: 007\n", 1, 4, "ambiguous-number", "leading zero", id="leading-zero"),
    pytest.param("a: 089\n", 1, 4, "ambiguous-number", "leading zero", id="leading-zero-9"),
    pytest.param("a: 0x1F\n", 1, 4, "ambiguous-number", "hexadecimal number (31)", id="hex"),
    pytest.param("a: 0o17\n", 1, 4, "ambiguous-number", "octal number (15)", id="0o"),
    pytest.param("a: 0b101\n", 1, 4, "ambiguous-number", "binary number (5)", id="binary"),
    pytest.param("a: 1:30\n", 1, 4, "ambiguous-number", "base-60 number 90", id="sexagesimal"),
    pytest.param("a: 1_000\n", 1, 4, "ambiguous-number", "write 1000", id="underscore"),
    pytest.param("a: +5\n", 1, 4, "ambiguous-number", "write 5", id="plus"),
    pytest.param("a: 1e3\n", 1, 4, "ambiguous-number", "plain decimal", id="exponent"),
    pytest.param("a: .5\n", 1, 4, "ambiguous-number", "write 0.5", id="dot-first"),
    pytest.param("a: 9007199254740992\n", 1, 4, "number-too-large", "2^53", id="unsafe-int"),
    pytest.param("a: " + "9" * 5000 + "\n", 1, 4, "number-too-large", "...", id="huge-int"),
    pytest.param("a: " + "9" * 400 + ".5\n", 1, 4, "number-too-large", "double", id="huge-float"),
    pytest.param("a: 0" + "7" * 5000 + "\n", 1, 4, "ambiguous-number", "...", id="huge-octal"),
    pytest.param("a: 1e999\n", 1, 4, "ambiguous-number", "plain decimal", id="inf-exponent"),
    pytest.param("a: .inf\n", 1, 4, "special-float", ".inf", id="inf"),
    pytest.param("a: -.Inf\n", 1, 4, "special-float", "-.Inf", id="minus-inf"),
    pytest.param("a: .NaN\n", 1, 4, "special-float", ".NaN", id="nan"),
    pytest.param("a: ~\n", 1, 4, "null-value", "~ is null", id="tilde"),
    pytest.param("a: null\n", 1, 4, "null-value", "null is null", id="null"),
    pytest.param("a: Null\n", 1, 4, "null-value", "null", id="Null"),
    pytest.param("a:\nb: 1\n", 1, 3, "null-value", "empty", id="empty-value"),
    pytest.param("a:\n  -\n  - x\n", 2, 4, "null-value", "a[0]", id="empty-item"),
]


@pytest.mark.parametrize(("source", "line", "column", "rule", "words"), REFUSALS)
def test_each_refusal_is_located_and_explained(
    source: str | bytes, line: int, column: int, rule: str, words: str
) -> None:
    problems = problems_of(source)
    assert [(p.line, p.column, p.rule) for p in problems] == [(line, column, rule)], problems
    (problem,) = problems
    assert words in str(problem)
    assert problem.fix
    assert str(problem).startswith(f"t.yaml:{line}:{column}: ")


def test_alias_is_refused_and_never_expanded() -> None:
    laughs = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n"
        for i in range(8)
    )
    start = time.perf_counter()
    problems = problems_of(laughs)
    assert time.perf_counter() - start < 5
    rules = {p.rule for p in problems}
    assert rules == {"yaml-anchor", "yaml-alias"}


def test_recursive_alias_does_not_hang() -> None:
    problems = problems_of("a: &a [*a]\n")
    assert {p.rule for p in problems} == {"yaml-anchor", "yaml-alias"}


def test_merge_key_with_alias_reports_each_part() -> None:
    source = "base: &b {x: 1}\nuse:\n  <<: *b\n"
    problems = problems_of(source)
    assert [(p.line, p.column, p.rule) for p in problems] == [
        (1, 7, "yaml-anchor"),
        (3, 3, "yaml-merge-key"),
        (3, 7, "yaml-alias"),
    ]


def test_tab_inside_a_quoted_string_is_left_to_the_validator() -> None:
    doc = parse_catalogue("a: \"x\ty\"\nb: 'p\tq'\n")
    assert doc.data == {"a": "x\ty", "b": "p\tq"}


def test_tag_on_a_number_like_value_reports_only_the_tag() -> None:
    problems = problems_of("a: !!str 0400\n")
    assert [p.rule for p in problems] == ["yaml-tag"]


def test_every_problem_is_collected_in_one_pass() -> None:
    source = (
        b"\xef\xbb\xbfa: no\nb:\n\t- 1\na: 2\nc: !!str x\nd: 0x10\ne: ~\nf: &anchor 1\n400: x\n"
    )
    problems = problems_of(source)
    assert [(p.line, p.rule) for p in problems] == [
        (1, "bom"),
        (1, "yaml11-boolean"),
        (3, "tab"),
        (4, "duplicate-key"),
        (5, "yaml-tag"),
        (6, "ambiguous-number"),
        (7, "null-value"),
        (8, "yaml-anchor"),
        (9, "non-string-key"),
    ]


def test_invalid_utf8_still_checks_the_rest() -> None:
    problems = problems_of(b"a: \xff\nb: no\n")
    assert [(p.line, p.column, p.rule) for p in problems] == [
        (1, 4, "invalid-utf8"),
        (2, 4, "yaml11-boolean"),
    ]


def test_plain_scalars_resolve_only_unambiguous_forms() -> None:
    expected: dict[str, object] = {
        "0": 0,
        "-12": -12,
        "429": 429,
        "1.5": 1.5,
        "-0.25": -0.25,
        "2.5e3": 2500.0,
        "true": True,
        "false": False,
        "4xx": "4xx",
        "1.2.3": "1.2.3",
        "10.0.0.1": "10.0.0.1",
        "2026-08-05": "2026-08-05",
        "rate_limited": "rate_limited",
        "-----begin": "-----begin",
    }
    for text, value in expected.items():
        resolved = resolve_plain(text)
        assert resolved.refusal is None, text
        assert resolved.value == value, text
        assert type(resolved.value) is type(value), text


def test_pure_python_loader_gives_the_same_result(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = load_catalogue(MINIMAL)
    fast_problems = problems_of("a: no\nb: &x 1\nb: 2\n")
    monkeypatch.setattr(load, "_Loader", yaml.SafeLoader)
    slow = load_catalogue(MINIMAL)
    assert slow.data == fast.data
    assert slow.marks == fast.marks
    assert slow.key_marks == fast.key_marks
    assert problems_of("a: no\nb: &x 1\nb: 2\n") == fast_problems


@pytest.mark.parametrize("lines", [50, 500])
def test_tabs_are_found_in_a_fixed_number_of_scans(
    lines: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The loader is linear in the file: however many tabs, the text is scanned a fixed
    # number of times (it once rescanned the whole file for every tab it met).
    text = MINIMAL.read_text(encoding="utf-8").replace(
        "\nretired:", "\nextra:\n" + "\tx: 1\n" * lines + "retired:"
    )
    calls = []
    real = yaml.scan

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(yaml, "scan", counting)
    problems = problems_of(text)
    assert sum(p.rule == "tab" for p in problems) == lines
    assert len(calls) <= 3
