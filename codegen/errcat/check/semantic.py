"""The semantic rules of a catalogue: what the meta-schema cannot say.

Codes and class names are unique (also once case and separators are
ignored) and legal in both languages; every name a code, the fallback map, a
family or a retired entry refers to exists; retired codes stay retired;
limits are consistent, and with the context fields they bound. Each rule has its own id; every problem names the
value and a concrete fix. The rules on single texts and values live in
:mod:`errcat.check.values`, the sanitizer's in :mod:`errcat.check.patterns`.
"""

from __future__ import annotations

from typing import Any

from errcat.check import classnames, values
from errcat.model import conditions, grpc
from errcat.names import naming
from errcat.problems import Problem
from errcat.source.document import Checker, Document, KeyPath, as_mapping
from errcat.wording import close_match, describe_char, listing, quoted, snake_suggestion

REQUIRED_STATUSES = (
    "400",
    "401",
    "403",
    "404",
    "408",
    "409",
    "410",
    "413",
    "429",
    "499",
    "500",
    "502",
    "503",
    "504",
)
"""Statuses the fallback map must name explicitly."""

CEILING_FIELDS = ("max_timeout_s", "timeout_s")
"""Context fields whose values the timeout ceiling ``limits.max_exec_timeout_s`` bounds.

``max_timeout_s`` is that ceiling (``validate_timeout`` puts it in the context),
``timeout_s`` a deadline within it; a ``maximum`` of either must be the ceiling.
"""


