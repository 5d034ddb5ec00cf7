"""Random single edits of random valid catalogues: refused on the edited line, nothing written.

Each case takes a catalogue from :mod:`catalogue_strategies`, written as block
YAML, and makes one edit: delete a required key, change a scalar's type,
duplicate a key, insert a reserved class name, put a control, bidi or
invisible character in a text, indent with a tab, add an anchor, nest a
value deeply, point the gRPC gateway map at a code that does not exist (or
map OK), or break a condition reason (an unknown code, or a code whose
remediation no longer names it). ``generate`` must exit 2, print every problem on one line as
``FILE:LINE:COLUMN: what [rule]; fix: how`` with one of them on the edited
line (the mapping's line for a deleted key), write nothing, and never raise.
"""

from __future__ import annotations

import io
import re
import sys
from dataclasses import dataclass
from typing import Any

import pytest
from catalogue_strategies import FUZZ_SCALE, catalogues, to_yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.cli import run
from errcat.names import naming

REQUIRED_SCALARS = (
    "message",
    "cause",
    "remediation",
    "http",
    "grpc",
    "retryable",
    "side_effects",
    "origin",
)
WRONG_TYPES = {"http": '"{}"', "retryable": "1", "message": "5", "grpc": "[{}]", "cause": "{{}}"}
RESERVED = ["Exception", "TypeError", "Promise", *sorted(naming.runtime_names())[:40]]
STRANGE = ("\x07", "\x1b", "\x7f", "\u202e", "\u2066", "\u200b", "\ufeff", "\u00ad")
PROBLEM_RE = re.compile(r"(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): .+ \[[a-z0-9-]+\]; fix: .+")
COUNT = {"mutations": 0}


@dataclass(frozen=True)
class Mutation:
    """One edit of a catalogue's text, and the line a problem must point at."""

    kind: str
    text: str
    line: int


def _code_lines(lines: list[str], code: str) -> tuple[int, dict[str, int]]:
    """The index of ``  code:`` under ``codes:`` and of each of its scalar keys."""
    start = lines.index("codes:")
    spelled = (f"  {code}:", f'  "{code}":')
    head = next(i for i in range(start, len(lines)) if lines[i].startswith(spelled))
    keys: dict[str, int] = {}
    for index in range(head + 1, len(lines)):
        line = lines[index]
        if not line.startswith("    "):
            break
        if not line.startswith("     ") and ": " in line:
            keys[line.strip().split(":", 1)[0]] = index
    return head, keys


KINDS = (
    "delete",
    "retype",
    "duplicate",
    "reserved",
    "character",
    "tab",
    "anchor",
    "deep",
    "gateway",
    "condition",
)
SECTION_OF = {"gateway": "grpc_gateway", "condition": "conditions"}
UNKNOWN_CODE = "zz_not_catalogued"
"""A code no catalogue of the strategies has (their names have at most five letters a part)."""


def _section_lines(lines: list[str], section: str) -> range:
    """The indices of the lines of a top-level ``section``, its own line first."""
    start = lines.index(f"{section}:")
    end = next(
        (i for i in range(start + 1, len(lines)) if not lines[i].startswith(" ")), len(lines)
    )
    return range(start, end)


def _break_gateway(draw: st.DrawFn, lines: list[str]) -> int:
    """Point one entry of the gateway map at no code, or map OK; returns the line to blame."""
    section = _section_lines(lines, "grpc_gateway")
    head = next(i for i in section if lines[i] == "  by_status:")
    entries = []
    for i in range(head + 1, section.stop):
        if not lines[i].startswith("    ") or lines[i].startswith("     "):
            break
        entries.append(i)
    default = next(i for i in section if lines[i].startswith("  default: "))
    way = draw(st.sampled_from(("entry", "ok", "default")))
    if way == "ok":
        lines.insert(head + 1, f"    OK: {UNKNOWN_CODE}")
        return head + 1
    at = draw(st.sampled_from(entries)) if way == "entry" else default
    lines[at] = lines[at].split(": ", 1)[0] + f": {UNKNOWN_CODE}"
    return at


