"""Generated vectors of the sanitizer's character ranges and of truncation at the text cap."""

from __future__ import annotations

import json

from conformance_kit.cases import (
    Json,
    expect_code,
    expect_unknown,
    parts_text,
    vector,
)
from errcat.model.catalogue import Catalogue, CharRange


def _slug(r: CharRange) -> str:
    name = "".join(ch if ch.isalnum() else "-" for ch in r.name.lower())
    return f"u{r.first:04x}-u{r.last:04x}-" + "-".join(p for p in name.split("-") if p)


def _with_chars(r: CharRange, sep: str) -> tuple[str, str]:
    """Text holding the first and last characters of ``r``, and what it becomes."""
    if r.first == r.last:
        return f"a{chr(r.first)}b", f"a{sep}b"
    return f"a{chr(r.first)}b{chr(r.last)}c", f"a{sep}b{sep}c"


def _in_envelope(cause: str, *, ascii_only: bool) -> dict[str, Json]:
    text = json.dumps(
        {"error": {"code": "internal", "cause": cause}},
        separators=(",", ":"),
        ensure_ascii=ascii_only,
    )
    return {"text": text}


def sanitizer_range_vectors(cat: Catalogue) -> list[dict[str, Json]]:
    """One case per ``remove`` and ``to_space`` range: JSON-escaped, and raw where JSON allows."""
    out = []
    internal = cat.code("internal")
    for kind, ranges, sep in (
        ("remove", cat.sanitizer.remove, ""),
        ("to_space", cat.sanitizer.to_space, " "),
    ):
        for r in ranges:
            text, want = _with_chars(r, sep)
            verb = "deleted" if kind == "remove" else "turned into one space each"
            out.append(
                vector(
                    f"sanitize/{kind}/{_slug(r)}",
                    f"The first and last characters of the {kind} range {r.name}"
                    f" (U+{r.first:04X}-U+{r.last:04X}), as JSON escapes in the cause, are {verb}.",
                    500,
                    _in_envelope(text, ascii_only=True),
                    expect_code(cat, internal, 500, cause=want),
                    covers=[f"{kind}:{r.name}"],
                )
            )
            raw_ok = r.first >= 0x7F and not (r.first <= 0xDFFF and r.last >= 0xD800)
            if raw_ok:
                out.append(
                    vector(
                        f"sanitize/{kind}/{_slug(r)}/raw",
                        f"The same characters of {r.name} as raw UTF-8 in the body.",
                        500,
                        _in_envelope(text, ascii_only=False),
                        expect_code(cat, internal, 500, cause=want),
                        covers=[f"{kind}:{r.name}"],
                    )
                )
    return out


def truncation_vectors(cat: Catalogue) -> list[dict[str, Json]]:
    """Text at cap-1, cap and cap+1 code points, in 1-, 2-, 3- and 4-byte characters."""
    out = []
    cap = cat.limits.text_max_chars
    marker = cat.sanitizer.truncation_marker
    internal = cat.code("internal")
    units = (
        ("ascii", "x", "bytes"),
        ("two-byte", "é", "bytes"),
        ("three-byte", "語", "text"),
        ("astral", "😀", "text"),
    )
    for label, unit, mode in units:
        for delta in (-1, 0, 1):
            n = cap + delta
            if n <= cap:
                want: Json = parts_text({"repeat": unit, "times": n})
            else:
                want = parts_text({"repeat": unit, "times": cap - len(marker)}, marker)
            out.append(
                vector(
                    f"truncate/{label}/cap{delta:+d}".replace("+0", ""),
                    f"A cause of {n} {label} characters (cap {cap} code points, body as {mode}):"
                    + (
                        " kept whole."
                        if n <= cap
                        else f" cut to {cap - len(marker)} code points"
                        f" and the marker, exactly {cap} long."
                    ),
                    500,
                    {
                        "as": mode,
                        "parts": [
                            '{"error":{"code":"internal","cause":"',
                            {"repeat": unit, "times": n},
                            '"}}',
                        ],
                    },
                    expect_code(cat, internal, 500, cause=want),
                    covers=["truncate", f"truncate:{label}"],
                )
            )
    return out + _truncated_code_and_context(cat)


