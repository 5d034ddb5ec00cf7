"""``errcat diff`` on random edits of real catalogues, and on arbitrary pairs of files.

The catalogues edited are the two good fixtures and the Mitos catalogue; an
edit that the validator refuses is discarded. Properties: a catalogue has
no changes from itself (nor from a re-layout of itself); ``diff OLD NEW``
asks for a bump, and with that bump the same pair passes while a smaller
one fails; and no pair of files, however broken, gives anything but exit
0, 1 or 2. ``ERRCAT_DIFF_EXAMPLES`` raises the budget (default 25 each).
"""

from __future__ import annotations

import copy
import os
import string
from pathlib import Path
from typing import Any

from diff_support import GATEWAY, MINIMAL, MITOS, Data, base, diff, dump, load_data
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from errcat.evolve import cli as evolve_cli
from errcat.evolve import semver
from errcat.evolve.compare import compare
from errcat.evolve.report import needed
from errcat.evolve.rules import Bump, Level

EXAMPLES = int(os.environ.get("ERRCAT_DIFF_EXAMPLES", "25"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
CATALOGUES = {"base": base(), "gateway": load_data(GATEWAY), "mitos": load_data(MITOS)}
GRPC = ["Canceled", "Unknown", "InvalidArgument", "NotFound", "Internal", "Unavailable"]
ACTIONS = ["revise_and_retry", "retry_later", "reauthenticate", "rediscover", "do_not_retry"]
SAME = ["safe", "conditional", "discouraged", "never"]
SIDE = ["none_expected", "possible", "unknown"]
TYPES = ["string", "integer", "number", "boolean"]
WORDS = st.text(string.ascii_letters + " ", min_size=1, max_size=30).map(lambda t: t.strip() or "x")
NAMES = st.from_regex(r"[a-z][a-z0-9]{2,10}", fullmatch=True)


def _referenced(data: Data) -> set[str]:
    """Codes the fallback map, families, retired replacements or the sdk section name."""
    fallback = data["fallback"]
    names = {*fallback["by_status"].values(), *fallback["by_class"].values(), fallback["default"]}
    for group in data.get("sdk", {}).values():
        names.update(code for role, code in group.items() if role != "exit_status")
    for family in data.get("families", {}).values():
        names.update(family["codes"])
    names.update(r.get("replaced_by") for r in data.get("retired", {}).values())
    return {name for name in names if name}


def _edit(draw: st.DrawFn, data: Data) -> None:
    """Apply one random edit to ``data`` in place: of a code's entry, of the codes, or of the rest."""
    codes = data["codes"]
    name = draw(st.sampled_from(sorted(codes)))
    code = codes[name]
    free = sorted(set(codes) - _referenced(data))
    kind = draw(st.integers(0, 15))
    sdk_named = {
        c for g in data.get("sdk", {}).values() for r, c in g.items() if r != "exit_status"
    }
    if kind == 0 and name in sdk_named:
        # A code the sdk section names keeps its status class, which the section's rule checks.
        code["http"] = code["http"] // 100 * 100 + draw(st.integers(0, 99))
    elif kind <= 4 or kind in (8, 12, 13):
        _edit_entry(draw, data, code, kind)
    elif kind == 5 or (kind in (6, 7) and free):
        _edit_codes(draw, data, code, free, kind)
    else:
        _edit_catalogue(draw, data, kind)


def _edit_entry(draw: st.DrawFn, data: Data, code: Data, kind: int) -> None:
    """Edit kinds 0-4, 8, 12 and 13: one field of ``code``'s entry."""
    if kind == 0:
        code["http"] = draw(st.integers(400, 599))
    elif kind == 1:
        code["grpc"] = draw(st.sampled_from(GRPC))
    elif kind == 2:
        key = draw(st.sampled_from(["retryable", "auth_failure", "cancelled"]))
        code[key] = not code.get(key, False)
    elif kind == 3:
        code["recovery"]["action"] = draw(st.sampled_from(ACTIONS))
        code["recovery"]["same_arguments"] = draw(st.sampled_from(SAME))
        code["side_effects"] = draw(st.sampled_from(SIDE))
    elif kind == 4:
        code[draw(st.sampled_from(["message", "cause", "remediation"]))] = draw(WORDS)
    elif kind == 8:
        fields = sorted(data["context_fields"])
        code["context"] = draw(st.lists(st.sampled_from(fields), unique=True, max_size=4))
    elif kind == 12:
        code["class_name"] = draw(NAMES).capitalize() + "Failure"
    else:
        code.setdefault("surfaces", {})[draw(NAMES)] = {"message": draw(WORDS)}


def _edit_codes(draw: st.DrawFn, data: Data, code: Data, free: list[str], kind: int) -> None:
    """Edit kinds 5-7: add a code like ``code``, remove or rename one no other entry names."""
    codes = data["codes"]
    if kind == 5:
        new_name = draw(NAMES)
        if new_name in codes or new_name in data.get("retired", {}):
            reject()
        added = copy.deepcopy(code)
        added.pop("class_name", None)
        added["message"] = draw(WORDS)
        codes[new_name] = added
    elif kind == 6:
        gone = draw(st.sampled_from(free))
        del codes[gone]
        if draw(st.booleans()):
            data.setdefault("retired", {})[gone] = {"reason": draw(WORDS)}
    else:
        old_name, new_name = draw(st.sampled_from(free)), draw(NAMES)
        if new_name in codes or new_name in data.get("retired", {}):
            reject()
        codes[new_name] = codes.pop(old_name)


def _edit_catalogue(draw: st.DrawFn, data: Data, kind: int) -> None:
    """Edit kinds 9-11, 14 and the rest: a context field, the limits, the fallback, names, the summary."""
    if kind == 9:
        field = draw(st.sampled_from(sorted(data["context_fields"])))
        data["context_fields"][field]["type"] = draw(st.sampled_from(TYPES))
        data["context_fields"][field].pop("example", None)
    elif kind == 10:
        limits = data["limits"]
        limits["max_exec_timeout_s"] = draw(
            st.integers(limits["default_run_code_timeout_s"], 10**6)
        )
        limits["text_max_chars"] = draw(st.integers(64, 8192))
    elif kind == 11:
        status = draw(st.sampled_from(sorted(data["fallback"]["by_status"])))
        data["fallback"]["by_status"][status] = draw(st.sampled_from(sorted(data["codes"])))
    elif kind == 14:
        data["base_class"] = draw(NAMES).capitalize() + "Problem"
    else:
        data["api"]["summary"] = draw(WORDS)


@st.composite
def edited_catalogues(draw: st.DrawFn) -> tuple[Data, Data]:
    """A catalogue and a copy with one to four random edits."""
    old = copy.deepcopy(CATALOGUES[draw(st.sampled_from(sorted(CATALOGUES)))])
    new = copy.deepcopy(old)
    for _ in range(draw(st.integers(1, 4))):
        _edit(draw, new)
    return old, new


def _valid(path: Path) -> bool:
    try:
        evolve_cli._side(path, str(path))
    except evolve_cli.CatalogueError:
        return False
    return True


@SETTINGS
@given(pair=edited_catalogues())
def test_a_catalogue_has_no_changes_from_itself(tmp_path: Path, pair: tuple[Data, Data]) -> None:
    path = tmp_path / "same.yaml"
    path.write_text(dump(pair[1]), encoding="utf-8")
    if not _valid(path):
        reject()
    status, stdout, stderr = diff(str(path), str(path))
    assert (status, stdout) == (0, ""), stderr


@SETTINGS
@given(pair=edited_catalogues())
def test_the_bump_diff_asks_for_passes(tmp_path: Path, pair: tuple[Data, Data]) -> None:
    old, new = pair
    old["version"] = new["version"] = "1.4.2"
    old_path, new_path = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old_path.write_text(dump(old), encoding="utf-8")
    new_path.write_text(dump(new), encoding="utf-8")
    if not _valid(new_path):
        reject()
    bump = needed(compare(evolve_cli._side(old_path, "old"), evolve_cli._side(new_path, "new")))
    start = semver.parse("1.4.2")
    assert start is not None
    new["version"] = str(semver.bumped(start, bump))
    new_path.write_text(dump(new), encoding="utf-8")
    status, _stdout, stderr = diff(str(old_path), str(new_path))
    assert status == 0, stderr
    if bump > Bump.NONE:
        new["version"] = str(semver.bumped(start, Bump(bump - 1)))
        new_path.write_text(dump(new), encoding="utf-8")
        status, _stdout, stderr = diff(str(old_path), str(new_path))
        assert status == 1, stderr
        assert f"set version: {semver.bumped(start, bump)}" in stderr


def _mangle(draw: st.DrawFn, raw: bytes) -> bytes:
    """Random byte edits: cut, insert or overwrite a few spans."""
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(raw)))
        span = draw(st.integers(0, 40))
        filler = draw(st.binary(max_size=12) | st.sampled_from([b":", b"- ", b"\t", b"&a", b'"']))
        raw = raw[:at] + filler + raw[at + span :]
    return raw


