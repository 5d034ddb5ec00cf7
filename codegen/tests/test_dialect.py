"""The portable pattern dialect (docs/sdk-contract.md section 2), from generated patterns.

A pattern built from the dialect's pieces passes the validator, and Python
``re`` and JavaScript ``RegExp`` (flag ``u``, through one node process)
find the same covers in generated texts. A pattern with a lookaround or a
backreference is refused. The side conditions, run the way an engine
without lookaround runs them (an anchored match, a capture group), give
the covers that the SDKs' lookaround form gives.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from errcat.check.patterns import NON_REGULAR, SIDE_CONDITIONS, findings
from errcat.model.catalogue import build_model
from errcat.model.sanitizer import (
    SideConditions,
    TextRule,
    lookaround_as_conditions,
    with_lookaround,
)
from errcat.source.load import load_catalogue

REPO = Path(__file__).resolve().parents[2]
ALPHABET = "ab:/@- é😀"
"""Text characters: letters, the URL rule's punctuation, a space, and non-ASCII (one astral)."""

_LITERALS = st.sampled_from(["a", "b", ":", "/", "@", "-", " ", "é", "😀", "\\.", "\\x41", "\\/"])
_CLASSES = st.sampled_from(
    ["[ab]", "[a\\-]", "[^a]", "[a-c]", "[^ /@]", "[0-9a-f]", "[:/]", "[^😀]", "[é-ê]", "."]
)
_REPEATS = st.sampled_from(["*", "+", "?", "{2}", "{1,}", "{0,3}", "{2,4}"])


