"""The vectors themselves: well-formed, fresh, covering the catalogue, and right.

"Right" means each expectation agrees with an independent reference
implementation of docs/sdk-contract.md (conformance_kit/reference.py). A
disagreement means the vector or the reference misreads the contract; either
way it is fixed here, before any SDK is judged against the vector.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import generate_vectors
import pytest

from conformance_kit import paths
from conformance_kit.expect import idempotence_promised, problems, texts_of
from conformance_kit.reference import Reference
from conformance_kit.vectors import (
    Vector,
    body_length,
    body_value,
    load_all,
    validate_file,
    vector_files,
)
from errcat.cli import load_model
from errcat.model.catalogue import Catalogue

ALL = load_all()
DIRECT = [v for v in ALL if v.direct]
MIN_VECTORS = 200
ISSUE_HOSTILE = (
    "html",
    "plain-text",
    "empty",
    "invalid-json",
    "list",
    "error-string",
    "non-string-code",
    "deep",
    "non-utf8",
    "huge-number",
    "nan",
    "50mb",
)
TOKEN_FORMS = ("verbatim", "url-encoded", "base64", "base64url", "basic", "zero-width")
RETRY_FORMS = ("ms", "seconds", "date-past", "context", "malformed")
CONTRACT_CASES = (
    "order",
    "idempotence",
    "hostile:redos",
    "header-repeat",
    "token:del",
    "context:fields",
    "context:keys",
    "refines",
)
"""Tags for the contract's later rules: step order, repeated headers, the context limit, the
refines walk."""


@pytest.mark.parametrize("path", vector_files(), ids=lambda p: p.name)
def test_vector_file_matches_the_schema(path: Path) -> None:
    problems_found = validate_file(json.loads(path.read_text(encoding="utf-8")))
    assert not problems_found, f"{path.name} breaks vector.schema.json:\n" + "\n".join(
        problems_found
    )


def test_vector_names_are_unique_and_there_are_enough() -> None:
    names = [v.name for v in ALL]
    assert len(names) == len(set(names))
    assert len(ALL) >= MIN_VECTORS, f"only {len(ALL)} vectors; the suite promises {MIN_VECTORS}"
    generated = [v for v in ALL if v.source == paths.GENERATED_VECTORS.name]
    assert generated, "no generated vectors"
    assert len(generated) < len(ALL), "no hand-written vectors"


def test_generated_vectors_are_fresh(catalogue: Catalogue) -> None:
    fresh = generate_vectors.render(catalogue)
    current = paths.GENERATED_VECTORS.read_text(encoding="utf-8")
    assert current == fresh, (
        f"{paths.GENERATED_VECTORS.relative_to(paths.REPO)} is stale for the catalogue;"
        f" run `{generate_vectors.COMMAND}` and commit it"
    )


def test_generated_vectors_follow_the_catalogue(tmp_path: Path) -> None:
    """A new code, a new fallback status and a new sanitizer range each get their cases."""
    text = paths.CATALOGUE.read_text(encoding="utf-8")
    text = text.replace(
        "codes:\n",
        "codes:\n"
        "  zz_new_code:\n"
        "    message: a new code\n"
        "    cause: A code added to a copy of the catalogue by the test.\n"
        "    remediation: Nothing to do; the test removes it.\n"
        "    http: 418\n"
        "    grpc: Unknown\n"
        "    context: []\n"
        "    retryable: false\n"
        "    recovery:\n"
        "      action: inspect_and_escalate\n"
        "      same_arguments: never\n"
        "      guidance: Nothing.\n"
        "    side_effects: none_expected\n"
        "    origin: runtime\n\n",
        1,
    )
    text = text.replace('    "499": canceled\n', '    "418": zz_new_code\n    "499": canceled\n', 1)
    text = text.replace(
        "  to_space:\n",
        '    - {first: "U+2800", last: "U+2800", name: braille blank}\n  to_space:\n',
        1,
    )
    copy = tmp_path / "catalogue" / "errors.yaml"
    copy.parent.mkdir()
    copy.write_text(text, encoding="utf-8")
    names = {v["name"] for v in generate_vectors.build(load_model(copy, tmp_path))["vectors"]}
    for name in (
        "code/zz_new_code/minimal",
        "code/zz_new_code/full",
        "fallback/418/empty",
        "fallback/418/html",
        "unknown-code/418",
    ):
        assert name in names, f"the generator made no {name} for the mutated catalogue"
    assert any(n.startswith("sanitize/remove/u2800-u2800-braille-blank") for n in names)


def _covered() -> set[str]:
    return {tag for v in ALL for tag in v.covers}


def test_vectors_cover_the_catalogue(catalogue: Catalogue) -> None:
    covered = _covered()
    wanted = [f"code:{c.code}" for c in catalogue.codes]
    wanted += [f"fallback:{status}" for status, _ in catalogue.fallback.by_status]
    wanted += ["fallback:4xx", "fallback:5xx", "fallback:default", "unknown-code"]
    wanted += [f"remove:{r.name}" for r in catalogue.sanitizer.remove]
    wanted += [f"to_space:{r.name}" for r in catalogue.sanitizer.to_space]
    wanted += [f"secret:{r.name}" for r in catalogue.sanitizer.secrets]
    wanted += [f"injection:{r.name}" for r in catalogue.sanitizer.injection]
    wanted += [f"context:{f.name}" for f in catalogue.used_context_fields]
    missing = [tag for tag in wanted if tag not in covered]
    assert not missing, (
        f"no vector covers {missing}; add a hand-written vector with that tag in `covers`"
        " (tests/conformance/vectors/*.json)"
    )


def test_vectors_cover_what_the_issue_lists() -> None:
    covered = _covered()
    wanted = [f"hostile:{k}" for k in ISSUE_HOSTILE]
    wanted += [f"token:{k}" for k in TOKEN_FORMS]
    wanted += [f"retry:{k}" for k in RETRY_FORMS]
    wanted += ["truncate:ascii", "truncate:two-byte", "truncate:astral", "bound", "bound:text"]
    wanted += ["depth", "context:limit", "http:drop", "http:deadline"]
    wanted += list(CONTRACT_CASES)
    missing = [tag for tag in wanted if tag not in covered]
    assert not missing, f"no vector covers {missing}"


def test_redos_vectors_are_timed() -> None:
    """Inputs shaped to make a pattern rescan a long run carry the ``fast`` invariant."""
    shaped = [v for v in ALL if "hostile:redos" in v.covers]
    assert shaped
    untimed = [v.name for v in shaped if "fast" not in v.invariants or not v.direct]
    assert not untimed, f"ReDoS-shaped vectors without the fast invariant in process: {untimed}"


def test_idempotence_is_promised_only_for_tokens_without_marker_characters(
    catalogue: Catalogue,
) -> None:
    """Section 2: the promise covers no token and tokens free of marker characters."""
    for token in (None, "", "Z9Q8W7", "Q9/0K+=", "9007199254740991"):
        assert idempotence_promised(catalogue, token), token
    for token in ("D]]zz", "abc", "[x", "x…", "REDACTED"):
        assert not idempotence_promised(catalogue, token), token
    # The contract's own example: a token made across the end of a redaction
    # is redacted by stage 3, step 3 in the same pass, so none is left visible.
    ref = Reference(catalogue)
    once = ref.sanitize("D]]zz]zz", "D]]zz")
    assert once == "[REDACTE[REDACTED]"
    assert ref.sanitize("Bearer abcdefg]zz", "D]]zz") == "Bearer [REDACTE[REDACTED]"


def test_big_bodies_are_described_not_stored() -> None:
    big = [v for v in ALL if body_length(v.body) >= 50 * 1024 * 1024]
    assert big, "a 50 MB body case exists"
    for path in vector_files():
        assert path.stat().st_size < 1024 * 1024, (
            f"{path.name} is over 1 MB: describe bodies with parts"
        )


@pytest.mark.parametrize("vector", DIRECT, ids=lambda v: v.name)
def test_expectation_agrees_with_the_reference(vector: Vector, catalogue: Catalogue) -> None:
    ref = Reference(catalogue)
    body = body_value(vector)
    started = time.perf_counter()
    result = ref.error_from_body(
        body, status=vector.status, headers=vector.headers_dict(), token=vector.token
    )
    result["elapsed_ms"] = (time.perf_counter() - started) * 1000
    result["base_instance"] = True
    # The contract's own idempotence promise, checked on the reference's results.
    result["resanitized"] = {
        where: ref.sanitize(text, vector.token) for where, text in texts_of(result)
    }
    found = problems(vector, result, catalogue)
    assert not found, (
        f"vector {vector.name} ({vector.source}) disagrees with the reference implementation of"
        " docs/sdk-contract.md: " + "; ".join(found)
    )


def test_reference_handles_http_dates() -> None:
    """The reference's own HTTP-date reading, which the date vectors rely on."""
    from datetime import UTC, datetime

    now = datetime(2026, 1, 1, tzinfo=UTC)
    ms = Reference.http_date_ms
    assert ms("Thu, 01 Jan 2026 00:00:10 GMT", now) == 10_000
    assert ms("Thursday, 01-Jan-26 00:00:10 GMT", now) == 10_000
    assert ms("Thu Jan  1 00:00:10 2026", now) == 10_000
    assert ms("Sunday, 06-Nov-94 08:49:37 GMT", now) == 0
    for bad in (
        "1.5",
        "-1",
        "soon",
        "Wed, 32 Oct 2015 07:28:00 GMT",
        "Thu, 01 Jan 2026 00:00:10 UTC",
    ):
        assert ms(bad, now) is None, bad
    assert re.fullmatch(r"[0-9]+", "١٢") is None