@st.composite
def any_file(draw: st.DrawFn) -> Any:
    """Bytes of a file: a mangled catalogue, random bytes, or empty; or a path that is no file."""
    choice = draw(st.integers(0, 4))
    if choice == 0:
        return draw(st.binary(max_size=200))
    if choice == 1:
        return "missing"
    if choice == 2:
        return "directory"
    source = draw(st.sampled_from([MINIMAL, GATEWAY, MITOS]))
    return _mangle(draw, source.read_bytes())


def _materialize(tmp: Path, name: str, spec: Any) -> Path:
    path = tmp / name
    if spec == "directory":
        path.mkdir(exist_ok=True)
    elif isinstance(spec, bytes):
        path.write_bytes(spec)
    return path


@SETTINGS
@given(old=any_file(), new=any_file(), rev=st.sampled_from(["HEAD", "-x", "", "no/such:rev"]))
def test_no_pair_of_files_gives_a_traceback(tmp_path: Path, old: Any, new: Any, rev: str) -> None:
    work = tmp_path / "pair"
    work.mkdir(exist_ok=True)
    for child in work.iterdir():
        if child.is_dir():
            child.rmdir()
        else:
            child.unlink()
    old_path = _materialize(work, "old.yaml", old)
    new_path = _materialize(work, "new.yaml", new)
    status, _stdout, stderr = diff(str(old_path), str(new_path))
    assert status in (0, 1, 2)
    assert "Traceback" not in stderr
    if status == 2:
        assert stderr.strip()
    status, _stdout, stderr = diff(f"--against={rev}", str(new_path))
    assert status == 2, stderr
    assert stderr.startswith(("errcat diff: ", str(new_path)))