def _repeat(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(inner, _REPEATS, st.booleans()).map(
        lambda t: f"(?:{t[0]}){t[1]}{'?' if t[2] else ''}"
    )


DIALECT_PATTERNS: st.SearchStrategy[str] = st.recursive(
    st.one_of(_LITERALS, _CLASSES),
    lambda inner: st.one_of(
        st.lists(inner, min_size=2, max_size=4).map("".join),
        st.lists(inner, min_size=2, max_size=3).map(lambda xs: "(?:" + "|".join(xs) + ")"),
        inner.map(lambda x: f"({x})"),
        _repeat(inner),
        inner.map(lambda x: f"^{x}"),
        inner.map(lambda x: f"{x}$"),
    ),
    max_leaves=8,
)
"""Patterns of the dialect: literals, escapes, classes, groups, alternation, repeats, anchors."""

TEXTS = st.lists(st.text(alphabet=ALPHABET, max_size=24), min_size=1, max_size=6)


def scan(pattern: str, text: str) -> list[list[int]]:
    """The contract's global scan: non-empty matches as [start, end] code points."""
    compiled = re.compile(pattern)
    out: list[list[int]] = []
    pos = 0
    while pos <= len(text):
        m = compiled.search(text, pos)
        if m is None:
            break
        if m.end() > m.start():
            out.append([m.start(), m.end()])
            pos = m.end()
        else:
            pos = m.start() + 1
    return out


_NODE_SCAN = r"""
const rl = require("readline").createInterface({ input: process.stdin });
const cp = (text, units) => Array.from(text.slice(0, units)).length;
rl.on("line", (line) => {
  const { pattern, texts } = JSON.parse(line);
  const re = new RegExp(pattern, "gu");
  const out = texts.map((text) => {
    const covers = [];
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const end = m.index + m[0].length;
      if (end > m.index) covers.push([cp(text, m.index), cp(text, end)]);
      else re.lastIndex = m.index + (text.codePointAt(m.index) > 0xffff ? 2 : 1);
    }
    return covers;
  });
  process.stdout.write(JSON.stringify(out) + "\n");
});
"""


@pytest.fixture(scope="module")
def node() -> Iterator[subprocess.Popen[str]]:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    proc = subprocess.Popen(
        ["node", "-e", _NODE_SCAN],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    yield proc
    assert proc.stdin is not None
    proc.stdin.close()
    proc.wait(timeout=10)


def node_scan(node: subprocess.Popen[str], pattern: str, texts: list[str]) -> object:
    assert node.stdin is not None
    assert node.stdout is not None
    node.stdin.write(json.dumps({"pattern": pattern, "texts": texts}) + "\n")
    node.stdin.flush()
    return json.loads(node.stdout.readline())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pattern=DIALECT_PATTERNS, texts=TEXTS)
def test_dialect_patterns_pass_and_python_and_javascript_agree(
    node: subprocess.Popen[str], pattern: str, texts: list[str]
) -> None:
    assert list(findings(pattern)) == []
    assert node_scan(node, pattern, texts) == [scan(pattern, text) for text in texts], pattern


_REFUSED = st.one_of(
    DIALECT_PATTERNS.map(lambda p: f"(?={p})"),
    DIALECT_PATTERNS.map(lambda p: f"(?!{p})"),
    _CLASSES.map(lambda c: f"(?<={c})"),
    _CLASSES.map(lambda c: f"(?<!{c})"),
    DIALECT_PATTERNS.map(lambda p: f"({p})\\1"),
    DIALECT_PATTERNS.map(lambda p: f"(?P<n>{p})(?P=n)"),
    DIALECT_PATTERNS.map(lambda p: f"(?P<n>{p})\\k<n>"),
)


@settings(max_examples=200)
@given(before=DIALECT_PATTERNS, refused=_REFUSED, after=DIALECT_PATTERNS)
def test_lookaround_and_backreferences_are_refused(before: str, refused: str, after: str) -> None:
    rules = {rule for rule, _name, _fix in findings(before + refused + after)}
    assert NON_REGULAR in rules


# -- side conditions as an engine without lookaround runs them -----------------------


def _anchored(pattern: str, text: str, at: int, cut: int) -> re.Match[str] | None:
    return re.compile(pattern).match(text, at, cut)


def linear_rule_covers(rule: TextRule, text: str) -> list[tuple[int, int]]:
    """A rule's covers on ``text`` without lookaround (docs/sdk-contract.md section 2).

    ``not_after`` as the class's complement before a capture group, ``ahead``
    as a match anchored where the pattern starts, ``followed_by`` as the
    pattern captured before it, ``prefix_not_followed_by`` as a match after
    the prefix that drops it.
    """
    side = rule.conditions
    if not rule.portable_prefix:
        assert not (side.ahead)
        assert not (side.followed_by)
        return _scan_not_after(rule.portable_pattern, side.not_after, text)
    marks = []
    prefix = re.compile(rule.portable_prefix)
    pos = 0
    while pos <= len(text):
        m = prefix.search(text, pos)
        if m is None:
            break
        if m.end() == m.start() or (
            side.prefix_not_followed_by
            and _anchored(side.prefix_not_followed_by, text, m.end(), len(text))
        ):
            pos = m.start() + 1
        else:
            marks.append(m.span())
            pos = m.end()
    core = f"({rule.portable_pattern})" + (f"(?:{side.followed_by})" if side.followed_by else "")
    if side.not_after:
        core = f"(?:^|{_complement(side.not_after)})" + core
    covers = []
    for i, (_start, end) in enumerate(marks):
        cut = marks[i + 1][0] if i + 1 < len(marks) else len(text)
        if side.ahead and _anchored(side.ahead, text, end, cut) is None:
            continue
        found = _anchored(core, text, end if not side.not_after else max(end - 1, 0), cut)
        if found is not None and found.start(1) == end and found.end(1) > end:
            covers.append(found.span(1))
    return covers


def _complement(klass: str) -> str:
    return "[" + klass[2:] if klass.startswith("[^") else "[^" + klass[1:]


def _scan_not_after(pattern: str, not_after: str, text: str) -> list[tuple[int, int]]:
    """The global scan of ``pattern`` whose matches start where ``not_after`` is not before."""
    if not not_after:
        return [(a, b) for a, b in scan(pattern, text)]
    at_start = re.compile(f"({pattern})")
    after_other = re.compile(f"{_complement(not_after)}({pattern})")
    out: list[tuple[int, int]] = []
    pos = 0
    while pos <= len(text):
        m = at_start.match(text) if pos == 0 else None
        if m is None or m.end(1) == m.start(1):
            m = after_other.search(text, max(pos - 1, 0))
        if m is None:
            break
        if m.end(1) > m.start(1):
            out.append(m.span(1))
            pos = m.end(1)
        else:
            pos = m.start(1) + 1
    return out


def lookaround_rule_covers(rule: TextRule, text: str) -> list[tuple[int, int]]:
    """A rule's covers as the SDKs find them: the lookaround form, compiled."""
    if not rule.prefix:
        return [(a, b) for a, b in scan(rule.pattern, text)]
    marks = scan(rule.prefix, text)
    pattern = re.compile(rule.pattern)
    covers = []
    for i, (_start, end) in enumerate(marks):
        cut = marks[i + 1][0] if i + 1 < len(marks) else len(text)
        m = pattern.match(text, end, cut)
        if m is not None and m.end() > end:
            covers.append(m.span())
    return covers


CONDITIONED = tuple(
    rule
    for rule in build_model(
        load_catalogue(REPO / "catalogue" / "errors.yaml").data,
        source="errors.yaml",
        regenerate="x",
    ).sanitizer.secrets
    if rule.conditions != SideConditions()
)

_PIECES = st.sampled_from(
    [
        "Basic ",
        "basic ",
        "QWxhZGRpbjpvcGVu",
        "dXNlcjp0b2tlbg==",
        "authentication",
        "://",
        "://b:",
        "//c:",
        "https://",
        "user:",
        "pa55",
        "@host",
        "//",
        "eyJhbGciOi",
        ".eyJzdWIiOi",
        ".sig",
        "x",
        "-",
        " ",
        "=",
        "@",
        ":",
    ]
)


def test_the_catalogue_has_each_side_condition() -> None:
    fields = {f for rule in CONDITIONED for f, v in vars(rule.conditions).items() if v}
    assert fields == {"not_after", "ahead", "followed_by", "prefix_not_followed_by"}


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(_PIECES, max_size=12))
@example(pieces=["://b:", "//c:", "pa55", "@host"])  # the user part of the next "://"
@example(pieces=["x", "eyJhbGciOi", ".eyJzdWIiOi", ".sig"])  # a JWT glued behind a letter
def test_side_conditions_without_lookaround_give_the_same_covers(pieces: list[str]) -> None:
    text = "".join(pieces)
    for rule in CONDITIONED:
        assert linear_rule_covers(rule, text) == lookaround_rule_covers(rule, text), rule.name


