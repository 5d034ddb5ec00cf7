"""What a catalogue may leave out, and what errcat puts in its place.

Two sections have sound defaults (decided here, described in the meta-schema
and in codegen/README.md, "Defaults"):

* **The sanitizer.** errcat ships a standard one as data,
  ``errcat/model/standard_sanitizer.yaml``: the Mitos catalogue's rules less
  what is Mitos's alone. A catalogue without a ``sanitizer`` section gets it;
  a section builds on it unless it says ``standard: false``: its markers and
  Unicode settings replace the standard's, its ranges are added to them, and
  each of its rules replaces the standard rule with the same ``id`` (in
  place) or is added after them; the standard rules whose ids its ``omit``
  lists are left out.
* **The fallback map's standard statuses** (:data:`STANDARD_STATUSES`, the
  statuses errcat asked every catalogue for until format 5). One the map
  leaves out is mapped onto the catalogue's one code with that HTTP status,
  when there is exactly one (codes that refine another code of that status,
  SDK-made and deprecated codes do not count); otherwise no entry is added
  and the status's class entry (``by_class``) answers it, as for any other
  status.

Both work on the catalogue's data, before the model is built, so a
catalogue that writes the defaults out gets the same model as one that
leaves them out.
"""

from __future__ import annotations

import copy
import functools
import importlib.resources
from typing import Any

from errcat.source.load import parse_catalogue

STANDARD_SANITIZER = "standard_sanitizer.yaml"
"""The standard sanitizer's file, in this package."""

STANDARD_STATUSES = (
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
"""The statuses whose fallback entry errcat derives when a catalogue leaves it out."""

_REPLACED = ("redaction", "filtered", "truncation_marker", "unicode_version", "remove_properties")
"""Sanitizer keys whose value in a catalogue replaces the standard one."""
_ADDED = ("remove", "to_space")
"""Sanitizer range lists a catalogue adds to the standard ones."""
RULE_LISTS = ("secrets", "injection")
"""Sanitizer rule lists, merged with the standard ones by rule ``id``."""


@functools.cache
def _standard_text() -> str:
    return (importlib.resources.files("errcat.model") / STANDARD_SANITIZER).read_text("utf-8")


def standard_sanitizer() -> dict[str, Any]:
    """A fresh copy of errcat's standard sanitizer section (plain data)."""
    data: dict[str, Any] = parse_catalogue(_standard_text(), STANDARD_SANITIZER).data
    return data


def standard_rule_ids() -> dict[str, str]:
    """The id of every standard rule, and its list (``secrets``, ``injection``): what ``omit`` may name.

    Ids are unique across both lists (a test holds the standard file to it), so an id alone
    names one rule.
    """
    standard = standard_sanitizer()
    return {rule["id"]: key for key in RULE_LISTS for rule in standard[key]}


def builds_on_standard(section: Any) -> bool:
    """True unless ``section`` is a sanitizer section that says ``standard: false``."""
    return not (isinstance(section, dict) and section.get("standard") is False)


def merge_rules(standard: list[dict[str, Any]], own: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The standard rules with each of ``own`` replacing the one of its ``id``, or added after."""
    merged = list(standard)
    where = {rule.get("id"): index for index, rule in enumerate(merged) if rule.get("id")}
    for rule in own:
        index = where.get(rule.get("id")) if rule.get("id") else None
        if index is None:
            merged.append(rule)
        else:
            merged[index] = rule
    return merged


def effective_sanitizer(section: dict[str, Any] | None) -> dict[str, Any]:
    """The sanitizer section a validated catalogue means, with the standard one applied."""
    own = copy.deepcopy(section) if section is not None else {}
    own.pop("standard", None)
    omitted = set(own.pop("omit", []))
    if not builds_on_standard(section):
        return own
    merged = standard_sanitizer()
    for key in RULE_LISTS:
        merged[key] = [rule for rule in merged[key] if rule["id"] not in omitted]
    for key in _REPLACED:
        if key in own:
            merged[key] = own[key]
    for key in _ADDED:
        merged[key] = merged[key] + own.get(key, [])
    for key in RULE_LISTS:
        merged[key] = merge_rules(merged[key], own.get(key, []))
    return merged


def derived_fallback(codes: dict[str, Any], status: str) -> str | None:
    """The code a standard ``status`` left out of the fallback map goes to, or ``None``.

    The one current code with that HTTP status, not counting codes that refine another
    code of that status (the coarser one stands for them), SDK-made and deprecated codes.
    """
    carriers = {
        code: spec
        for code, spec in codes.items()
        if spec.get("http") == int(status)
        and spec.get("emitted_by") != "sdk"
        and "deprecated" not in spec
    }
    roots = [code for code, spec in carriers.items() if spec.get("refines") not in carriers]
    return roots[0] if len(roots) == 1 else None


def effective_fallback(fallback: dict[str, Any], codes: dict[str, Any]) -> dict[str, Any]:
    """The fallback section a validated catalogue means: its entries, then the derived ones."""
    by_status = dict(fallback.get("by_status", {}))
    for status in STANDARD_STATUSES:
        if status not in by_status:
            code = derived_fallback(codes, status)
            if code is not None:
                by_status[status] = code
    return {**fallback, "by_status": by_status}
