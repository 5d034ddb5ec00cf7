"""Any catalogue's TypeScript compiles with the runtime, and every text means what it said.

Hypothesis draws catalogues (from the minimal fixture) whose texts hold what
means something in TypeScript source (``*/``, backticks, ``${``,
backslashes, quotes, line and paragraph separators, bidi controls, lone
surrogates, ``<!--``) and whose codes may carry no context at all. Each
batch is rendered, type-checked with ``tsc`` in one run against the
hand-written runtime, and the generated data is evaluated by Node: each
string literal must give back the catalogue's text exactly. The escaping
functions are checked on their own for any text.

``ERRCAT_TS_EXAMPLES`` sets the number of batches (default 1, of 7 catalogues: six
drawn and one without context fields), each one ``tsc`` run.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errcat.model.catalogue import build_model
from errcat.names.reserved import COMPAT_FOLDER
from errcat.render.typescript.syntax import (
    doc_text,
    json_literal,
    line_comment,
    property_key,
    string_literal,
)
from errcat.render.typescript.target import TARGET

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
TS_SDK = REPO / "ts-sdk"
TS_COMPILER = TS_SDK / "node_modules" / "typescript"
MINIMAL: dict[str, Any] = yaml.safe_load(
    (HERE / "fixtures" / "good" / "minimal.yaml").read_text(encoding="utf-8")
)
BATCHES = int(os.environ.get("ERRCAT_TS_EXAMPLES", "1"))

HOSTILE = [
    "*/",
    "/*",
    "`",
    "${",
    "\\",
    '"',
    "'",
    '"""',
    "<!--",
    "-->",
    "</script>",
    "\u2028",
    "\u2029",
    "\n",
    "\r",
    "\t",
    "\x00",
    "\x7f",
    "\u202e",
    "\u200b",
    "\ufeff",
    "\ud800",
    "\U0001f600",
    "@deprecated",
    "{@link x}",
    "//",
]
TEXT = st.lists(
    st.one_of(st.sampled_from(HOSTILE), st.text(max_size=4)), min_size=1, max_size=6
).map("".join)


def _tsc_or_skip() -> Path:
    tsc = TS_COMPILER / "bin" / "tsc"
    if tsc.is_file() and shutil.which("node"):
        return tsc
    if os.environ.get("CI"):
        pytest.fail("TypeScript is not installed: run npm ci in ts-sdk first (nox -s tests does)")
    pytest.skip("TypeScript is not installed (npm ci in ts-sdk)")


@st.composite
def catalogues(draw: st.DrawFn) -> dict[str, Any]:
    """The minimal catalogue with hostile texts, and maybe no context anywhere."""
    data = copy.deepcopy(MINIMAL)
    data["api"]["name"] = draw(TEXT)
    data["api"]["summary"] = draw(TEXT)
    no_context = draw(st.booleans())
    for spec in data["codes"].values():
        for key in ("message", "cause", "remediation"):
            spec[key] = draw(TEXT)
        spec["recovery"]["guidance"] = draw(TEXT)
        if draw(st.booleans()):
            spec["deprecated"] = draw(TEXT)
        if no_context:
            spec["context"] = []
    for field in data["context_fields"].values():
        field["meaning"] = draw(TEXT)
    san = data["sanitizer"]
    for key in ("redaction", "filtered", "truncation_marker"):
        san[key] = draw(TEXT)
    for rule in san["secrets"] + san["injection"]:
        rule["name"] = draw(TEXT)
        rule["triggers"] = [draw(TEXT)]
    for char_range in san["remove"] + san["to_space"]:
        char_range["name"] = draw(TEXT)
    return data


# Evaluates each catalogue.ts and sanitizer-rules.ts (type imports only) and prints their data.
_EVAL = r"""
const ts = require(process.argv[1]);
const dirs = JSON.parse(require("fs").readFileSync(0, "utf8"));
const load = (file) => {
  const text = require("fs").readFileSync(file, "utf8");
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText;
  const module = { exports: {} };
  new Function("module", "exports", "require", js)(module, module.exports, () => ({}));
  return module.exports;
};
// Every code's spec is built on first use: SPECS lists the builders.
const built = (catalogue) => ({ ...catalogue, SPECS: catalogue.SPECS.map((specOfCode) => specOfCode()) });
const out = dirs.map((dir) => ({ ...built(load(dir + "/catalogue.ts")), ...load(dir + "/sanitizer-rules.ts") }));
process.stdout.write(JSON.stringify(out));
"""


