"""Catalogue formats: older catalogues are read, diffed and migrated to what the current format says.

The property: a drawn catalogue, made expressible in format ``k``
(:func:`format_downgrade.representable`) and written in it
(:func:`format_downgrade.downgrade`) with comment lines scattered through
it, is read by ``generate`` as the current-format catalogue (with a
warning), compares equal to it with ``errcat diff``, and
after ``errcat migrate`` keeps every comment line, validates, generates the
same files, and migrates no further.
"""

from __future__ import annotations

import copy
import difflib
import io
import random
from pathlib import Path
from typing import Any

import pytest
from catalogue_strategies import FUZZ_SCALE, catalogues, to_yaml
from format_downgrade import downgrade, representable
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from errcat.check.validate import validate
from errcat.cli import load_model, run
from errcat.migrate.edits import TODO, Editor
from errcat.migrate.formats import CURRENT, FORMATS, detect
from errcat.migrate.steps import LEGACY_SDK_CODES
from errcat.migrate.upgrade import RULE
from errcat.names import naming
from errcat.render import render_all
from errcat.source.load import parse_catalogue

HERE = Path(__file__).resolve().parent
MINIMAL = HERE / "fixtures" / "good" / "minimal.yaml"
LEGACY_STATUS = {
    "connection_failed": 503,
    "connection_lost": 502,
    "response_timeout": 504,
    "canceled": 499,
    "invalid_input": 400,
    "timeout_too_large": 400,
    "exec_timeout": 504,
}
"""The codes the SDKs raised before format 3, with a status of their role's class."""


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_the_legacy_codes_are_the_roles_codes() -> None:
    assert sorted(LEGACY_STATUS) == sorted(c for g in LEGACY_SDK_CODES.values() for c in g.values())