# -- catalogues from before the dialect ------------------------------------------------

BEFORE_DIALECT = {
    "basic credential": {
        "prefix": "[Bb][Aa][Ss][Ii][Cc] +",
        "pattern": "(?=[A-Za-z0-9+/]*(?:[0-9+/=]|[A-Za-z][A-Z]))[A-Za-z0-9+/]{8,}={0,2}",
    },
    "JSON web token": {
        "pattern": "(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]*"
    },
    "credentials in a URL": {"prefix": "://[^ /?#@:]*:(?!//)", "pattern": "[^ /?#@]+(?=@)"},
}
"""The three rules as release 1.1.1 wrote them, with lookaround."""


def test_rules_from_before_the_dialect_read_as_the_catalogue_writes_them_now() -> None:
    data = load_catalogue(REPO / "catalogue" / "errors.yaml").data["sanitizer"]["secrets"]
    now = {rule["name"]: rule for rule in data}
    for name, old in BEFORE_DIALECT.items():
        rule = dict(old)
        lookaround_as_conditions(rule)
        fields = ("prefix", "pattern", *SIDE_CONDITIONS)
        assert {f: rule.get(f) for f in fields} == {f: now[name].get(f) for f in fields}


@settings(max_examples=200)
@given(
    prefix=st.one_of(st.just(""), DIALECT_PATTERNS),
    pattern=DIALECT_PATTERNS,
    not_after=st.one_of(st.just(""), _CLASSES.filter(lambda c: c != ".")),
    ahead=st.one_of(st.just(""), DIALECT_PATTERNS),
    followed_by=st.one_of(st.just(""), DIALECT_PATTERNS),
    not_followed=st.one_of(st.just(""), DIALECT_PATTERNS),
)
def test_lookaround_as_conditions_undoes_with_lookaround(
    prefix: str, pattern: str, not_after: str, ahead: str, followed_by: str, not_followed: str
) -> None:
    side = SideConditions(
        not_after=not_after,
        ahead=ahead if prefix else "",
        followed_by=followed_by if prefix else "",
        prefix_not_followed_by=not_followed if prefix else "",
    )
    written_prefix, written = with_lookaround(prefix, pattern, side)
    rule = {"pattern": written, **({"prefix": written_prefix} if prefix else {})}
    lookaround_as_conditions(rule)
    assert rule.get("prefix", "") == prefix
    assert rule["pattern"] == pattern
    assert SideConditions(**{f: rule.get(f, "") for f in SIDE_CONDITIONS}) == side
