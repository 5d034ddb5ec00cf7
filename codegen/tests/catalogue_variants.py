"""Bad catalogues that are ``fixtures/good/minimal.yaml`` with one edit.

Each case is ``name: (old, new)``: ``old`` occurs once in the minimal
catalogue and is replaced by ``new``. What each must report is in
``fixtures/bad/expected.json`` under ``NAME.yaml``, beside the bad catalogues
that are whole files (those an edit of the minimal one cannot express).
"""

from __future__ import annotations

from pathlib import Path

from catalogue_strategies import code_yaml, minimal_code

GOOD = Path(__file__).resolve().parent / "fixtures" / "good"
MINIMAL_TEXT = (GOOD / "minimal.yaml").read_text(encoding="utf-8")

# fmt: off
VARIANTS: dict[str, tuple[str, str]] = {
    "bad_regex.yaml": ('      pattern: "[A-Za-z0-9._~+/=-]{6,}"\n', '      pattern: "[A-Za-z0-9._~+/=-{6,}"\n'),
    "bidi_cause.yaml": ('    cause: The caller sent too many requests.\n', '    cause: The caller sent too many \u202erequests.\n'),
    "blank_remediation.yaml": ('    remediation: Retry later; report the error if it persists.\n', '    remediation: "   "\n'),
    "class_case_collision.yaml": ('    grpc: Internal\n    context: []\n', '    grpc: Internal\n    context: []\n    class_name: RateLimitedERROR\n'),
    "class_is_base.yaml": ('    grpc: InvalidArgument\n    context: []\n', '    grpc: InvalidArgument\n    context: []\n    class_name: MinimalError\n'),
    "class_is_context_type.yaml": ('    grpc: InvalidArgument\n    context: []\n', '    grpc: InvalidArgument\n    context: []\n    class_name: RateLimitedContext\n'),
    "class_is_known_type.yaml": ('    grpc: InvalidArgument\n    context: []\n', '    grpc: InvalidArgument\n    context: []\n    class_name: {typescript: KnownMinimalError}\n'),
    "class_is_runtime_base.yaml": ('    grpc: InvalidArgument\n    context: []\n', '    grpc: InvalidArgument\n    context: []\n    class_name: AgentRunError\n'),
    "grpc_reason_underscore.yaml": ("  internal:\n", code_yaml("quota_", minimal_code()) + "  internal:\n"),
    "go_name_is_a_code_constant.yaml": ('  internal:\n', '  internal:\n    class_name: {go: CodeRateLimited}\n'),
    "context_undefined.yaml": ('    context: [retry_after_ms]\n', '    context: [retry_after_ms, sandbox]\n'),
    "explicit_tag.yaml": ('    http: 429\n', '    http: !!int 429\n'),
    "fallback_unknown_code.yaml": ('    "503": internal\n', '    "503": unavailable\n'),
    "family_unknown_code.yaml": ('    codes: [rate_limited]\n', '    codes: [rate_limited, quota_exceeded]\n'),
    "hex_number.yaml": ('  max_exec_timeout_s: 3600\n', '  max_exec_timeout_s: 0xE10\n'),
    "inline_flag_pattern.yaml": ('      prefix: "[Bb][Ee][Aa][Rr][Ee][Rr] +"\n', '      prefix: "(?i)bearer +"\n'),
    "line_break_text.yaml": ('    cause: An unclassified internal error occurred.\n', '    cause: |\n      An unclassified internal\n      error occurred.\n'),
    "merge_key.yaml": ('    context: []\n    retryable: true\n    recovery:\n      action: retry_later\n', '    context: []\n    retryable: true\n    recovery:\n      <<: {action: retry_later}\n'),
    "missing_remediation.yaml": ('    remediation: Retry later; report the error if it persists.\n', ''),
    "non_portable_pattern.yaml": ('      pattern: "[A-Za-z0-9._~+/=-]{6,}"\n', '      pattern: "[A-Za-z0-9._~+/=-]{6,}\\\\b"\n'),
    "lookahead_pattern.yaml": ('      pattern: "[A-Za-z0-9._~+/=-]{6,}"\n', '      pattern: "[A-Za-z0-9._~+/=-]{6,}(?=[ ])"\n'),
    "backreference_pattern.yaml": ('      pattern: "<\\\\|[A-Za-z0-9_]{1,32}\\\\|>"\n', '      pattern: "<(\\\\|)[A-Za-z0-9_]{1,32}\\\\1>"\n'),
    "side_condition_without_prefix.yaml": ('      pattern: "<\\\\|[A-Za-z0-9_]{1,32}\\\\|>"\n', '      pattern: "<\\\\|[A-Za-z0-9_]{1,32}\\\\|>"\n      followed_by: "[ ]"\n'),
    "not_after_not_a_class.yaml": ('      pattern: "[A-Za-z0-9._~+/=-]{6,}"\n', '      pattern: "[A-Za-z0-9._~+/=-]{6,}"\n      not_after: "[A-Z]+"\n'),
    "non_string_key.yaml": ('    "400": bad_request\n', '    400: bad_request\n'),
    "null_value.yaml": ('    cause: The caller sent too many requests.\n', '    cause: null\n'),
    "octal_number.yaml": ('    http: 400\n', '    http: 0400\n'),
    "python_keyword.yaml": ('    grpc: InvalidArgument\n    context: []\n', '    grpc: InvalidArgument\n    context: []\n    class_name: {python: None}\n'),
    "range_order.yaml": ('    - {first: "U+0000", last: "U+0008", name: C0 controls before tab}\n', '    - {first: "U+0008", last: "U+0000", name: C0 controls before tab}\n'),
    "range_overlap.yaml": ('    - {first: "U+0009", last: "U+000D", name: tab and line breaks}\n', '    - {first: "U+0005", last: "U+000D", name: tab and line breaks}\n'),
    "retired_in_fallback.yaml": ('    "429": rate_limited\n', '    "429": too_many_requests\n'),
    "sexagesimal.yaml": ('  default_exec_timeout_s: 30\n', '  default_exec_timeout_s: 1:30\n'),
    "special_float.yaml": ('  json_max_depth: 64\n', '  json_max_depth: .inf\n'),
    "string_integer.yaml": ('    http: 429\n', '    http: "429"\n'),
    "syntax_error.yaml": ('    context: [retry_after_ms]\n', '    context: [retry_after_ms\n'),
    "tab_indent.yaml": ('    message: rate limit exceeded\n', '   \tmessage: rate limit exceeded\n'),
    "maximum_not_ceiling.yaml": ('context_fields:\n', 'context_fields:\n  max_timeout_s:\n    type: number\n    meaning: The timeout ceiling, in seconds.\n    maximum: 86400\n'),
    "timeout_above_ceiling.yaml": ('  default_exec_timeout_s: 30\n', '  default_exec_timeout_s: 7200\n'),
    "ts_global.yaml": ('    grpc: InvalidArgument\n    context: []\n', '    grpc: InvalidArgument\n    context: []\n    class_name: {typescript: Promise}\n'),
    "unknown_code_key.yaml": ('    context: [retry_after_ms]\n    retryable: true\n', '    context: [retry_after_ms]\n    retry: true\n'),
    "unknown_grpc.yaml": ('    grpc: ResourceExhausted\n', '    grpc: ResourceExausted\n'),
    "unknown_replacement.yaml": ('    replaced_by: rate_limited\n', '    replaced_by: throttled\n'),
    "unknown_top_key.yaml": ('contract_version: 1\n', 'contract_version: 1\nrevision: 2\n'),
    "uppercase_trigger.yaml": ('      triggers: [bearer]\n', '      triggers: [Bearer]\n'),
    "wrong_container.yaml": ('    context: [retry_after_ms]\n', '    context: retry_after_ms\n'),
    "yaml11_no.yaml": ('    retryable: false\n', '    retryable: no\n'),
    "zero_width_remediation.yaml": ('    remediation: Fix the request and send it again.\n', '    remediation: Fix the request and send\u200b it again.\n'),
    "grpc_ok.yaml": ('    grpc: Internal\n', '    grpc: OK\n'),
    "marker_too_long.yaml": ('"…[truncated]"', '"' + "…" * 2048 + '"'),
    "bound_not_integer.yaml": ('    meaning: The delay, in milliseconds, to wait before retrying.\n', '    meaning: The delay, in milliseconds, to wait before retrying.\n    minimum: 0.5\n'),
    "bound_not_numeric.yaml": ('    type: integer\n    meaning: The delay, in milliseconds, to wait before retrying.\n', '    type: string\n    meaning: The delay, in milliseconds, to wait before retrying.\n    minimum: 0\n'),
    "bounds_order.yaml": ('    meaning: The delay, in milliseconds, to wait before retrying.\n', '    meaning: The delay, in milliseconds, to wait before retrying.\n    minimum: 10\n    maximum: 1\n'),
    "example_out_of_bounds.yaml": ('    meaning: The delay, in milliseconds, to wait before retrying.\n', '    meaning: The delay, in milliseconds, to wait before retrying.\n    example: -5\n    minimum: 0\n'),
    "text_too_long.yaml": ('    cause: The request was rejected.\n', '    cause: "' + "x" * 2049 + '"\n'),
    "example_type.yaml": ('    type: integer\n', '    type: integer\n    example: "1200"\n'),
    "braille_blank.yaml": ('    remediation: Fix the request and send it again.\n', '    remediation: "\u2800"\n'),
    "lookalike_code.yaml": ('  internal:\n', '  intern\u0430l:\n'),
    "key_line_break.yaml": ('    http: 400\n', '    http: 400\n    "a\\nb": 1\n'),
    "key_bidi.yaml": ('    http: 400\n', '    http: 400\n    "a\u202eb": 1\n'),
    "refines_unknown.yaml": ('    grpc: ResourceExhausted\n', '    grpc: ResourceExhausted\n    refines: bad_requst\n'),
    "refines_retired.yaml": ('    grpc: InvalidArgument\n    context: []\n', '    grpc: InvalidArgument\n    context: []\n    refines: too_many_requests\n'),
    "refines_itself.yaml": ('    grpc: ResourceExhausted\n', '    grpc: ResourceExhausted\n    refines: rate_limited\n'),
    "refines_status_class.yaml": ('    grpc: Internal\n    context: []\n', '    grpc: Internal\n    context: []\n    refines: rate_limited\n'),
    "refines_not_a_code.yaml": ('    grpc: ResourceExhausted\n', '    grpc: ResourceExhausted\n    refines: BadRequest\n'),
    "unknown_origin.yaml": ('    origin: budget\n', '    origin: bugdet\n'),
    "missing_origin.yaml": ('    origin: runtime\n', ''),
    "grpc_target_status.yaml": ('    ResourceExhausted: rate_limited\n', '    ResourceExhausted: internal\n'),
    "grpc_unknown_target.yaml": ('  default: internal\n  channels:\n', '  default: internl\n  channels:\n'),
    "grpc_ok_mapped.yaml": ('    InvalidArgument: bad_request\n', '    InvalidArgument: bad_request\n    OK: bad_request\n'),
    "grpc_unknown_status.yaml": ('        PermissionDenied:\n', '        PermisionDenied:\n'),
    "grpc_channel_target.yaml": ('          code: bad_request\n', '          code: unauthorized\n'),
    "condition_unknown_code.yaml": ('      - rate_limited\n', '      - rate_limitd\n'),
    "condition_not_in_remediation.yaml": ('      - rate_limited\n', '      - rate_limited\n      - internal\n'),
    "condition_collision.yaml": ('  QuotaHeld:\n', '  Quotaheld:\n    codes: [internal]\n    where: Account.status.conditions\n    read: Held.\n  QuotaHeld:\n'),
    "condition_lower_name.yaml": ('  QuotaHeld:\n', '  quota_held:\n'),
    "deep_nesting.yaml": ('    context: []\n    retryable: false\n', '    context: []\n    retryable: ' + "[" * 40 + "]" * 40 + '\n'),
}
# fmt: on


CYCLE = (
    ("    grpc: ResourceExhausted\n", "    grpc: ResourceExhausted\n    refines: bad_request\n"),
    (
        "    grpc: InvalidArgument\n    context: []\n",
        "    grpc: InvalidArgument\n    context: []\n    refines: rate_limited\n",
    ),
)
"""Two edits: bad_request and rate_limited refine each other."""


def edited(*edits: tuple[str, str]) -> str:
    """The minimal catalogue with each (old, new) edit applied; each old occurs once."""
    text = MINIMAL_TEXT
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text
