"""Random valid catalogues of other APIs: each generates, checks clean, and says only its own things.

The catalogues come from :mod:`catalogue_strategies`. For each one the
generator must succeed, ``check`` must then be clean, every example in its
``docs/errors.md`` must validate against its own generated schema, the
Markdown must read back as the catalogue's text (nothing escapes its cell,
heading or code span), ``llms.txt`` must parse with the format's reference
parser and state every code (:mod:`llms_check`), and nothing generated may name a code, field or API
the catalogue lacks. Batches of catalogues are then imported with the
hand-written Python runtime (each code's example parses to its class, and
``code_for_grpc`` answers every gRPC status, on every channel, as the model's
gateway map does) and type-checked with the hand-written TypeScript runtime
(one interpreter and one tsc run per batch).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import jsonschema
import llms_check
import pytest
from catalogue_strategies import FOREIGN, FUZZ_SCALE, catalogues, to_yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from errcat.cli import run
from errcat.metaschema import meta_enum
from errcat.model.catalogue import build_model
from errcat.names.languages import LANGUAGES
from errcat.names.reserved import COMPAT_FOLDER

REPO = Path(__file__).resolve().parents[2]
TS_SDK = REPO / "ts-sdk"
TSC = TS_SDK / "node_modules" / "typescript" / "bin" / "tsc"
RUNTIME = REPO / "python-sdk" / "src" / "mitos_errors"
MARKDOWN = MarkdownIt("commonmark").enable("table")
ENVELOPE_WORDS = {
    "code",
    "message",
    "cause",
    "remediation",
    "context",
    "recovery",
    "side_effects",
    "request_id",
    "retryable",
    "error-envelope.schema.json",
    "error-envelope.strict.schema.json",
    "llms.txt",
    "catalogue.yaml",
    "code_for_grpc",
    "codeForGrpc",
    *meta_enum("origin"),
}
COUNTS = {"catalogues": 0, "python": 0, "typescript": 0, "go": 0}
"""How many catalogues each test ran, printed at the end of the session."""


def budget(examples: int) -> settings:
    """Settings of a property test that runs ``examples`` times the fuzz scale."""
    return settings(
        max_examples=examples * FUZZ_SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        derandomize=os.environ.get("CI") is not None,
    )


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def generate(data: dict[str, Any], out: Path, *targets: str) -> None:
    """Write the catalogue into ``out`` and generate from it; the run must succeed."""
    out.mkdir(parents=True, exist_ok=True)
    catalogue = out / "catalogue.yaml"
    catalogue.write_text(to_yaml(data), encoding="utf-8")
    picked = [arg for target in targets for arg in ("--target", target)]
    args = ("--catalogue", str(catalogue), "--out", str(out), *picked)
    status, _stdout, stderr = cli("generate", *args)
    assert status == 0, stderr
    status, stdout, stderr = cli("check", *args)
    assert status == 0, stdout + stderr


def flat(text: str) -> str:
    return " ".join(text.split())


def inline_text(token: Token) -> str:
    """The text a reader sees in an inline token: text and code spans, unescaped."""
    parts = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts)


def allowed_spans(data: dict[str, Any]) -> set[str]:
    """Every name a code span of the docs may hold: only the catalogue's own."""
    names = set(ENVELOPE_WORDS)
    names |= set(data["codes"]) | set(data["context_fields"]) | set(data.get("retired", {}))
    names |= {data["base_class"], data["packages"]["python"]["module"]}
    names |= {data["packages"]["typescript"]["package"]}
    rust = data["packages"].get("rust", {"crate": data["packages"]["python"]["distribution"]})
    names.add(rust["crate"])
    go = data["packages"].get("go", {"module": data["packages"]["python"]["distribution"]})
    names.add(go["module"])
    if data.get("conditions"):
        names.add("status.conditions")  # where the section's reasons show (the meta-schema's word)
    for spec in data["codes"].values():
        names |= {spec["recovery"]["action"], spec["recovery"]["same_arguments"]}
        names.add(spec["side_effects"])
    unknown = data.get("unknown_code", {})
    names |= {"inspect_and_escalate", "discouraged", "unknown"} if not unknown else set()
    if unknown:
        names |= {unknown["recovery"]["action"], unknown["recovery"]["same_arguments"]}
        names.add(unknown["side_effects"])
    return names


