"""``errcat diff`` on a table of catalogue edits: each edit, its rules, level and message.

Every case edits the base catalogue (the minimal fixture plus ``quota_exceeded``)
and states the set of rules the diff must report, the level of the first one
and a piece of its message. Neither side has a version, so the exit status is
``--fail-on``'s: 1 when a change is at sdk level or above.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from diff_support import Edit, Q, base, diff, drop, edited, put, rename, write_pair

from errcat.evolve.cover import COVERED, uncovered
from errcat.evolve.rules import RULES, Level
from errcat.metaschema import schema_text

QUOTA_RULE = {"name": "quota key", "pattern": "qk_[a-z0-9]{8,}", "triggers": ["qk_"]}
NEW_CODE = {**base()["codes"]["internal"], "message": "a new failure", "cause": "Something new."}
RETIRE_QUOTA = (drop(Q), put("retired/quota_exceeded", {"reason": "Merged into rate_limited."}))
REFINED = (put(f"{Q}/refines", "rate_limited"),)
SDK = {
    "validation": {"invalid": "bad_request", "too_large": "bad_request"},
    "exec_deadline": {"code": "internal", "exit_status": 124},
}
OLD_EDITS: dict[str, tuple[Edit, ...]] = {
    "class-moved": REFINED,
    "class-moved-out": REFINED,
    "sdk-code-changed": (put("sdk", SDK),),
    "sdk-exit-status": (put("sdk", SDK),),
    "rust-crate": (put("packages/rust", {"crate": "minimal-errors"}),),
}
"""Edits of the old side of a case, where the change needs something the base catalogue lacks."""

# One line per case, as a table reads.
# fmt: off
CASES: list[tuple[str, tuple[Edit, ...], str, str, str]] = [
    # id, edits, rules reported (first one's level and message are checked), level, message
    ("code-removed", (drop(Q),), "code-removed", "wire", "the code quota_exceeded was removed without being retired"),
    ("code-renamed", (rename(Q, "plan_quota"),), "code-renamed", "wire", "the code quota_exceeded was renamed to plan_quota"),
    ("http", (put(f"{Q}/http", 403),), "http-changed", "wire", "quota_exceeded: HTTP status changed from 429 to 403"),
    ("grpc", (put(f"{Q}/grpc", "Unavailable"),), "grpc-changed", "wire", "quota_exceeded: gRPC status changed from ResourceExhausted to Unavailable"),
    ("context-removed", (put(f"{Q}/context", ["retry_after_ms"]),), "context-field-removed constructor-changed", "wire", "quota_exceeded: the context field dimension was removed"),
    ("context-type", (put("context_fields/dimension/type", "integer"),), "context-type-changed constructor-changed", "wire", "the context field dimension changed type from string to integer (carried by quota_exceeded)"),
    ("fallback-status", (put("fallback/by_status/404", "rate_limited"),), "fallback-changed", "wire", "responses with status 404 and no envelope now fall back to rate_limited instead of bad_request"),
    ("fallback-class", (put("fallback/by_class/4xx", "rate_limited"),), "fallback-changed", "wire", "responses with status 4xx and no envelope now fall back to rate_limited"),
    ("fallback-listed", (put("fallback/by_status/418", "rate_limited"),), "fallback-changed", "wire", "status 418 and no envelope now fall back to rate_limited instead of bad_request"),
    ("grpc-gateway", (put("grpc_gateway/by_status/ResourceExhausted", "internal"), put("codes/internal/grpc", "ResourceExhausted")), "grpc-gateway-changed grpc-changed", "wire", "the gRPC status ResourceExhausted now maps to internal instead of rate_limited"),
    ("grpc-channel", (put("grpc_gateway/channels/mtls/by_status/PermissionDenied/code", "rate_limited"),), "grpc-gateway-changed", "wire", "the gRPC status PermissionDenied now maps to rate_limited instead of bad_request on the mtls channel"),
    ("grpc-gateway-added", (put("grpc_gateway", base()["grpc_gateway"]),), "grpc-gateway-added", "additive", "the gRPC gateway map was added"),
    ("sdk-code-added", (put("sdk", SDK),), "sdk-code-added sdk-code-added sdk-code-added", "additive", "sdk.validation.invalid now names bad_request"),
    ("sdk-code-changed", (put("sdk/validation/invalid", "quota_exceeded"), drop("sdk/exec_deadline")), "sdk-code-changed sdk-code-changed", "sdk", "sdk.validation.invalid changed from bad_request to quota_exceeded"),
    ("sdk-exit-status", (put("sdk/exec_deadline/exit_status", 137),), "sdk-exit-status-changed", "behaviour", "sdk.exec_deadline.exit_status changed from 124 to 137"),
    ("ceiling-lowered", (put("limits/max_exec_timeout_s", 600),), "timeout-ceiling-lowered", "wire", "limits.max_exec_timeout_s was lowered from 3600 to 600"),
    ("contract-version", (put("contract_version", 2),), "contract-version-changed", "wire", "contract_version changed from 1 to 2"),
    ("unretired", (drop("retired/too_many_requests"),), "retirement-withdrawn", "wire", "the retired code too_many_requests is no longer retired"),
    ("class-name", (put(f"{Q}/class_name", "PlanQuotaError"),), "class-renamed class-renamed class-renamed", "sdk", "quota_exceeded: the Python class was renamed from QuotaError to PlanQuotaError"),
    ("go-name", (put(f"{Q}/class_name", {"python": "QuotaError", "typescript": "QuotaError", "go": "PlanQuota", "rust": "QuotaError"}),), "class-renamed", "sdk", "quota_exceeded: the Go class was renamed from QuotaExceeded to PlanQuota"),
    ("go-constructor-added", (put("codes/internal/context", ["retry_after_ms"]),), "constructor-changed context-field-added", "sdk", "internal: the Go constructor Internal changed from () to (retryAfterMs int)"),
    ("class-name-ts", (put(f"{Q}/class_name", {"typescript": "QuotaError"}),), "class-renamed class-renamed", "sdk", "the Python class was renamed from QuotaError to QuotaExceededError"),
    ("base-class", (put("base_class", "ApiError"),), "base-class-renamed", "sdk", "base_class was renamed from MinimalError to ApiError"),
    ("distribution", (put("packages/python/distribution", "mini-errors"),), "package-renamed package-renamed", "sdk", "the Python distribution was renamed from minimal-errors to mini-errors"),
    ("module", (put("packages/python/module", "mini_errors"),), "package-renamed", "sdk", "the Python module was renamed from minimal_errors to mini_errors"),
    ("ts-package", (put("packages/typescript/package", "@mini/errors"),), "package-renamed", "sdk", "the TypeScript package was renamed from @minimal/errors to @mini/errors"),
    ("rust-crate", (put("packages/rust", {"crate": "mini-errors"}),), "package-renamed", "sdk", "the Rust crate was renamed from minimal-errors to mini-errors"),
    ("retired-export", RETIRE_QUOTA, "export-removed export-removed export-removed export-removed code-retired", "sdk", "the Python SDK no longer exports QuotaContext, QuotaError"),
    ("context-export", (put("codes/rate_limited/context", []),), "context-field-removed constructor-changed export-removed export-removed export-removed", "wire", "rate_limited: the context field retry_after_ms was removed"),
    ("retryable", (put(f"{Q}/retryable", False),), "retryable-changed", "behaviour", "quota_exceeded: retryable changed from true to false"),
    ("action", (put(f"{Q}/recovery/action", "reduce_work"),), "recovery-action-changed", "behaviour", "the recovery action changed from retry_later to reduce_work"),
    ("same-arguments", (put(f"{Q}/recovery/same_arguments", "never"),), "same-arguments-changed", "behaviour", "quota_exceeded: same_arguments changed from conditional to never"),
    ("side-effects", (put(f"{Q}/side_effects", "possible"),), "side-effects-changed", "behaviour", "quota_exceeded: side_effects changed from none_expected to possible"),
    ("origin", (put(f"{Q}/origin", "policy"),), "origin-changed", "behaviour", "quota_exceeded: the origin changed from budget to policy"),
    ("auth-failure", (put(f"{Q}/auth_failure", True),), "classifier-changed", "behaviour", "quota_exceeded: auth_failure changed from false to true"),
    ("cancelled", (put(f"{Q}/cancelled", True),), "classifier-changed", "behaviour", "quota_exceeded: cancelled changed from false to true"),
    ("emitted-by", (put(f"{Q}/emitted_by", "sdk"),), "emitted-by-changed", "behaviour", "quota_exceeded: emitted_by changed from server to sdk"),
    ("unknown-advice", (put("unknown_code", {"retryable": True, "recovery": {"action": "retry_later", "same_arguments": "discouraged", "guidance": "Treat the code as opaque: follow the message and remediation."}, "side_effects": "unknown"}),), "unknown-advice-changed unknown-advice-changed", "behaviour", "unknown_code: recovery.action changed from inspect_and_escalate to retry_later"),
    ("unknown-origin", (put("unknown_code", {"retryable": False, "recovery": {"action": "inspect_and_escalate", "same_arguments": "discouraged", "guidance": "Treat the code as opaque: follow the message and remediation."}, "side_effects": "unknown", "origin": "transport"}),), "unknown-advice-changed", "behaviour", "unknown_code: origin changed from runtime to transport"),
    ("limit", (put("limits/text_max_chars", 1024),), "limit-changed", "behaviour", "limits.text_max_chars changed from 2048 to 1024"),
    ("default-timeout", (put("limits/default_exec_timeout_s", 10),), "limit-changed", "behaviour", "limits.default_exec_timeout_s changed from 30 to 10"),
    ("redaction", (put("sanitizer/redaction", "[SECRET]"),), "sanitizer-changed", "behaviour", "sanitizer: redaction changed"),
    ("secret-rule", (lambda d: d["sanitizer"]["secrets"].append(dict(QUOTA_RULE)),), "sanitizer-changed", "behaviour", 'sanitizer: the secrets rule "quota key" was added'),
    ("code-added", (put("codes/brand_new", NEW_CODE),), "code-added", "additive", "the code brand_new was added"),
    ("context-added", (put("codes/bad_request/context", ["retry_after_ms"]), put("codes/bad_request/emitted_by", "sdk")), "emitted-by-changed context-field-added", "behaviour", "bad_request: emitted_by changed from server to sdk"),
    ("field-defined", (put("context_fields/region", {"type": "string", "meaning": "Where."}),), "context-field-defined", "additive", "the context field region was defined"),
    ("surface-added", (put(f"{Q}/surfaces/public_gateway", {"remediation": "Upgrade the plan."}),), "surface-added", "additive", "quota_exceeded: the surface override public_gateway was added"),
    ("code-retired", (put("retired/legacy_code", {"reason": "Never used."}),), "code-retired", "additive", "the code legacy_code was retired"),
    ("ceiling-raised", (put("limits/max_exec_timeout_s", 7200),), "timeout-ceiling-raised", "additive", "limits.max_exec_timeout_s was raised from 3600 to 7200"),
    ("remediation", (put(f"{Q}/remediation", "Wait for the quota window."),), "text-changed", "docs", "codes.quota_exceeded.remediation: the text changed"),
    ("guidance", (put(f"{Q}/recovery/guidance", "Wait."),), "text-changed", "docs", "codes.quota_exceeded.recovery.guidance: the text changed"),
    ("surface-text", (put(f"{Q}/surfaces/console/message", "quota used up"),), "text-changed", "docs", "codes.quota_exceeded.surfaces.console.message: the text changed"),
    ("surface-removed", (drop(f"{Q}/surfaces"),), "surface-removed", "docs", "quota_exceeded: the surface override console was removed"),
    ("condition-read", (put("conditions/QuotaHeld/read", "Wait."),), "text-changed", "docs", "conditions.QuotaHeld.read: the text changed"),
    ("api-summary", (put("api/summary", "Smaller."),), "text-changed", "docs", "api.summary: the text changed"),
    ("retired-reason", (put("retired/too_many_requests/reason", "Gone."),), "text-changed", "docs", "retired.too_many_requests.reason: the text changed"),
    ("family-codes", (put("families/throttling/codes", ["rate_limited", "quota_exceeded"]),), "family-changed", "docs", "families: throttling lists other codes"),
    ("family-added", (put("families/quota", {"title": "Quota", "summary": "Quota errors.", "codes": ["quota_exceeded"]}),), "family-changed", "docs", "families: quota was added"),
    ("reordered", (put(f"{Q}/context", ["dimension", "retry_after_ms"]),), "constructor-changed context-reordered", "sdk", "the Go constructor QuotaExceeded changed from (retryAfterMs int, dimension string) to (dimension string, retryAfterMs int)"),
    ("deprecated", (put(f"{Q}/deprecated", "Use rate_limited."),), "text-changed", "docs", "codes.quota_exceeded.deprecated: the text changed"),
    ("version-removed", (drop("version"),), "version-removed", "sdk", "the catalogue version 1.0.0 was removed"),
    ("refinement-added", REFINED, "refinement-added", "behaviour", "quota_exceeded now refines rate_limited"),
    ("class-moved", (put(f"{Q}/refines", "bad_request"),), "class-moved", "sdk", "quota_exceeded: the class moved in the hierarchy, from under rate_limited to under bad_request"),
    ("class-moved-out", (drop(f"{Q}/refines"),), "class-moved", "sdk", "from under rate_limited to under the base class"),
    ("refined-code-added", (put("codes/brand_new", {**NEW_CODE, "refines": "internal"}),), "refined-code-added", "additive", "the code brand_new was added, refining internal"),
    ("bound-added", (put("context_fields/retry_after_ms/maximum", 5000),), "context-bound-narrowed", "behaviour", "the context field retry_after_ms: maximum changed from none to 5000"),
    ("bound-raised", (put("context_fields/retry_after_ms/minimum", 10),), "context-bound-narrowed", "behaviour", "the context field retry_after_ms: minimum changed from 0 to 10"),
    ("bound-lowered", (put("context_fields/retry_after_ms/minimum", -1),), "context-bound-widened", "additive", "the context field retry_after_ms: minimum changed from 0 to -1"),
    ("bound-removed", (drop("context_fields/retry_after_ms/minimum"),), "context-bound-widened", "additive", "the context field retry_after_ms: minimum changed from 0 to none"),
    ("api-url", (put("api/url", "https://example.com/minimal"),), "text-changed", "docs", "api.url: the text changed"),
]
# fmt: on


def _parse(stdout: str) -> list[tuple[str, str, str, str]]:
    """(position, level, rule, rest) of every change line."""
    found = []
    for text in stdout.splitlines():
        position, _, tail = text.partition(": [")
        tag, _, rest = tail.partition("] ")
        level, rule = tag.split(" ")
        found.append((position, level, rule, rest))
    return found


@pytest.mark.parametrize(
    ("edits", "rules", "level", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_edit_is_classified(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    edits: tuple[Edit, ...],
    rules: str,
    level: str,
    message: str,
) -> None:
    old = edited(base(), *OLD_EDITS.get(request.node.callspec.id, ()))
    if any(rule == "version-removed" for rule in rules.split()):
        old["version"] = "1.0.0"
    if "grpc-gateway-added" in rules.split():
        del old["grpc_gateway"]
    old_path, new_path = write_pair(tmp_path, old, edited(old, *edits))
    status, stdout, stderr = diff(str(old_path), str(new_path))
    assert status != 2, stderr
    found = _parse(stdout)
    assert sorted(rule for _, _, rule, _ in found) == sorted(rules.split()), stdout
    first = next(entry for entry in found if entry[2] == rules.split()[0] and message in entry[3])
    assert first[1] == level == RULES[first[2]].level.label
    worst = max(Level[entry[1].upper()] for entry in found)
    assert status == (1 if worst >= Level.SDK else 0), stderr
    file, line, column = first[0].rsplit(":", 2)
    lines = Path(file).read_text(encoding="utf-8").splitlines()
    assert 1 <= int(line) <= len(lines)
    assert 1 <= int(column) <= len(lines[int(line) - 1]) + 1


def test_every_rule_has_a_case() -> None:
    covered = {rule for case in CASES for rule in case[2].split()}
    # unclassified-change: no key lacks a rule.
    assert sorted(set(RULES) - covered - {"unclassified-change"}) == []


def test_every_change_line_reads_what_effect_fix(tmp_path: Path) -> None:
    old = base()
    old_path, new_path = write_pair(tmp_path, old, edited(old, put(f"{Q}/http", 403)))
    _status, stdout, _stderr = diff(str(old_path), str(new_path))
    line = stdout.strip()
    new_text = new_path.read_text(encoding="utf-8").splitlines()
    number = next(i for i, text in enumerate(new_text, 1) if text.strip() == "http: 403")
    column = new_text[number - 1].index("403") + 1
    assert line == (
        f"{new_path}:{number}:{column}: [wire http-changed] quota_exceeded: HTTP status changed "
        "from 429 to 403; deployed SDKs and gateways that branch on the status see another one, "
        "and responses without an envelope fall back to another code; keep HTTP 429; add a new "
        "code for the new status instead"
    )


def test_a_removal_points_into_the_old_file(tmp_path: Path) -> None:
    old = base()
    old_path, new_path = write_pair(tmp_path, old, edited(old, drop(Q)))
    _status, stdout, _stderr = diff(str(old_path), str(new_path))
    position = stdout.split(": [")[0]
    file, line, column = position.rsplit(":", 2)
    assert file == str(old_path)
    assert old_path.read_text(encoding="utf-8").splitlines()[int(line) - 1][int(column) - 1 :] == (
        "quota_exceeded:"
    )


def test_layout_and_comments_are_no_change(tmp_path: Path) -> None:
    from diff_support import MITOS, dump, load_data

    rewritten = tmp_path / "rewritten.yaml"
    rewritten.write_text(dump(load_data(MITOS)), encoding="utf-8")
    status, stdout, stderr = diff(str(MITOS), str(rewritten))
    assert (status, stdout) == (0, ""), stderr


def _schema_paths(schema: dict[str, Any], path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every key path the meta-schema defines (``*`` for any name), down to its leaves."""
    found = []
    for key, sub in schema.get("properties", {}).items():
        found.append((*path, key))
        found += _schema_paths(sub, (*path, key))
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict) and "properties" in extra:
        found += _schema_paths(extra, (*path, "*"))
    return found


