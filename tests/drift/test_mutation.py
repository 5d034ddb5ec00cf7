"""Drift by mutation: change one fact in a copy of the catalogue, and see every artifact follow.

Each case edits a copy of catalogue/errors.yaml in a temporary directory,
generates everything from the original copy and from the edited one, and
checks that exactly the artifacts that state the fact changed, and changed to
say the new thing: the docs row, the llms.txt link, the JSON Schema, and both
SDKs' generated files (the Python ones by importing the regenerated package).
The real tree is never written.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import llms_txt
import pytest

from errcat.cli import run
from errcat.names.languages import LANGUAGES
from errcat.names.naming import class_names

REPO = Path(__file__).resolve().parents[2]
CATALOGUE = REPO / "catalogue" / "errors.yaml"
PY_GENERATED = "python-sdk/src/mitos_errors/_generated/"
TS_GENERATED = "ts-sdk/src/generated/"
DOCS, LLMS, SCHEMA = "docs/errors.md", "llms.txt", "schemas/error-envelope.schema.json"

OLD_REMEDIATION = "Confirm the sandbox id exists and is Ready before calling."
NEW_REMEDIATION = (
    "Drift probe; list the sandboxes, then call again with an id that exists"
    " (NoCapacity, NoHuskPod or ActivateFailed name why a claim never became Ready)."
)


def written_in_every_language(code: str) -> str:
    """What llms.txt says a user writes for ``code`` (no ``class_name``) in each language, from
    the records: ``Python `NotFoundError`, ..., Rust `Code::NotFound```."""
    names = class_names(code, None)
    return ", ".join(
        f"{lang.label} `{lang.written_name(names[lang.key].name)}`" for lang in LANGUAGES
    )


@dataclass(frozen=True)
class Generated:
    """A generated tree: its root and every generated file's bytes by relative path."""

    root: Path
    files: dict[str, bytes]