def check_docs(data: dict[str, Any], out: Path, classes: set[str]) -> None:
    validators = []
    for name in ("error-envelope.schema.json", "error-envelope.strict.schema.json"):
        schema = json.loads((out / "schemas" / name).read_text("utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        validators.append(jsonschema.Draft202012Validator(schema))
    text = (out / "docs" / "errors.md").read_text("utf-8")
    tokens = MARKDOWN.parse(text)
    examples = [t.content for t in tokens if t.type == "fence" and t.info == "json"]
    assert len(examples) == len(data["codes"]) + 1, "one envelope example, one per code"
    for example in examples:
        for validator in validators:
            errors = [e.message for e in validator.iter_errors(json.loads(example))]
            assert not errors, (example, errors)
    html = [t.content for t in tokens if t.type in ("html_block", "html_inline")]
    header = ("<!-- Code generated by errcat from ", "<!-- Regenerate with: ")
    assert [h.startswith(header) for h in html] == [True, True], html
    spans = {c.content for t in tokens for c in t.children or [] if c.type == "code_inline"}
    assert spans <= allowed_spans(data) | classes, spans - allowed_spans(data) - classes
    headings = [
        inline_text(tokens[i + 1])
        for i, t in enumerate(tokens)
        if t.type == "heading_open" and t.tag == "h1"
    ]
    assert headings == [f"{flat(data['api']['name'])}: error catalogue"]
    check_prose(data, text, tokens)
    rows = _table_rows(tokens, "Codes")
    for code, spec in data["codes"].items():
        if spec.get("emitted_by", "server") == "server":
            assert rows[code][1:3] == [flat(spec["cause"]), flat(spec["remediation"])], code


def check_prose(data: dict[str, Any], text: str, tokens: list[Token]) -> None:
    """Paragraphs wrap at 80 columns (a longer line is one word) and read as the catalogue's text."""
    lines = text.splitlines()
    paragraphs = []
    for i, token in enumerate(tokens):
        if token.type != "paragraph_open" or token.map is None:
            continue
        paragraphs.append(inline_text(tokens[i + 1]))
        for line in lines[token.map[0] : token.map[1]]:
            assert len(line) <= 80 or " " not in line, line
    assert flat(data["api"]["summary"]) in paragraphs
    for family in data.get("families", {}).values():
        assert flat(family["summary"]) in paragraphs, family


def _table_rows(tokens: list[Token], heading: str) -> dict[str, list[str]]:
    """The body rows of the first table after the heading, by first cell."""
    start = next(i for i, t in enumerate(tokens) if t.type == "inline" and t.content == heading)
    rows: dict[str, list[str]] = {}
    cells: list[str] = []
    for token in tokens[start:]:
        if token.type == "tbody_close":
            break
        if token.type == "tr_open":
            cells = []
        elif token.type == "inline" and cells is not None:
            cells.append(inline_text(token))
        elif token.type == "tr_close" and cells:
            rows[cells[0]] = cells
    return rows


def check_llms(data: dict[str, Any], out: Path) -> None:
    """llms.txt parses with the format's reference parser and states every code's facts."""
    text = (out / "llms.txt").read_text("utf-8")
    tokens = MARKDOWN.parse(text)
    assert not [t for t in tokens if t.type in ("html_block", "html_inline")]
    found = llms_check.problems(build_model(data, source="catalogue.yaml", regenerate="x"), out)
    assert not found, found


def check_foreign(out: Path) -> None:
    for path in out.rglob("*"):
        if not path.is_file() or path.name == "catalogue.yaml":
            continue
        text = path.read_text("utf-8").casefold()
        neutral = path.suffix in (".md", ".json", ".txt")
        words = FOREIGN if neutral else ("mitos", "sandbox", "sb-7")
        found = [word for word in words if word in text]
        assert not found, (path, found)


def classes_of(data: dict[str, Any]) -> set[str]:
    """What a user of each SDK writes for each code (its class, or its Go constant or Rust
    variant), as the model decides the class names."""
    cat = build_model(data, source="catalogue.yaml", regenerate="x")
    return {lang.written_name(c.class_names[lang.key]) for c in cat.codes for lang in LANGUAGES}


@budget(12)
@given(data=catalogues())
def test_a_random_catalogue_generates_and_says_only_its_own_things(
    data: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> None:
    out = tmp_path_factory.mktemp("cat")
    generate(data, out)
    check_docs(data, out, classes_of(data))
    check_llms(data, out)
    check_foreign(out)
    for name in ("error-envelope.schema.json", "error-envelope.strict.schema.json"):
        schema = json.loads((out / "schemas" / name).read_text("utf-8"))
        assert sorted(schema["$defs"]["Code"]["enum"]) == sorted(data["codes"])
        assert sorted(schema["$defs"]["Context"]["properties"]) == sorted(data["context_fields"])
        with_context = {code for code, spec in data["codes"].items() if spec["context"]}
        fixed = {"Code", "ErrorObject", "Context", "Recovery", "Origin"}
        assert set(schema["$defs"]) - fixed == with_context, "per-code $defs are keyed on codes"
    COUNTS["catalogues"] += 1


# One batch is imported side by side: its base classes and its modules differ.
BATCH = st.lists(
    catalogues(),
    min_size=3,
    max_size=3,
    unique_by=(lambda d: d["base_class"].lower(), lambda d: d["packages"]["python"]["module"]),
)

PYTHON_PROBE = """
import importlib, json, pickle, sys
for name, module, base, cases, grpc, sdk, ceiling in json.loads(sys.argv[1]):
    pkg = importlib.import_module(module)
    root = getattr(pkg, base)
    # The helpers of the sdk section exist exactly when their group is declared, with its codes.
    validation, deadline = sdk.get("validation"), sdk.get("exec_deadline")
    for helper, group in (("validate_timeout", validation), ("error_for_exit", deadline)):
        assert (helper in pkg.__all__) is (group is not None), (name, helper, pkg.__all__)
        assert hasattr(pkg, helper) is (group is not None), (name, helper)
    if validation is not None:
        for value, role in ((ceiling + 1, "too_large"), (0, "invalid")):
            try:
                pkg.validate_timeout(value)
            except root as exc:
                assert exc.code == validation[role] and type(exc) is pkg.lookup(exc.code), (name, exc)
            else:
                raise AssertionError((name, value))
    if deadline is not None:
        err = pkg.error_for_exit(deadline["exit_status"], stdout="out")
        assert err.code == deadline["code"] and err.context["stdout"] == "out", (name, err)
        assert pkg.error_for_exit(deadline["exit_status"] % 255 + 1) is None, name
    for number, proto_name, channel, expected in grpc:
        got = [pkg.code_for_grpc(s, channel=channel) for s in (number, str(number), proto_name)]
        assert got == [expected] * 3, (name, number, channel, got, expected)
    limit = importlib.import_module(module + "._generated.catalogue").JSON_MAX_DEPTH
    for code, status, body, parent in cases:
        # A catalogue's example nests its context, and a refines chain, below the error object:
        # with a lower depth limit the body is too deep, which the status's fallback answers.
        if limit < 3:
            continue
        err = pkg.error_from_body(json.dumps(body).encode(), status=status)
        cls = pkg.lookup(code)
        assert type(err) is cls and isinstance(err, root), (name, code, type(err))
        assert err.code == code, (name, err.code)
        assert pickle.loads(pickle.dumps(err)).to_dict() == err.to_dict()
        assert parent is None or cls.__bases__ == (pkg.lookup(parent),), (name, code)
        finer = {"error": {"code": "zz_finer", "refines": ["zz_other", code]}}
        err = pkg.error_from_body(json.dumps(finer).encode(), status=status)
        assert type(err) is cls and err.code == "zz_finer", (name, code, type(err))
        assert pickle.loads(pickle.dumps(err)).to_dict() == err.to_dict()
    bare = pkg.error_from_body(b"<html>", status=503)
    assert isinstance(bare, root), type(bare)
    unknown = pkg.error_from_body(b'{"error": {"code": "zz_not_a_code"}}', status=418)
    assert type(unknown) is root and unknown.code == "zz_not_a_code"
print("ok")
"""


def grpc_cases(data: dict[str, Any]) -> list[list[object]]:
    """Every gRPC status on no channel and on each channel, with the code the model answers."""
    gateway = build_model(data, source="catalogue.yaml", regenerate="x").grpc_gateway
    channels = [None, *(c.name for c in gateway.channels)]
    return [
        [s.number, s.proto_name, channel, gateway.code_for(s.name, channel)]
        for s in gateway.statuses
        for channel in channels
    ]


@budget(2)
@given(batch=BATCH)
def test_random_catalogues_import_with_the_python_runtime(
    batch: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = tmp_path_factory.mktemp("py")
    jobs = []
    for index, data in enumerate(batch):
        out = root / str(index)
        generate(data, out, "python", "schema", "docs")
        module = data["packages"]["python"]["module"]
        package = out / "python-sdk" / "src" / module
        src = root / "src"
        shutil.copytree(package, src / module)
        for runtime in RUNTIME.glob("*.py"):
            shutil.copy(runtime, src / module / runtime.name)
        docs = (out / "docs" / "errors.md").read_text("utf-8")
        bodies = [json.loads(t.content) for t in MARKDOWN.parse(docs) if t.info == "json"][1:]
        cases = [
            [code, data["codes"][code]["http"], body, data["codes"][code].get("refines")]
            for body in bodies
            for code in [body["error"]["code"]]
        ]
        sdk, ceiling = data.get("sdk", {}), data["limits"].get("max_exec_timeout_s")
        jobs.append([str(index), module, data["base_class"], cases, grpc_cases(data), sdk, ceiling])
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(PYTHON_PROBE), json.dumps(jobs)],
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(root / "src"), "PATH": ""},
        timeout=120,
    )
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr[-3000:]
    COUNTS["python"] += len(batch)


def _tsc() -> Path:
    if TSC.is_file() and shutil.which("node"):
        return TSC
    if os.environ.get("CI"):
        pytest.fail("TypeScript is not installed: run npm ci in ts-sdk first (nox -s tests does)")
    pytest.skip("TypeScript is not installed (npm ci in ts-sdk)")


@budget(1)
@given(batch=BATCH)
def test_random_catalogues_type_check_with_the_typescript_runtime(
    batch: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    tsc = _tsc()
    root = tmp_path_factory.mktemp("ts")
    include = []
    for index, data in enumerate(batch):
        out = root / str(index)
        generate(data, out, "typescript")
        src = root / f"project{index}" / "src"
        shutil.copytree(
            TS_SDK / "src", src, ignore=shutil.ignore_patterns("generated", COMPAT_FOLDER)
        )
        shutil.copytree(out / "ts-sdk" / "src" / "generated", src / "generated")
        include.append(f"project{index}/src")
    config = {
        "extends": (TS_SDK / "tsconfig.base.json").as_posix(),
        "compilerOptions": {"module": "NodeNext", "moduleResolution": "NodeNext", "noEmit": True},
        "include": include,
    }
    (root / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    done = subprocess.run(
        ["node", str(tsc), "-p", str(root / "tsconfig.json")],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    COUNTS["typescript"] += len(batch)


GO_PROBE = """package {package}

import (
	"errors"
	"testing"
)

// Every server code's envelope, read back, is the same error; an unknown
// code and a foreign error are written as the internal code.
func TestEveryServerCodeRoundTrips(t *testing.T) {{
	for _, c := range Codes() {{
		if spec, _ := SpecOf(string(c)); len(spec.Refines) > 0 && JSONMaxDepth < 3 {{
			continue // {{"error":{{"refines":[...]}}}} nests 3 deep: such a body is not JSON here
		}}
		e := Get(c).WithCause("a cause")
		r := e.Envelope(WriteOptions{{RequestID: "req-1"}})
		back := FromBody(r.Body, r.Status, r.Header, "")
		if back.Code != e.Code || back.Message != e.Message || back.Cause != "a cause" || back.RequestID != "req-1" {{
			t.Errorf("%s came back as %+v from %s", c, back, r.Body)
		}}
		if !errors.Is(back, c) || r.Status != e.Status {{
			t.Errorf("%s: status %d, errors.Is %v", c, r.Status, errors.Is(back, c))
		}}
	}}
	if got := ResponseFor(errors.New("secret"), WriteOptions{{}}); string(got.Body) == "" || Lookup("zz_not_a_code").Code != string(InternalCode()) {{
		t.Errorf("a foreign error is written as %s", got.Body)
	}}
}}
"""


def _go() -> str:
    go = shutil.which("go")
    if go is None:
        if os.environ.get("CI"):
            pytest.fail("Go is not installed (https://go.dev/dl/); nox -s go needs it too")
        pytest.skip("Go is not installed")
    return go


@budget(1)
@given(batch=BATCH)
def test_random_catalogues_build_vet_and_round_trip_with_the_go_runtime(
    batch: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Each catalogue's Go package, in one module (one build): gofmt-clean, vetted, its envelopes read back."""
    go = _go()
    root = tmp_path_factory.mktemp("go")
    module = root / "module"
    module.mkdir()
    (module / "go.mod").write_text("module example.com/generated\n\ngo 1.22\n", encoding="utf-8")
    for index, data in enumerate(batch):
        out = root / str(index)
        generate(data, out, "go")
        package = module / f"p{index}"
        package.mkdir()
        for source in (out / "go-sdk").glob("*.go"):
            shutil.copy(source, package / source.name)
        probe = GO_PROBE.format(package=data["packages"]["go"]["package"])
        (package / "probe_test.go").write_text(probe, encoding="utf-8")
    unformatted = subprocess.run(
        [str(Path(go).with_name("gofmt")), "-l", "."], cwd=module, capture_output=True, text=True
    )
    generated = [line for line in unformatted.stdout.split() if not line.endswith("_test.go")]
    assert generated == [], unformatted.stdout
    for command in ([go, "vet", "./..."], [go, "test", "-count=1", "./..."]):
        done = subprocess.run(
            command, cwd=module, capture_output=True, text=True, check=False, timeout=600
        )
        assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-3000:]
    COUNTS["go"] += len(batch)


def teardown_module() -> None:
    print(f"\ngenerated catalogues run: {COUNTS}", file=sys.stderr)