def _covered(path: tuple[str, ...]) -> bool:
    node: Any = COVERED
    for key in path:
        if node is True:
            return True
        node = node.get(key, node.get("*"))
        if node is None:
            return False
    return True


def test_every_key_of_the_meta_schema_has_a_rule() -> None:
    schema = json.loads(schema_text())
    missing = [".".join(path) for path in _schema_paths(schema) if not _covered(path)]
    assert missing == [], (
        "give errcat diff a rule for these keys, and list them in diffcover.COVERED"
    )


def test_a_change_no_rule_knows_counts_as_breaking() -> None:
    old = {"codes": {"a": {"http": 400, "aliases": "b"}}, "future": {"x": 1}}
    new = {"codes": {"a": {"http": 401, "aliases": "c"}}, "future": {"x": 1, "y": 2}}
    assert uncovered(old, new) == [("codes", "a", "aliases"), ("future",)]
    assert RULES["unclassified-change"].level is Level.WIRE


@pytest.mark.parametrize("language", ["go", "rust"])
def test_naming_a_defaulted_package_is_no_rename(tmp_path: Path, language: str) -> None:
    # An old catalogue that left a language's names to their default may come from a
    # time its SDKs had no such language: naming them is no rename anybody installed.
    old = base()
    named = old["packages"].pop(language, None) or {"crate": "named-errors"}
    new = edited(old, put(f"packages/{language}", named))
    old_path, new_path = write_pair(tmp_path, old, new)
    status, stdout, stderr = diff(str(old_path), str(new_path))
    assert (status, stdout) == (0, ""), stderr
    # Once named, a change of the name is a rename.
    renamed = edited(
        new, put(f"packages/{language}/{'module' if language == 'go' else 'crate'}", "x-y")
    )
    old_path, new_path = write_pair(tmp_path, new, renamed)
    assert "package-renamed" in diff(str(old_path), str(new_path))[1]