@st.composite
def with_legacy_codes(draw: st.DrawFn, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with some of the codes the SDKs raised before format 3 (so format 2 meant helpers)."""
    data = copy.deepcopy(data)
    template = next(iter(data["codes"].values()))
    taken = {naming.fold(code) for code in data["codes"]} | {naming.fold(data["base_class"])}
    for name in draw(st.lists(st.sampled_from(sorted(LEGACY_STATUS)), unique=True)):
        if naming.fold(name) in taken:
            continue
        spec = {k: v for k, v in template.items() if k not in ("refines", "class_name")}
        data["codes"][name] = {**copy.deepcopy(spec), "http": LEGACY_STATUS[name], "context": []}
    return data


def with_comments(text: str, rnd: random.Random) -> tuple[str, list[str]]:
    """``text`` with comment lines at random places between its lines, and those lines."""
    lines = text.splitlines(keepends=True)
    comments = []
    for index in sorted(rnd.sample(range(len(lines) + 1), min(8, len(lines) + 1)), reverse=True):
        comment = f"# a person's note {index}\n"
        comments.append(comment.strip())
        lines.insert(index, comment)
    return "".join(lines), comments[::-1]


def files(path: Path) -> dict[str, str]:
    return render_all(load_model(path, path.parent))


def same(got: dict[str, str], expected: dict[str, str]) -> str:
    """ "" when equal, else a unified diff of the first file that differs."""
    for name in sorted(got.keys() | expected.keys()):
        if got.get(name) != expected.get(name):
            lines = difflib.unified_diff(
                expected.get(name, "").splitlines(), got.get(name, "").splitlines(), lineterm=""
            )
            return "\n".join([name, *list(lines)[:40]])
    return ""


@settings(
    max_examples=8 * FUZZ_SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data(), k=st.integers(1, CURRENT - 1), rnd=st.randoms(use_true_random=False))
def test_an_older_catalogue_reads_diffs_and_migrates_as_the_current_one(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, k: int, rnd: random.Random
) -> None:
    drawn = data.draw(catalogues().flatmap(with_legacy_codes))
    original = representable(drawn, k)
    text = to_yaml(original)
    assume(not validate(parse_catalogue(text, "catalogue.yaml")))
    root = tmp_path_factory.mktemp("formats")
    (root / "new").mkdir()
    (root / "old").mkdir()
    new, old = root / "new" / "catalogue.yaml", root / "old" / "catalogue.yaml"
    new.write_text(text, encoding="utf-8")
    old_text, comments = with_comments(to_yaml(downgrade(drawn, k)), rnd)
    old.write_text(old_text, encoding="utf-8")
    assert detect(parse_catalogue(old_text).data)[0] <= k
    expected = files(new)

    # Read in memory: the same files, placeholders included, and a warning that says so.
    assert not (differ := same(files(old), expected)), differ
    status, _out, err = cli("validate", "--catalogue", str(old))
    assert status == 0, err
    assert f"[{RULE}]" in err
    assert f"current format is {CURRENT}" in err
    assert ("placeholder" in err) == (k == 1)

    # errcat diff reads both in the current format: nothing changed.
    status, out, err = cli("diff", str(old), str(new))
    assert (status, out) == (0, ""), err

    status, _out, err = cli("migrate", "--catalogue", str(old), "--check")
    assert status == 1, err
    assert old.read_text(encoding="utf-8") == old_text
    status, out, err = cli("migrate", "--catalogue", str(old))
    assert status == 0, err
    migrated = old.read_text(encoding="utf-8")
    kept = [line.strip() for line in migrated.splitlines() if line.strip() in comments]
    assert kept == comments
    todos = [line for line in migrated.splitlines() if TODO in line]
    assert len(todos) >= (len(original["codes"]) if k == 1 else 0)
    assert not (differ := same(files(old), expected)), differ
    status, _out, err = cli("migrate", "--catalogue", str(old))
    assert status == 0
    assert "the current one" in _out
    assert old.read_text("utf-8") == migrated
    assert cli("migrate", "--catalogue", str(old), "--check")[0] == 0


def test_every_format_is_numbered_in_order() -> None:
    assert [f.number for f in FORMATS] == list(range(1, CURRENT + 1))


def test_a_format_newer_than_errcat_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "catalogue.yaml"
    text = MINIMAL.read_text(encoding="utf-8").replace(f"format: {CURRENT}", "format: 99", 1)
    path.write_text(text, encoding="utf-8")
    status, _out, err = cli("validate", "--catalogue", str(path))
    assert status == 2
    assert "[newer-format]" in err
    assert "format 99" in err
    assert cli("migrate", "--catalogue", str(path))[0] == 2
    assert path.read_text(encoding="utf-8") == text


def test_a_stated_older_format_is_rewritten_in_place(tmp_path: Path) -> None:
    path = tmp_path / "catalogue.yaml"
    text = MINIMAL.read_text(encoding="utf-8").replace(f"format: {CURRENT}", "format: 3", 1)
    text = text.replace("  standard: false\n", "", 1)
    path.write_text(text, encoding="utf-8")
    status, _out, err = cli("validate", "--catalogue", str(path))
    assert status == 0
    assert "says it is in format 3" in err
    assert cli("migrate", "--catalogue", str(path))[0] == 0
    migrated = path.read_text(encoding="utf-8")
    assert migrated.startswith(f"format: {CURRENT}  # A minimal")
    assert migrated.count("standard: false") == 1


def test_migrate_writes_nothing_when_the_result_would_not_validate(tmp_path: Path) -> None:
    # A lookbehind at the start of a prefix has no side condition: only a person can rewrite it.
    path = tmp_path / "catalogue.yaml"
    text = MINIMAL.read_text(encoding="utf-8").replace(f"format: {CURRENT}  ", "", 1)
    text = text.replace("  standard: false\n", "", 1)
    text = text.replace('prefix: "[Bb][Ee]', 'prefix: "(?<![A-Za-z])[Bb][Ee]', 1)
    path.write_text(text, encoding="utf-8")
    status, _out, err = cli("migrate", "--catalogue", str(path))
    assert status == 2
    assert "[non-regular-pattern]" in err
    assert "nothing was written" in err
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "(?<![A-Za-z])" in t)
    assert f"catalogue.yaml:{line}:" in err  # the line as written, not as migrated
    assert path.read_text(encoding="utf-8") == text
    status, _out, err = cli("validate", "--catalogue", str(path))
    assert status == 2
    warned, problem = err.splitlines()[:2]
    assert f"warning: the catalogue is in format 2; the current format is {CURRENT}" in warned
    assert problem.startswith(f"{path}:{line}:")


def test_a_format_1_catalogue_gets_a_placeholder_origin_under_a_todo(tmp_path: Path) -> None:
    path = tmp_path / "catalogue.yaml"
    doc = parse_catalogue(MINIMAL.read_bytes())
    lines = [
        line.replace(f"format: {CURRENT}  ", "")
        for line in MINIMAL.read_text(encoding="utf-8").splitlines(keepends=True)
        if not line.startswith(("    origin: ", "  standard: false"))
    ]
    path.write_text("".join(lines), encoding="utf-8")
    status, _out, err = cli("check", "--catalogue", str(path), "--out", str(tmp_path))
    assert status == 1  # generated nothing yet; the catalogue itself is read
    assert "3 placeholder value(s) only a person can choose (bad_request: choose its origin" in err
    assert "then settle each TODO(errcat migrate)" in err
    assert cli("migrate", "--catalogue", str(path))[0] == 0
    migrated = parse_catalogue(path.read_bytes()).data
    assert {spec["origin"] for spec in migrated["codes"].values()} == {"runtime"}
    text = path.read_text(encoding="utf-8")
    assert text.count(f"{TODO}: choose origin") == len(doc.data["codes"])
    # The minimal API has none of the codes the SDKs raised: each group's absence is explained.
    assert text.count(f"{TODO}: before format 3") == 3
    assert migrated["format"] == CURRENT


def test_diff_across_formats_reports_only_what_changed(tmp_path: Path) -> None:
    # OLD is the minimal catalogue as format 2 (no format key, no sdk section): its SDKs had
    # no helper, since it has none of the codes the SDKs raised; NEW changes one message.
    current = MINIMAL.read_text(encoding="utf-8")
    old = current.replace(f"format: {CURRENT}  ", "", 1).replace("  standard: false\n", "", 1)
    new = current.replace("message: rate limit exceeded", "message: too many requests", 1)
    (tmp_path / "old.yaml").write_text(old, encoding="utf-8")
    (tmp_path / "new.yaml").write_text(new, encoding="utf-8")
    status, out, err = cli("diff", str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"))
    assert status == 0, err
    assert [line.split("] ")[0].split("[")[1] for line in out.splitlines()] == ["docs text-changed"]
    assert "codes.rate_limited.message" in out
    assert "old.yaml:1:1: warning: the catalogue is in format 2" in err


def edited(text: str, *edits: tuple[tuple[str, ...], str, int]) -> str:
    editor = Editor(parse_catalogue(text))
    for path, key, value in edits:
        editor.add(path, key, value, comments=("note",))
    return editor.result()


def test_edits_keep_flow_mappings_line_endings_and_trailing_comments() -> None:
    assert edited("a:\n  b: {x: 1}  # kept\n", (("a", "b"), "y", 2)) == (
        "a:\n  # note\n  b: {x: 1, y: 2}  # kept\n"
    )
    assert edited("a: 1\r\nb:\r\n  c: 2 # kept\r\n", (("b",), "d", 3)) == (
        "a: 1\r\nb:\r\n  c: 2 # kept\r\n  # note\r\n  d: 3\r\n"
    )
    assert edited("a:\n  b: >-\n    folded\n    text\n\nc: 1", ((), "d", 4)) == (
        "a:\n  b: >-\n    folded\n    text\n\nc: 1\n\n# note\nd: 4\n"
    )
