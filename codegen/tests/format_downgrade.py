"""Test helper: write a current-format catalogue in an earlier format, as its authors did.

:func:`representable` makes a drawn catalogue one that format ``k`` can
express (what the later formats added is written out as format ``k`` had
it), still in the current format: the catalogue that ``errcat migrate`` must
give back. :func:`downgrade` then writes it in format ``k``:

* to 4: no ``format`` key; the sanitizer written out whole (no defaults, no
  rule ids); every standard fallback status written out;
* to 3: side conditions written as the lookarounds they replaced;
* to 2: no ``sdk`` section (the runtimes raised fixed codes instead);
* to 1: no ``origin`` on any code.
"""

from __future__ import annotations

import copy
from typing import Any

from errcat.migrate.steps import legacy_sdk_section
from errcat.model.defaults import (
    RULE_LISTS,
    STANDARD_STATUSES,
    effective_fallback,
    effective_sanitizer,
)
from errcat.model.sanitizer import SIDE_CONDITIONS, SideConditions, with_lookaround

PLACEHOLDER_ORIGIN = "runtime"


def representable(data: dict[str, Any], k: int) -> dict[str, Any]:
    """``data`` (current format) changed only where format ``k`` could not say the same."""
    data = copy.deepcopy(data)
    if k <= 4:
        section = effective_sanitizer(data.get("sanitizer"))
        for key in RULE_LISTS:
            section[key] = [{f: v for f, v in r.items() if f != "id"} for r in section[key]]
        data["sanitizer"] = {"standard": False, **section}
        fallback = effective_fallback(data["fallback"], data["codes"])
        by_class = fallback["by_class"]
        by_status = fallback["by_status"]
        for status in STANDARD_STATUSES:
            by_status.setdefault(status, by_class[f"{status[0]}xx"])
        data["fallback"] = {**fallback, "by_status": by_status}
    if k <= 2:
        data["sdk"] = legacy_sdk_section(data["codes"])[0]
    else:
        # Without the format key, a catalogue with no sdk section is read as format 2, the
        # oldest it can be (the SDKs then raised fixed codes); one of format 3 or 4 that
        # wants no helper says so with an empty section.
        data.setdefault("sdk", {})
    if k <= 1:
        unknown = data.get("unknown_code", {})
        for spec in data["codes"].values():
            spec["origin"] = unknown.get("origin", PLACEHOLDER_ORIGIN)
    return data


def downgrade(data: dict[str, Any], k: int) -> dict[str, Any]:
    """``representable(data, k)`` written in format ``k``."""
    old = representable(data, k)
    old.pop("format", None)
    if k <= 4:
        del old["sanitizer"]["standard"]
    if k <= 3:
        for key in RULE_LISTS:
            old["sanitizer"][key] = [_with_lookaround(rule) for rule in old["sanitizer"][key]]
    if k <= 2:
        del old["sdk"]
    if k <= 1:
        for spec in old["codes"].values():
            del spec["origin"]
    return old


def _with_lookaround(rule: dict[str, Any]) -> dict[str, Any]:
    side = SideConditions(**{key: rule[key] for key in SIDE_CONDITIONS if key in rule})
    prefix, pattern = with_lookaround(rule.get("prefix", ""), rule["pattern"], side)
    out = {key: value for key, value in rule.items() if key not in SIDE_CONDITIONS}
    if prefix:
        out["prefix"] = prefix
    out["pattern"] = pattern
    return out