def generate(root: Path, catalogue_text: str) -> Generated:
    """Write ``catalogue_text`` as ROOT/catalogue/errors.yaml and generate everything under ROOT."""
    (root / "catalogue").mkdir(parents=True)
    (root / "catalogue" / "errors.yaml").write_text(catalogue_text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = run(["generate", "--out", str(root)], stdout=out, stderr=err)
    assert status == 0, f"generation failed ({status}):\n{err.getvalue()}"
    files = {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and not p.is_relative_to(root / "catalogue")
    }
    return Generated(root, files)


def edit(text: str, old: str, new: str) -> str:
    """Replace the one occurrence of ``old``; fails if the catalogue no longer has it."""
    assert text.count(old) == 1, f"the catalogue has {text.count(old)} copies of {old!r}"
    return text.replace(old, new)


def changed(before: Generated, after: Generated) -> set[str]:
    """Paths whose bytes differ (or that exist on one side only)."""
    paths = set(before.files) | set(after.files)
    return {p for p in paths if before.files.get(p) != after.files.get(p)}


def python_view(tree: Generated, tmp: Path, code: str) -> dict[str, object]:
    """Import the Python SDK with ``tree``'s generated files and report what it says of ``code``."""
    src = tmp / "pysrc"
    shutil.copytree(REPO / "python-sdk" / "src", src, ignore=shutil.ignore_patterns("__pycache__"))
    generated = src / "mitos_errors" / "_generated"
    shutil.rmtree(generated)
    generated.mkdir()
    for rel, data in tree.files.items():
        if rel.startswith(PY_GENERATED):
            (generated / rel.removeprefix(PY_GENERATED)).write_bytes(data)
    probe = (
        "import json, sys, mitos_errors as m\n"
        f"cls = m.lookup({code!r}); spec = m.code_spec({code!r})\n"
        "print(json.dumps({'class': cls.__name__, 'http': cls.http_status,"
        " 'remediation': spec.remediation, 'context': list(spec.context_fields)}))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(src), "PYTHONDONTWRITEBYTECODE": "1", "PATH": ""},
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    view: dict[str, object] = json.loads(proc.stdout)
    return view


def section(text: str, start: str) -> str:
    """The text from the line ``start`` to the next heading of the same or higher level."""
    at = text.index(start)
    level = start.split(" ", 1)[0]
    rest = text[at + len(start) :]
    ends = [rest.find(f"\n{'#' * n} ") for n in range(1, len(level) + 1)]
    ends = [e for e in ends if e >= 0]
    return rest[: min(ends)] if ends else rest


def docs_row(text: str, heading: str, code: str) -> list[str]:
    """The cells of ``code``'s row in the table under ``heading``."""
    for line in section(text, heading).splitlines():
        if line.startswith(f"| `{code}` |"):
            return [c.strip() for c in line.strip().strip("|").split(" | ")]
    raise AssertionError(f"no row for {code} under {heading}")


def ts_class_block(text: str, class_name: str) -> str:
    """The declaration of ``class_name`` in a generated TypeScript file."""
    at = text.index(f"export class {class_name} ")
    end = text.find("\n}\n", at)
    return text[at:end]


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate(tmp_path_factory.mktemp("original"), CATALOGUE.read_text(encoding="utf-8"))


def test_remediation_and_status_of_not_found(original: Generated, tmp_path: Path) -> None:
    text = edit(
        CATALOGUE.read_text(encoding="utf-8"),
        f"    remediation: {OLD_REMEDIATION}\n    http: 404\n",
        f"    remediation: {NEW_REMEDIATION}\n    http: 406\n",
    )
    mutated = generate(tmp_path / "mutated", text)
    diff = changed(original, mutated)
    for target in (DOCS, LLMS):
        assert target in diff, f"{target} did not change"
    assert any(p.startswith(PY_GENERATED) for p in diff), "no Python generated file changed"
    assert any(p.startswith(TS_GENERATED) for p in diff), "no TypeScript generated file changed"
    assert any(p.startswith("rust-sdk/") for p in diff), "no file of the Rust crate changed"
    assert SCHEMA not in diff, "the schema states neither remediation nor status, yet it changed"

    docs = mutated.files[DOCS].decode()
    row = docs_row(docs, "## Codes", "not_found")
    assert row[2] == NEW_REMEDIATION, row
    assert row[3] == "406", row
    assert OLD_REMEDIATION not in docs

    llms = mutated.files[LLMS].decode()
    link = next(
        x
        for x in llms_txt.parse_llms_file(llms).sections["Error codes"]
        if x["title"] == "not_found"
    )
    assert link["desc"].startswith(f"HTTP 406; {written_in_every_language('not_found')}. ")
    assert link["desc"].endswith(f"Next: {NEW_REMEDIATION}")

    view = python_view(mutated, tmp_path, "not_found")
    assert view["http"] == 406, view
    assert view["remediation"] == NEW_REMEDIATION, view
    assert python_view(original, tmp_path / "o", "not_found")["http"] == 404

    ts = "".join(
        data.decode() for rel, data in sorted(mutated.files.items()) if rel.startswith(TS_GENERATED)
    )
    assert NEW_REMEDIATION in ts
    assert OLD_REMEDIATION not in ts
    assert "406" in ts_class_block(ts, "NotFoundError")


def test_context_field_of_not_found(original: Generated, tmp_path: Path) -> None:
    text = CATALOGUE.read_text(encoding="utf-8")
    start = text.index("  not_found:\n")
    block_end = text.index("\n\n", start)
    block = text[start:block_end]
    assert "    context: [sandbox]\n" in block
    text = (
        text[:start]
        + block.replace("    context: [sandbox]\n", "    context: [sandbox, path]\n")
        + text[block_end:]
    )
    mutated = generate(tmp_path / "mutated", text)
    diff = changed(original, mutated)
    for target in (DOCS, SCHEMA):
        assert target in diff, f"{target} did not change"
    assert any(p.startswith(PY_GENERATED) for p in diff)
    assert any(p.startswith(TS_GENERATED) for p in diff)
    assert LLMS not in diff, "llms.txt does not list context fields, yet it changed"

    row = docs_row(mutated.files[DOCS].decode(), "## Codes", "not_found")
    assert row[5] == "`sandbox`, `path`", row

    schema = json.loads(mutated.files[SCHEMA])
    rule = next(
        r
        for r in schema["$defs"]["ErrorObject"]["allOf"]
        if r["if"]["properties"]["code"]["const"] == "not_found"
    )
    ref = rule["then"]["properties"]["context"]["$ref"].removeprefix("#/$defs/")
    assert set(schema["$defs"][ref]["properties"]) == {"sandbox", "path"}

    assert python_view(mutated, tmp_path, "not_found")["context"] == ["sandbox", "path"]
    envelope = mutated.files[TS_GENERATED + "envelope.ts"].decode()
    assert (
        "path?: string" in envelope[envelope.index("export type NotFoundContext") :].split("};")[0]
    )


def test_a_new_code_reaches_every_artifact(original: Generated, tmp_path: Path) -> None:
    text = edit(
        CATALOGUE.read_text(encoding="utf-8"),
        "codes:\n",
        "codes:\n"
        "  snapshot_corrupt:\n"
        "    message: snapshot is corrupt\n"
        "    cause: The snapshot the sandbox was forked from failed its checksum.\n"
        "    remediation: Fork from another checkpoint.\n"
        "    http: 409\n"
        "    grpc: DataLoss\n"
        "    context: [sandbox]\n"
        "    retryable: false\n"
        "    recovery:\n"
        "      action: rediscover\n"
        "      same_arguments: never\n"
        "      guidance: Pick another checkpoint.\n"
        "    side_effects: none_expected\n"
        "    origin: discovery\n\n",
    )
    mutated = generate(tmp_path / "mutated", text)
    diff = changed(original, mutated)
    assert {DOCS, LLMS, SCHEMA} <= diff
    assert "snapshot_corrupt" in json.loads(mutated.files[SCHEMA])["$defs"]["Code"]["enum"]
    assert (
        "- [snapshot_corrupt](docs/errors.md#snapshot_corrupt): HTTP 409; "
        f"{written_in_every_language('snapshot_corrupt')}. "
    ) in mutated.files[LLMS].decode()
    assert docs_row(mutated.files[DOCS].decode(), "## SDK classes", "snapshot_corrupt")[1:3] == [
        "`SnapshotCorruptError`",
        "`SnapshotCorruptError`",
    ]
    assert python_view(mutated, tmp_path, "snapshot_corrupt")["class"] == "SnapshotCorruptError"
    ts = mutated.files[TS_GENERATED + "errors.ts"].decode()
    assert "DataLoss" in ts_class_block(ts, "SnapshotCorruptError")