def _break_condition(draw: st.DrawFn, lines: list[str], data: dict[str, Any]) -> int:
    """Name an unknown code under a reason, or take the reason out of a code's remediation."""
    name = draw(st.sampled_from(sorted(data["conditions"])))
    section = _section_lines(lines, "conditions")
    head = next(i for i in section if lines[i] in (f"  {name}:", f'  "{name}":'))
    index = draw(st.sampled_from(range(len(data["conditions"][name]["codes"]))))
    item = next(i for i in range(head, section.stop) if lines[i].startswith("    - ")) + index
    code = data["conditions"][name]["codes"][index]
    if draw(st.booleans()):
        lines[item] = f"    - {UNKNOWN_CODE}"
        return item
    _, keys = _code_lines(lines, code)
    prefix, value = lines[keys["remediation"]].split(": ", 1)
    lines[keys["remediation"]] = f"{prefix}: " + value.replace(name, "")
    return item


@st.composite
def mutations(draw: st.DrawFn, kind: str) -> Mutation:
    data: dict[str, Any] = draw(
        catalogues(require=(SECTION_OF[kind],) if kind in SECTION_OF else ())
    )
    lines = to_yaml(data).splitlines()
    code = draw(st.sampled_from(sorted(data["codes"])))
    head, keys = _code_lines(lines, code)
    key = draw(st.sampled_from(REQUIRED_SCALARS))
    at = keys[key]
    line = lines[at]
    target = at
    if kind == "delete":
        del lines[at]
        target = head
    elif kind == "retype":
        key = draw(st.sampled_from(sorted(WRONG_TYPES)))
        at = target = keys[key]
        value = lines[at].split(": ", 1)[1]
        lines[at] = f"    {key}: " + WRONG_TYPES[key].format(value.strip('"'))
    elif kind == "duplicate":
        lines.insert(at + 1, line)
        target = at + 1
    elif kind == "reserved":
        lines.insert(at + 1, f"    class_name: {draw(st.sampled_from(RESERVED))}")
        target = at + 1
    elif kind == "character":
        text_key = draw(st.sampled_from(("message", "cause", "remediation")))
        at = target = keys[text_key]
        prefix, value = lines[at].split(": ", 1)
        cut = draw(st.integers(0, len(value)))
        lines[at] = f"{prefix}: {value[:cut]}{draw(st.sampled_from(STRANGE))}{value[cut:]}"
    elif kind == "tab":
        lines[at] = "\t" + line[1:]
    elif kind == "gateway":
        target = _break_gateway(draw, lines)
    elif kind == "condition":
        target = _break_condition(draw, lines, data)
    elif kind == "anchor":
        prefix, value = line.split(": ", 1)
        lines[at] = f"{prefix}: &{draw(st.from_regex(r'[a-z]{1,6}', fullmatch=True))} {value}"
    else:
        # Past MAX_DEPTH, past Python's recursion limit, around libyaml's limit of 1000.
        depth = draw(st.sampled_from((33, 700, 999, 1001, 1500)) | st.integers(33, 1500))
        lines[at] = f"    {key}: " + "[" * depth + "]" * depth
    return Mutation(kind, "\n".join(lines) + "\n", target + 1)


@pytest.mark.parametrize("kind", KINDS)
@settings(
    max_examples=5 * FUZZ_SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_a_single_edit_is_refused_on_its_line_and_writes_nothing(
    kind: str, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    mutation = data.draw(mutations(kind))
    root = tmp_path_factory.mktemp("mut")
    catalogue = root / "catalogue.yaml"
    catalogue.write_bytes(mutation.text.encode("utf-8"))
    out = root / "out"
    out.mkdir()
    stdout, stderr = io.StringIO(), io.StringIO()
    # Hypothesis raises the recursion limit; the command line runs with Python's default.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        status = run(
            ["generate", "--catalogue", str(catalogue), "--out", str(out)],
            stdout=stdout,
            stderr=stderr,
        )
    finally:
        sys.setrecursionlimit(limit)
    lines = stderr.getvalue().splitlines()
    assert status == 2, (mutation.kind, stderr.getvalue())
    assert lines[-1].endswith("; nothing was written"), lines[-1]
    found = [PROBLEM_RE.fullmatch(line) for line in lines[:-1]]
    assert all(found), [line for line, m in zip(lines, found, strict=False) if not m]
    assert all(m["file"] == str(catalogue) for m in found if m)
    where = sorted({int(m["line"]) for m in found if m})
    assert mutation.line in where, (mutation.kind, mutation.line, lines)
    assert list(out.iterdir()) == [], "a refused catalogue wrote files"
    COUNT["mutations"] += 1


def teardown_module() -> None:
    print(f"\nmutations run: {COUNT['mutations']}", file=sys.stderr)