@st.composite
def go_signature_edits(draw: st.DrawFn) -> tuple[Data, Data, str, str]:
    """A catalogue, a copy whose server code has another context list or Go name, the code and the rule."""
    old = copy.deepcopy(CATALOGUES[draw(st.sampled_from(sorted(CATALOGUES)))])
    server = sorted(n for n, c in old["codes"].items() if c.get("emitted_by", "server") == "server")
    name = draw(st.sampled_from(server))
    new = copy.deepcopy(old)
    entry = new["codes"][name]
    fields = sorted(old["context_fields"])
    if draw(st.booleans()):
        before = list(entry.get("context", []))
        after = draw(st.lists(st.sampled_from(fields), unique=True, max_size=4))
        if after == before:
            after = [] if before else fields[:1]
        entry["context"] = after
        return old, new, name, "constructor-changed"
    names = entry.get("class_name")
    entry["class_name"] = {
        **(names if isinstance(names, dict) else {}),
        "go": "Renamed" + draw(NAMES).capitalize(),
    }
    if isinstance(names, str):  # a shared name: every language but Go keeps it
        entry["class_name"] |= {"python": names, "typescript": names, "rust": names}
    return old, new, name, "class-renamed"


@SETTINGS
@given(case=go_signature_edits())
def test_a_go_name_or_constructor_change_is_sdk_and_status_changes_wire(
    tmp_path: Path, case: tuple[Data, Data, str, str]
) -> None:
    """errcat diff on generated pairs: a Go constructor's parameters or a Go name changed is sdk."""
    old, new, code, rule = case
    old_path, new_path = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old_path.write_text(dump(old), encoding="utf-8")
    new_path.write_text(dump(new), encoding="utf-8")
    if not _valid(new_path):
        reject()
    found = compare(evolve_cli._side(old_path, "old"), evolve_cli._side(new_path, "new"))
    mine = [c for c in found if c.rule == rule and dict(c.values).get("subject") == code]
    assert mine, [c.rule for c in found]
    if rule == "class-renamed":
        assert [dict(c.values)["language"] for c in mine] == ["Go"]
    assert all(c.level is Level.SDK for c in mine)
    new["codes"][code]["http"] = 418 if old["codes"][code]["http"] != 418 else 400
    new_path.write_text(dump(new), encoding="utf-8")
    if _valid(new_path):
        found = compare(evolve_cli._side(old_path, "old"), evolve_cli._side(new_path, "new"))
        assert any(c.rule == "http-changed" and c.level is Level.WIRE for c in found)
