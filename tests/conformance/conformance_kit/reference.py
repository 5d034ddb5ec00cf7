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

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from conformance_kit.reference_headers import HeaderReference, Headers
from conformance_kit.reference_text import SanitizerReference
from errcat.model.catalogue import ErrorCode
from errcat.model.refines import MAX_CHAIN

JSON_WHITESPACE = " \t\n\r"
MAX_SAFE = 2**53 - 1

Json = Any


@dataclass(frozen=True)
class Reference(HeaderReference, SanitizerReference):
    """The contract's algorithm over one catalogue (section 2 in :mod:`conformance_kit.reference_text`)."""

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

    def code_for_grpc(self, status: Json, channel: str | None = None) -> str:
        """``code_for_grpc``: the catalogue's gRPC gateway map (docs/sdk-contract.md, gRPC).

        A status is its number (an integer, or a float of integral value, or
        its decimal text) or its name in either spelling; the channel's
        answers come first; anything else gets the map's default.
        """
        gateway = self.cat.grpc_gateway
        names: dict[Json, str] = {}
        for s in gateway.statuses:
            names.update(
                {s.number: s.name, str(s.number): s.name, s.name: s.name, s.proto_name: s.name}
            )
        if isinstance(status, float) and status.is_integer():
            status = int(status)
        known = isinstance(status, int | str) and not isinstance(status, bool)
        name = names.get(status) if known else None
        return gateway.default if name is None else gateway.code_for(name, channel)

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
                "origin": unknown.origin,
                "http_status": None,
                "grpc_status": None,
            }
        return {
            "class": entry.class_names["python"],
            "retryable": entry.retryable,
            "is_auth_failure": entry.auth_failure,
            "is_cancelled": entry.cancelled,
            "recovery": {
                "action": entry.recovery.action,
                "same_arguments": entry.recovery.same_arguments,
                "guidance": entry.recovery.guidance,
            },
            "side_effects": entry.side_effects,
            "origin": entry.origin,
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
