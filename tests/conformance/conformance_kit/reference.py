"""The reference implementation of docs/sdk-contract.md, sections 1 and 2, over any catalogue.

Written from the contract and the catalogue model only, never from an SDK,
with nothing skipped and nothing cached: every rule runs on every text and
every field is sanitized on its own. It is the one oracle of the contract in
Python: the vectors' expectations are checked against it (so a vector that
misreads the contract, or a reference that does, fails before any SDK is
blamed), the vector generator takes its rules from it, and the Python SDK's
own tests hold its fast paths to it on random input.
"""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from conformance_kit.reference_headers import HeaderReference, Headers
from errcat.model import Catalogue, CharRange, ErrorCode, TextRule
from errcat.refines import MAX_CHAIN

JSON_WHITESPACE = " \t\n\r"
MAX_SAFE = 2**53 - 1
UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

Json = Any


def _char_class(ranges: tuple[CharRange, ...]) -> re.Pattern[str]:
    """A regex matching one character of any of ``ranges`` (never matching when there are none)."""
    inner = "".join(f"\\U{r.first:08x}-\\U{r.last:08x}" for r in ranges)
    return re.compile(f"[{inner}]" if inner else "(?!)")


@dataclass(frozen=True)
class Reference(HeaderReference):
    """The contract's algorithm over one catalogue."""

    cat: Catalogue

    # -- section 2: sanitizing -------------------------------------------------

    @cached_property
    def _removed(self) -> re.Pattern[str]:
        return _char_class(self.cat.sanitizer.remove)

    @cached_property
    def _spaced(self) -> re.Pattern[str]:
        return _char_class(self.cat.sanitizer.to_space)

    def strip(self, text: str) -> str:
        """Step 1: delete the ``remove`` characters, turn ``to_space`` ones into a space."""
        return self._spaced.sub(" ", self._removed.sub("", text))

    def token_forms(self, token: str | bytes | None) -> list[str]:
        """Step 4: the forms of the caller's token to replace, longest first (bytes read as UTF-8)."""
        san = self.cat.sanitizer
        if isinstance(token, bytes):
            token = token.decode("utf-8", "replace")
        if not token:
            return []
        clean = self.strip(token)
        raw = clean.encode("utf-8")
        upper = "".join(chr(b) if b in UNRESERVED else f"%{b:02X}" for b in raw)
        lower = "".join(chr(b) if b in UNRESERVED else f"%{b:02x}" for b in raw)
        b64 = base64.b64encode(raw).decode("ascii").rstrip("=")
        b64url = base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")
        markers = (san.redaction, san.filtered, san.truncation_marker)
        forms = []
        for form in (clean, upper, lower, b64, b64url):
            if not form or form in forms or any(form in marker for marker in markers):
                continue
            forms.append(form)
        return sorted(forms, key=len, reverse=True)

    @staticmethod
    def scan(pattern: str, text: str) -> list[tuple[int, int]]:
        """The ordinary global scan: every non-empty match, each starting where the last ended.

        An empty match covers nothing, and the scan goes on one code point further.
        """
        compiled = re.compile(pattern)
        spans = []
        pos = 0
        while pos <= len(text):
            m = compiled.search(text, pos)
            if m is None:
                break
            if m.end() == m.start():
                pos = m.start() + 1
            else:
                spans.append((m.start(), m.end()))
                pos = m.end()
        return spans

    def rule_covers(self, rule: TextRule, text: str) -> list[tuple[int, int]]:
        """Stage 2: the covers of one rule on ``text``.

        Without a prefix, every match of the pattern. With one, the pattern
        anchored at the end of each prefix match, on the text cut where the
        next prefix match starts (the pattern part only).
        """
        if not rule.prefix:
            return self.scan(rule.pattern, text)
        pattern = re.compile(rule.pattern)
        marks = self.scan(rule.prefix, text)
        covers = []
        for i, (_start, end) in enumerate(marks):
            cut = marks[i + 1][0] if i + 1 < len(marks) else len(text)
            m = pattern.match(text, end, cut)
            if m is not None and m.end() > m.start():
                covers.append((m.start(), m.end()))
        return covers

    @staticmethod
    def form_covers(form: str, text: str) -> list[tuple[int, int]]:
        """Every occurrence of a token form, overlapping ones too."""
        return [
            (i, i + len(form)) for i in range(len(text) - len(form) + 1) if text.startswith(form, i)
        ]

    @staticmethod
    def replace_covers(text: str, covers: list[tuple[int, int]], marker: str) -> str:
        """Each group of covers that share a position (transitively) as one ``marker``.

        Covers that only touch (one ends where the next starts) are separate groups.
        """
        groups: list[list[int]] = []
        for start, end in sorted(covers):
            if groups and start < groups[-1][1]:
                groups[-1][1] = max(groups[-1][1], end)
            else:
                groups.append([start, end])
        out = []
        pos = 0
        for start, end in groups:
            out.append(text[pos:start] + marker)
            pos = end
        out.append(text[pos:])
        return "".join(out)

    def hide(
        self, text: str, rules: tuple[TextRule, ...], forms: list[str], marker: str
    ) -> list[tuple[int, int]]:
        """Stage 2: the covers of ``rules`` and ``forms`` on ``text``, stretch by stretch.

        Every occurrence of a form is a cover. The rules are read on each
        stretch between the occurrences of the step's ``marker``, as a text
        of its own, then on each stretch left between those and the covers
        found so far that was not read yet, until no stretch is left unread.
        """
        barrier = [False] * len(text)
        at = text.find(marker) if marker else -1
        while at != -1:
            barrier[at : at + len(marker)] = [True] * len(marker)
            at = text.find(marker, at + len(marker))
        covers = [c for form in forms for c in self.form_covers(form, text)]
        hidden = list(barrier)
        read: set[tuple[int, int]] = set()
        while True:
            runs = [run for run in self.runs(hidden) if run not in read]
            if not runs:
                return covers
            for start, end in runs:
                read.add((start, end))
                piece = text[start:end]
                covers += [
                    (start + a, start + b)
                    for rule in rules
                    for a, b in self.rule_covers(rule, piece)
                ]
            hidden = list(barrier)
            for start, end in covers:
                hidden[start:end] = [True] * (end - start)

    @staticmethod
    def runs(hidden: list[bool]) -> list[tuple[int, int]]:
        """The maximal non-empty runs of positions that are not hidden."""
        out = []
        start = None
        for i, h in enumerate([*hidden, True]):
            if not h and start is None:
                start = i
            elif h and start is not None:
                out.append((start, i))
                start = None
        return out

    def sanitize(self, text: str, token: str | bytes | None = None) -> str:
        """``sanitize_text``: section 2 of the contract.

        Stage 1 on the characters; then the injection markers' covers on
        that text become ``filtered``; then the covers of every secret rule
        and every token form, all on the same text, become ``redaction``;
        then, if that replaced anything, every form is replaced once more;
        then the length cap. Every rule runs on every text (no trigger shortcut).
        """
        san = self.cat.sanitizer
        text = self.strip(text)
        text = self.replace_covers(
            text, self.hide(text, san.injection, [], san.filtered), san.filtered
        )
        forms = self.token_forms(token)
        secrets = self.hide(text, san.secrets, forms, san.redaction)
        text = self.replace_covers(text, secrets, san.redaction)
        if secrets:
            for form in forms:
                text = text.replace(form, san.redaction)
        cap = self.cat.limits.text_max_chars
        if len(text) > cap:
            text = text[: cap - len(san.truncation_marker)] + san.truncation_marker
        return text

    # -- section 1: from a response to an error --------------------------------

    def bound(self, body: bytes | str) -> bytes:
        """Step 1: the first ``error_body_max_bytes`` bytes.

        A string is first encoded as UTF-8, each lone surrogate as U+FFFD.
        """
        if isinstance(body, str):
            body = body.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
            body = body.encode("utf-8")
        return body[: self.cat.limits.error_body_max_bytes]

    @staticmethod
    def decode(data: bytes) -> str:
        """Step 2: UTF-8 with U+FFFD for each invalid sequence, one leading BOM dropped."""
        text = data.decode("utf-8", "replace")
        return text[1:] if text.startswith("\ufeff") else text

    def too_deep(self, text: str) -> bool:
        """True when arrays and objects nest deeper than ``json_max_depth`` (strings skipped)."""
        depth = 0
        in_string = escaped = False
        for ch in text:
            if in_string:
                if escaped:
                    escaped = False
                elif ch == "\\":
                    escaped = True
                elif ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch in "[{":
                depth += 1
                if depth > self.cat.limits.json_max_depth:
                    return True
            elif ch in "]}":
                depth -= 1
        return False

    def parse(self, text: str) -> Json:
        """Step 3: the JSON value, or ``None`` when the body is not a JSON object."""
        if not text.lstrip(JSON_WHITESPACE).startswith("{") or self.too_deep(text):
            return None

        def reject(name: str) -> Json:
            raise ValueError(f"{name} is not JSON")

        try:
            return json.loads(text, parse_int=float, parse_float=float, parse_constant=reject)
        except (ValueError, RecursionError):
            return None

    def fallback(self, status: int) -> ErrorCode:
        """Step 5 without an envelope: exact status, then its class, then the default."""
        fb = self.cat.fallback
        for known, code in fb.by_status:
            if known == status:
                return self.cat.code(code)
        if 400 <= status <= 499:
            return self.cat.code(fb.client_error)
        if 500 <= status <= 599:
            return self.cat.code(fb.server_error)
        return self.cat.code(fb.default)

    def refined(self, chain: Json) -> ErrorCode | None:
        """Step 5 for an unknown code: the first catalogue code of the ``refines`` chain.

        Only a list is a chain; its first ``MAX_CHAIN`` entries are read, and an
        entry that is not a string naming a catalogue code is skipped.
        """
        if not isinstance(chain, list):
            return None
        known = {c.code: c for c in self.cat.codes}
        for entry in chain[:MAX_CHAIN]:
            if isinstance(entry, str) and entry in known:
                return known[entry]
        return None

    def context_value(self, value: Json, token: str | bytes | None) -> tuple[bool, Json]:
        """Whether a context value is kept, and as what."""
        if isinstance(value, str):
            return True, self.sanitize(value, token)
        if value is None or isinstance(value, bool):
            return True, value
        if isinstance(value, float):
            if not math.isfinite(value):
                return False, None
            if value.is_integer():
                if abs(value) > MAX_SAFE:
                    return False, None
                return True, int(value)
            return True, value
        return False, None

    def key_kept(self, key: str, token: str | bytes | None) -> bool:
        """True when a context key survives: not empty and not changed by sanitizing."""
        return bool(key) and self.sanitize(key, token) == key

    def context(self, raw: Json, token: str | bytes | None) -> dict[str, Json]:
        """The context: its members (only catalogue fields past the limit), clean keys only.

        An object with more than ``context_max_keys`` members (counted before
        anything is dropped) keeps only the members named in ``context_fields``.
        A member whose key is empty or is changed by sanitizing is dropped; the
        values are sanitized or dropped as :meth:`context_value` says. Key order
        is not part of the contract.
        """
        if not isinstance(raw, dict):
            return {}
        members = list(raw.items())
        if len(members) > self.cat.limits.context_max_keys:
            fields = {f.name for f in self.cat.context_fields}
            members = [(key, value) for key, value in members if key in fields]
        out: dict[str, Json] = {}
        for key, value in members:
            if not self.key_kept(key, token):
                continue
            keep, kept = self.context_value(value, token)
            if keep:
                out[key] = kept
        return out

    def classify(self, entry: ErrorCode | None) -> dict[str, Json]:
        """Step 7: the classification of a catalogue code, or the catch-all of an unknown one."""
        if entry is None:
            unknown = self.cat.unknown
            return {
                "class": self.cat.base_class,
                "retryable": unknown.retryable,
                "is_auth_failure": False,
                "is_cancelled": False,
                "recovery": {
                    "action": unknown.recovery.action,
                    "same_arguments": unknown.recovery.same_arguments,
                    "guidance": unknown.recovery.guidance,
                },
                "side_effects": unknown.side_effects,
                "http_status": None,
                "grpc_status": None,
            }
        return {
            "class": entry.python_class,
            "retryable": entry.retryable,
            "is_auth_failure": entry.auth_failure,
            "is_cancelled": entry.cancelled,
            "recovery": {
                "action": entry.recovery.action,
                "same_arguments": entry.recovery.same_arguments,
                "guidance": entry.recovery.guidance,
            },
            "side_effects": entry.side_effects,
            "http_status": entry.http,
            "grpc_status": entry.grpc,
        }

    def error_from_body(
        self,
        body: bytes | str,
        *,
        status: int,
        headers: Headers | None = None,
        token: str | bytes | None = None,
        now: datetime | None = None,
    ) -> dict[str, Json]:
        """The whole of section 1: the fields of the error a response gives."""
        pairs = list(headers.items() if isinstance(headers, Mapping) else headers or ())
        now = now or datetime.now(UTC)
        doc = self.parse(self.decode(self.bound(body)))
        error = doc.get("error") if isinstance(doc, dict) else None
        code: str | None = None
        if isinstance(error, dict) and isinstance(error.get("code"), str):
            code = self.sanitize(error["code"], token) or None
        known = {c.code: c for c in self.cat.codes}
        fallback = self.fallback(status)
        if code is None or not isinstance(error, dict):
            entry: ErrorCode | None = fallback
            result: dict[str, Json] = {
                "code": fallback.code,
                "message": fallback.message,
                "cause": fallback.cause,
                "remediation": fallback.remediation,
                "context": {},
            }
            context: dict[str, Json] = {}
        else:
            entry = known.get(code) or self.refined(error.get("refines"))
            defaults = entry or fallback
            result = {"code": code}
            for name in ("message", "cause", "remediation"):
                value = error.get(name)
                clean = self.sanitize(value, token) if isinstance(value, str) else ""
                result[name] = clean or getattr(defaults, name)
            context = self.context(error.get("context"), token)
            result["context"] = context
        result["status"] = status
        header = self.header(pairs, "x-request-id")
        request_id = self.sanitize(header, token) if header is not None else ""
        if not request_id and isinstance(error, dict) and code is not None:
            member = error.get("request_id")
            request_id = self.sanitize(member, token) if isinstance(member, str) else ""
        result["request_id"] = request_id or None
        result["retry_after_ms"] = self.retry_after(context, pairs, now)
        result.update(self.classify(entry))
        return result