def _truncated_code_and_context(cat: Catalogue) -> list[dict[str, Json]]:
    """A code, a context key and a context string of cap+1 characters."""
    out = []
    cap = cat.limits.text_max_chars
    marker = cat.sanitizer.truncation_marker
    internal = cat.code("internal")
    long_code = parts_text({"repeat": "x", "times": cap - len(marker)}, marker)
    out.append(
        vector(
            "truncate/code",
            "A code of cap+1 characters is unknown; it is kept as sent, sanitized, so it is"
            " truncated like any text.",
            500,
            {"parts": ['{"error":{"code":"', {"repeat": "x", "times": cap + 1}, '"}}']},
            {**expect_unknown(cat, "", 500, {}), "code": long_code},
            covers=["truncate", "unknown-code"],
        )
    )
    out.append(
        vector(
            "truncate/context",
            f"A context string of cap+1 characters is truncated under a key of exactly {cap}"
            " characters, which sanitizing leaves as it is; a key of cap+1 characters is changed"
            " by the cap, so its member is dropped.",
            500,
            {
                "parts": [
                    '{"error":{"code":"internal","context":{"',
                    {"repeat": "k", "times": cap},
                    '":"',
                    {"repeat": "v", "times": cap + 1},
                    '","',
                    {"repeat": "j", "times": cap + 1},
                    '":"x"}}}',
                ]
            },
            expect_code(
                cat,
                internal,
                500,
                context={"k" * cap: "v" * (cap - len(marker)) + marker},
            ),
            covers=["truncate", "context:truncate"],
        )
    )
    return out


# Secrets glued together, with no separator (contract section 2): a cover's end
# is where the stretch after it begins, so a rule whose lookbehind or prefix reads
# across it still finds its secret on the first pass, and a second pass finds nothing.
_GLUED = (
    ("aws-key-then-jwt", "AKIAABCDEFGHIJKLMNOPeyJhbGciOi.eyJzdWIiOi.sig"),
    ("aws-key-then-url", "0AKIAABCDEFGHIJKLMNOPhttps://u:p@h"),
    ("key-as-url-scheme", "sk-aaaaaaaaaaaaaaaaaaaa://sk-https://u:p@h"),
    ("jwt-then-url", "AKIAABCDEFGHIJKLMNOPeyJhbGciOi.eyJzdWIiOi.sig://u:pw@h"),
    ("assignment-in-url", "a://u:token=ab/cd,x@h"),
    ("marker-in-url", "a://u:pptoken=@abcd,x@h"),
    ("filtered-in-url", "a://x:ignore previous instructions@h"),
    ("redacted-in-url", "a://u:ab[REDACTED]cd@h"),
    ("github-then-slack", "ghp_aaaaaaaaaaaaaaaaaaaaaaaaxoxb-1234567890"),
    ("bearer-then-key", "bearer AKIAABCDEFGHIJKLMNOPsk-aaaaaaaaaaaaaaaaaaaa"),
)


def glued_vectors(cat: Catalogue) -> list[dict[str, Json]]:
    """Secrets glued together, each text and the text its first pass gives.

    The expectation is the reference's, for the text and for the result of
    its first pass, which must be the same: sanitizing is idempotent.
    """
    from conformance_kit.reference import Reference

    ref = Reference(cat)
    internal = cat.code("internal")
    out = []
    for name, text in _GLUED:
        once = ref.sanitize(text)
        for label, cause in (("first-pass", text), ("second-pass", once)):
            out.append(
                vector(
                    f"sanitize/union/glued/{name}/{label}",
                    f"A cover's end begins a stretch of its own, so a secret glued to another is found"
                    f" on the first pass ({label.replace('-', ' ')} of {text!r}).",
                    500,
                    _in_envelope(cause, ascii_only=True),
                    expect_code(cat, internal, 500, cause=once),
                    covers=["sanitize:union"],
                )
            )
    return out
