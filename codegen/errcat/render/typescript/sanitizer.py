"""The view of ``sanitizer-rules.ts``: the character table, the rules and the trigger pre-filter as TypeScript source.

The pre-filter is the plan of :mod:`errcat.model.prefilter`, rendered by
:mod:`errcat.render.typescript.prefilter`.
"""

from __future__ import annotations

from dataclasses import dataclass

from errcat.model.catalogue import Catalogue, CharRange, TextRule
from errcat.model.prefilter import prefilter
from errcat.render.typescript.prefilter import TsPrefilter, ts_prefilter
from errcat.render.typescript.syntax import doc_text, line_comment, string_literal


@dataclass(frozen=True)
class TsRule:
    """One sanitizer rule with its regular expression source as a string literal."""

    name: str
    """The rule's name as line-comment text (the runtime does not read it)."""
    prefix: str
    pattern: str


@dataclass(frozen=True)
class TsSanitizerView:
    """What ``sanitizer-rules.ts`` shows."""

    redaction: str
    filtered: str
    truncation_marker: str
    remove: str
    remove_names: tuple[str, ...]
    to_space: str
    to_space_names: tuple[str, ...]
    secrets: tuple[TsRule, ...]
    injection: tuple[TsRule, ...]
    unicode_version: str
    prefilter: TsPrefilter


def char_class(ranges: tuple[CharRange, ...]) -> str:
    """A regular-expression class matching ``ranges`` (read with flag ``u``), as a string literal."""
    parts = []
    for r in ranges:
        first = f"\\u{{{r.first:X}}}"
        parts.append(first if r.first == r.last else f"{first}-\\u{{{r.last:X}}}")
    return string_literal("[" + "".join(parts) + "]")


def _rule(rule: TextRule) -> TsRule:
    return TsRule(
        name=line_comment(rule.name),
        prefix=string_literal(rule.prefix),
        pattern=string_literal(rule.pattern),
    )


def sanitizer_view(cat: Catalogue) -> TsSanitizerView:
    """The values ``sanitizer-rules.ts`` prints."""
    san = cat.sanitizer
    return TsSanitizerView(
        redaction=string_literal(san.redaction),
        filtered=string_literal(san.filtered),
        truncation_marker=string_literal(san.truncation_marker),
        remove=char_class(san.remove),
        remove_names=tuple(doc_text(r.name) for r in san.remove),
        to_space=char_class(san.to_space),
        to_space_names=tuple(doc_text(r.name) for r in san.to_space),
        secrets=tuple(_rule(r) for r in san.secrets),
        injection=tuple(_rule(r) for r in san.injection),
        unicode_version=string_literal(san.unicode_version),
        prefilter=ts_prefilter(prefilter(cat), san.remove, san.to_space),
    )
