"""Contract parity: every artifact names the same codes, classes, statuses and context fields.

Each artifact is read back on its own terms (contract_readers.py): the
Markdown tables of docs/errors.md, the links of llms.txt, the JSON Schema's
enum and if/then rules, the imported Python package, and the compiled
TypeScript package through a Node script. Each is compared with the
catalogue, fact by fact, and a failure lists every difference.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import contract_readers as readers
import pytest

from conformance_kit import paths
from errcat.cli import load_model
from errcat.model.catalogue import Catalogue
from errcat.render.typescript.schema_to_ts import TS_TYPES

HERE = Path(__file__).resolve().parent
TS_SCRIPT = HERE / "ts_introspect.cjs"

FACTS: dict[str, tuple[str, ...]] = {
    "docs": ("python_class", "ts_class", "http", "grpc", "context", "context_types"),
    "llms": ("python_class", "ts_class", "http"),
    "schema": ("context", "context_types"),
    "strict-schema": ("context", "context_types"),
    "python": ("python_class", "http", "grpc", "context", "context_types"),
    "typescript": ("ts_class", "http", "grpc", "context", "context_types"),
}
"""What each artifact must state about every code (and is checked on)."""


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_model(paths.CATALOGUE, paths.REPO)


@pytest.fixture(scope="module")
def truth(catalogue: Catalogue) -> readers.Contract:
    return readers.from_catalogue(catalogue)


def _typescript() -> readers.Contract:
    if paths.skip_typescript():
        pytest.skip(f"{paths.SKIP_TS_ENV}=1: the TypeScript SDK is left out of this run")
    try:
        return readers.from_typescript(paths.node_binary(), TS_SCRIPT, paths.typescript_entry())
    except paths.TypeScriptUnavailableError as exc:
        pytest.fail(str(exc), pytrace=False)


READERS: dict[str, Callable[[], readers.Contract]] = {
    "docs": lambda: readers.from_docs(paths.REPO / "docs" / "errors.md"),
    "llms": lambda: readers.from_llms(paths.REPO / "llms.txt"),
    "schema": lambda: readers.from_schema(paths.REPO / "schemas" / "error-envelope.schema.json"),
    "strict-schema": lambda: readers.from_schema(
        paths.REPO / "schemas" / "error-envelope.strict.schema.json"
    ),
    "python": readers.from_python,
    "typescript": _typescript,
}


def _type_as(artifact: str, json_type: str) -> str:
    """A catalogue type as ``artifact`` can spell it (TypeScript has no integer)."""
    return TS_TYPES[json_type] if artifact == "typescript" else json_type


def differences(truth: readers.Contract, seen: readers.Contract, artifact: str) -> list[str]:
    """Every way ``seen`` (read from ``artifact``) differs from the catalogue."""
    out = []
    missing = sorted(set(truth.codes) - set(seen.codes))
    extra = sorted(set(seen.codes) - set(truth.codes))
    if missing:
        out.append(f"codes missing: {missing}")
    if extra:
        out.append(f"codes not in the catalogue: {extra}")
    facts = FACTS[artifact]
    for code in sorted(set(truth.codes) & set(seen.codes)):
        want, got = truth.codes[code], seen.codes[code]
        for fact in ("python_class", "ts_class", "http", "grpc"):
            if fact in facts and getattr(got, fact) != getattr(want, fact):
                out.append(
                    f"{code}: {fact} is {getattr(got, fact)!r},"
                    f" catalogue says {getattr(want, fact)!r}"
                )
        if "context" in facts:
            wanted = want.context or {}
            have = got.context
            if have is None or set(have) != set(wanted):
                out.append(
                    f"{code}: context fields {sorted(have or [])}, catalogue says {sorted(wanted)}"
                )
            elif "context_types" in facts:
                for name, kind in wanted.items():
                    if kind is not None and have[name] != _type_as(artifact, kind):
                        out.append(
                            f"{code}: context field {name} has type {have[name]!r},"
                            f" catalogue says {_type_as(artifact, kind)!r}"
                        )
    if seen.base_class is not None and seen.base_class != truth.base_class:
        out.append(f"base class is {seen.base_class!r}, catalogue says {truth.base_class!r}")
    return out


@pytest.mark.parametrize("artifact", list(READERS))
def test_artifact_states_the_catalogue_contract(artifact: str, truth: readers.Contract) -> None:
    seen = READERS[artifact]()
    found = differences(truth, seen, artifact)
    assert not found, f"{seen.source} disagrees with the catalogue:\n  " + "\n  ".join(found)


@pytest.mark.parametrize("artifact", ["docs", "python", "typescript"])
def test_artifact_names_the_base_class(artifact: str, truth: readers.Contract) -> None:
    seen = READERS[artifact]()
    assert seen.base_class == truth.base_class


def test_readers_see_every_fact(truth: readers.Contract) -> None:
    """The readers are not vacuous: each reads a value for each fact it is checked on."""
    for artifact in ("docs", "llms", "schema", "strict-schema", "python"):
        seen = READERS[artifact]()
        for code in truth.codes:
            view = seen.codes.get(code)
            assert view is not None, f"{artifact} has no {code}"
            for fact in FACTS[artifact]:
                name = "context" if fact == "context_types" else fact
                assert getattr(view, name) is not None, f"{artifact} states no {fact} for {code}"


@pytest.mark.parametrize(
    ("relative", "old", "new", "artifact"),
    [
        ("docs/errors.md", "| 404 | NotFound |", "| 405 | NotFound |", "docs"),
        (
            "docs/errors.md",
            "| `not_found` | `NotFoundError` |",
            "| `not_found` | `NotFound` |",
            "docs",
        ),
        (
            "llms.txt",
            "[not_found](docs/errors.md#not_found): HTTP 404; Python `NotFoundError`",
            "[not_found](docs/errors.md#not_found): HTTP 404; Python `NotFoundErr`",
            "llms",
        ),
        (
            "llms.txt",
            "Python `NotFoundError`, TypeScript `NotFoundError`",
            "Python `NotFoundError`, TypeScript `NotFound`",
            "llms",
        ),
        (
            "schemas/error-envelope.schema.json",
            '"#/$defs/Context/properties/remaining"',
            '"#/$defs/Context/properties/dimension"',
            "schema",
        ),
    ],
    ids=["docs-http", "docs-class", "llms-class", "llms-ts-class", "schema-context"],
)
def test_a_changed_artifact_is_caught(
    tmp_path: Path, relative: str, old: str, new: str, artifact: str, truth: readers.Contract
) -> None:
    """The comparison can fail: one fact changed in a copy of an artifact is reported."""
    text = (paths.REPO / relative).read_text(encoding="utf-8")
    assert old in text, f"the fixture text {old!r} is not in {relative}; update this test"
    copy = tmp_path / Path(relative).name
    copy.write_text(text.replace(old, new, 1), encoding="utf-8")
    reader = {"docs": readers.from_docs, "llms": readers.from_llms, "schema": readers.from_schema}[
        artifact
    ]
    assert differences(truth, reader(copy), artifact)