def _compile(tmp: Path, renders: list[dict[str, str]]) -> list[dict[str, Any]]:
    """Type-check every render in one tsc run; return the data Node reads from each."""
    tsc = _tsc_or_skip()
    roots = []
    for index, files in enumerate(renders):
        src = tmp / f"c{index}" / "src"
        shutil.copytree(
            TS_SDK / "src", src, ignore=shutil.ignore_patterns("generated", COMPAT_FOLDER)
        )
        for rel, text in files.items():
            path = tmp / f"c{index}" / rel.removeprefix("ts-sdk/")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", errors="strict")
        roots.append(src / "generated")
    config = {
        "extends": (TS_SDK / "tsconfig.base.json").as_posix(),
        "compilerOptions": {"module": "NodeNext", "moduleResolution": "NodeNext", "noEmit": True},
        "include": [f"c{i}/src" for i in range(len(renders))],
    }
    (tmp / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    done = subprocess.run(
        ["node", str(tsc), "-p", str(tmp / "tsconfig.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    evaluated = subprocess.run(
        ["node", "-e", _EVAL, str(TS_COMPILER)],
        input=json.dumps([str(r) for r in roots]),
        capture_output=True,
        text=True,
        check=True,
    )
    data: list[dict[str, Any]] = json.loads(evaluated.stdout)
    return data


def _render(data: dict[str, Any]) -> dict[str, str]:
    cat = build_model(data, source="catalogue/errors.yaml", regenerate="nox -s generate")
    return TARGET.render(cat)


def _assert_same_texts(data: dict[str, Any], seen: dict[str, Any]) -> None:
    specs = {s["code"]: s for s in seen["SPECS"]}
    for code, spec in data["codes"].items():
        for key in ("message", "cause", "remediation"):
            assert specs[code][key] == spec[key], (code, key)
        assert specs[code]["recovery"]["guidance"] == spec["recovery"]["guidance"]
    san = data["sanitizer"]
    assert seen["REDACTION"] == san["redaction"]
    assert seen["FILTERED"] == san["filtered"]
    assert seen["TRUNCATION_MARKER"] == san["truncation_marker"]
    rules = seen["SECRET_RULES"] + seen["INJECTION_RULES"]
    # A rule's name is the comment above it, not data the runtime carries.
    assert all("name" not in r for r in rules)
    source = _render(data)["ts-sdk/src/generated/sanitizer-rules.ts"]
    named = [line[len("  // ") :] for line in source.splitlines() if line.startswith("  // ")]
    assert named == [line_comment(r["name"]) for r in san["secrets"] + san["injection"]]
    # The triggers are in the pre-filter's searches: test_prefilter.py runs them.


def _without_context() -> dict[str, Any]:
    data = copy.deepcopy(MINIMAL)
    for spec in data["codes"].values():
        spec["context"] = []
    return data


@settings(
    max_examples=BATCHES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(catalogues(), min_size=6, max_size=6))
def test_hostile_texts_compile_and_keep_their_meaning(
    tmp_path_factory: pytest.TempPathFactory, batch: list[dict[str, Any]]
) -> None:
    # Each batch also holds a catalogue in which no code has context fields.
    batch = [*batch, _without_context()]
    seen = _compile(tmp_path_factory.mktemp("ts"), [_render(data) for data in batch])
    for data, got in zip(batch, seen, strict=True):
        _assert_same_texts(data, got)


def test_a_catalogue_without_any_context_has_no_per_code_union() -> None:
    envelope = _render(_without_context())[f"{TARGET.language.generated_dir}/envelope.ts"]
    assert "export type ErrorObject = {" in envelope
    assert "Exclude<" not in envelope


def test_a_comment_closer_in_the_api_name_stays_in_the_comment() -> None:
    data = copy.deepcopy(MINIMAL)
    data["api"]["name"] = "Evil */ API"
    envelope = _render(data)[f"{TARGET.language.generated_dir}/envelope.ts"]
    assert "Evil *\\/ API" in envelope
    assert "Evil */" not in envelope


@given(st.text())
def test_a_string_literal_is_one_line_of_printable_source(text: str) -> None:
    written = string_literal(text)
    assert written.startswith('"')
    assert written.endswith('"')
    assert len(written.splitlines()) == 1
    written.encode("utf-8")  # no lone surrogate is written as such
    assert '"' not in written[1:-1].replace('\\"', "").replace("\\\\", "")


@given(st.text())
def test_comment_text_can_neither_close_nor_break_its_comment(text: str) -> None:
    for written in (doc_text(text), line_comment(text)):
        assert len(written.splitlines()) <= 1
        written.encode("utf-8")
    assert "*/" not in doc_text(text)


@given(st.text())
def test_a_property_key_is_bare_only_when_it_is_an_identifier(text: str) -> None:
    key = property_key(text)
    assert key == text or key == string_literal(text)
    if key == text:
        assert text.isascii()
        assert text[:1].isalpha() or text[:1] in "_$"


@given(
    st.recursive(
        st.text() | st.integers() | st.booleans(),
        lambda v: st.lists(v) | st.dictionaries(st.text(), v),
    )
)
def test_a_json_literal_is_one_line_that_reads_back_as_its_value(value: Any) -> None:
    written = json_literal(value)
    assert written.startswith("'")
    assert written.endswith("'")
    assert len(written.splitlines()) == 1
    written.encode("utf-8")  # no lone surrogate is written as such
    # Undo the literal's escapes as JavaScript reads them; JSON reads the rest.
    body = written[1:-1]
    assert "'" not in body.replace("\\\\", "").replace("\\'", "")
    text = re.sub(
        r"\\(u\{[0-9a-f]+\}|u[0-9a-f]{4}|.)",
        lambda m: chr(int(m[1].strip("u{}"), 16)) if m[1][0] == "u" and len(m[1]) > 1 else m[1],
        body,
    )
    assert json.loads(text) == value