class _Checker(Checker):
    def __init__(self, doc: Document, rejected: set[KeyPath]) -> None:
        super().__init__(doc, rejected)
        self.codes = as_mapping(self.data.get("codes"))
        self.retired = as_mapping(self.data.get("retired"))
        self.collided: set[str] = set()

    def line(self, path: KeyPath) -> int:
        return self.doc.key_mark(path)[0]

    # -- codes ----------------------------------------------------------------

    def code_names(self) -> dict[str, dict[str, Any]]:
        """Check code names; return the codes whose name and entry are usable."""
        usable: dict[str, dict[str, Any]] = {}
        folded: dict[str, str] = {}
        for code, spec in self.codes.items():
            path = ("codes", code)
            good = bool(naming.CODE_RE.match(code))
            if not good:
                strange = [c for c in code if not c.isascii()]
                what = (
                    f"contains the non-ASCII character {describe_char(strange[0])}"
                    if strange
                    else "is not lower snake_case (a-z, 0-9 and _, starting with a letter)"
                )
                guess = snake_suggestion(code)
                self.add(
                    path,
                    "code-name",
                    f"the code {quoted(code)} {what}; codes are lower snake_case ASCII",
                    f"rename it to {quoted(guess)}"
                    if guess and guess not in self.codes
                    else "rename it to a lower snake_case ASCII name (a-z, 0-9 and _)",
                    at_key=True,
                )
            key = naming.fold(code)
            if key in folded:
                first = folded[key]
                self.collided.add(code)
                self.add(
                    path,
                    "code-collision",
                    f"the code {quoted(code)} is the code {quoted(first)} (line "
                    f"{self.line(('codes', first))}) once case and separators are ignored",
                    f"remove one of the two, or rename {quoted(code)} to a distinct code",
                    at_key=True,
                )
            else:
                folded[key] = code
            if good and isinstance(spec, dict) and self.ok(path):
                usable[code] = spec
        return usable

    def retired_codes(self) -> None:
        folded = {naming.fold(code): code for code in self.retired}
        for code in self.codes:
            old = code if code in self.retired else folded.get(naming.fold(code))
            if old is None:
                continue
            entry = as_mapping(self.retired.get(old))
            reason = entry.get("reason", "no reason given")
            spelled = (
                "" if old == code else f" (the retired code {quoted(old)} spelled differently)"
            )
            replaced = entry.get("replaced_by")
            fix = f"remove {quoted(code)} from codes"
            if isinstance(replaced, str):
                fix += f" and use {quoted(replaced)} instead"
            self.add(
                ("codes", code),
                "retired-reintroduced",
                f"the code {quoted(code)} was retired{spelled} and may never be reintroduced: "
                f"{reason}",
                fix,
                at_key=True,
            )
        for code, entry in self.retired.items():
            path = ("retired", code, "replaced_by")
            target = as_mapping(entry).get("replaced_by")
            if isinstance(target, str) and self.ok(path) and target not in self.codes:
                state = (
                    "itself retired" if target in self.retired else "not a code of this catalogue"
                )
                self.add(
                    path,
                    "unknown-replacement",
                    f"replaced_by names {quoted(target)}, which is {state}",
                    "name a current code defined under codes, or remove replaced_by",
                )

    def reference(self, path: KeyPath, target: Any, rule: str, where: str) -> None:
        """Check that ``target`` (at ``path``) names a current code."""
        if not isinstance(target, str) or not self.ok(path) or target in self.codes:
            return
        if target in self.retired:
            reason = as_mapping(self.retired[target]).get("reason", "")
            self.add(
                path,
                "retired-code-referenced",
                f"{quoted(target)} is a retired code ({reason}); {where} must name current codes",
                f"replace {quoted(target)} with a current code",
            )
            return
        guess = close_match(target, (c for c in self.codes if naming.CODE_RE.match(c)))
        self.add(
            path,
            rule,
            f"{quoted(target)} is not a code of this catalogue",
            f"write {quoted(guess)}"
            if guess
            else f"name a code defined under codes, or define {target} there",
        )

    # -- references -----------------------------------------------------------

    def context(self) -> None:
        fields = as_mapping(self.data.get("context_fields"))
        for code, spec in self.codes.items():
            items = as_mapping(spec).get("context")
            for index, name in enumerate(items if isinstance(items, list) else []):
                path = ("codes", code, "context", index)
                if not isinstance(name, str) or name in fields or not self.ok(path):
                    continue
                guess = close_match(name, fields)
                self.add(
                    path,
                    "undefined-context-field",
                    f"the context field {quoted(name)} is not defined under context_fields",
                    f"write {quoted(guess)}"
                    if guess
                    else f"define {name} under context_fields, or remove it from this list",
                )

    def fallback(self) -> None:
        fallback = as_mapping(self.data.get("fallback"))
        by_status = fallback.get("by_status")
        if isinstance(by_status, dict) and self.ok(("fallback", "by_status")):
            for status, target in by_status.items():
                path = ("fallback", "by_status", status)
                if not self.ok(path):
                    continue
                if not (status.isascii() and status.isdigit() and 100 <= int(status) <= 599):
                    self.add(
                        path,
                        "invalid-status",
                        f"{quoted(status)} is not an HTTP status from 100 to 599",
                        'write a status such as "503"',
                        at_key=True,
                    )
                self.reference(path, target, "unknown-fallback-target", "the fallback map")
            missing = [s for s in REQUIRED_STATUSES if s not in by_status]
            if missing:
                self.add(
                    ("fallback", "by_status"),
                    "missing-fallback-status",
                    f"no entry for {listing(missing)}; the fallback map must name "
                    f"{listing(REQUIRED_STATUSES)}",
                    f'add "{missing[0]}": <code>'
                    + (" (and the other missing statuses)" if len(missing) > 1 else "")
                    + " under fallback.by_status",
                    at_key=True,
                )
        for key, target in as_mapping(fallback.get("by_class")).items():
            where: KeyPath = ("fallback", "by_class", key)
            self.reference(where, target, "unknown-fallback-target", "the fallback map")
        where = ("fallback", "default")
        self.reference(
            where, fallback.get("default"), "unknown-fallback-target", "the fallback map"
        )

    def families(self) -> None:
        for family, entry in as_mapping(self.data.get("families")).items():
            codes = as_mapping(entry).get("codes")
            for index, code in enumerate(codes if isinstance(codes, list) else []):
                path = ("families", family, "codes", index)
                self.reference(path, code, "unknown-family-code", "a family")

    def limits(self) -> None:
        limits = as_mapping(self.data.get("limits"))
        ceiling = limits.get("max_exec_timeout_s")
        if not isinstance(ceiling, int) or not self.ok(("limits", "max_exec_timeout_s")):
            return
        for key in ("default_exec_timeout_s", "default_run_code_timeout_s"):
            value = limits.get(key)
            path = ("limits", key)
            if isinstance(value, int) and self.ok(path) and value > ceiling:
                self.add(
                    path,
                    "timeout-above-ceiling",
                    f"{value} is above the ceiling limits.max_exec_timeout_s ({ceiling})",
                    f"lower it to {ceiling} or less, or raise max_exec_timeout_s",
                )
        fields = as_mapping(self.data.get("context_fields"))
        for name in CEILING_FIELDS:
            high = as_mapping(fields.get(name)).get("maximum")
            at: KeyPath = ("context_fields", name, "maximum")
            if type(high) in (int, float) and high != ceiling and self.ok(at):
                self.add(
                    at,
                    "maximum-not-ceiling",
                    f"{high} is not the timeout ceiling limits.max_exec_timeout_s ({ceiling}), "
                    f"which bounds {name}",
                    f"set it to {ceiling}, or remove it",
                )


def check(doc: Document, rejected: set[KeyPath]) -> list[Problem]:
    """Run every semantic rule except the sanitizer's.

    Args:
        doc: the loaded catalogue.
        rejected: key paths the meta-schema already rejected; they are skipped.

    Returns:
        The problems found.
    """
    checker = _Checker(doc, rejected)
    usable = checker.code_names()
    checker.retired_codes()
    problems = classnames.check(doc, rejected, usable, checker.collided)
    checker.context()
    checker.fallback()
    checker.families()
    checker.limits()
    grpc.check(checker)
    conditions.check(checker)
    return checker.problems + problems + values.check(doc, rejected)
