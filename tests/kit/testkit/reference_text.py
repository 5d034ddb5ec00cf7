"""The reference sanitizer: docs/sdk-contract.md section 2, over any catalogue.

Part of the one oracle of the contract (:class:`~testkit.reference.Reference`
derives from it): every rule runs on every stretch, nothing is skipped or cached.
"""

from __future__ import annotations

import base64
import math
import re
from dataclasses import dataclass
from functools import cached_property

from errcat.model.catalogue import Catalogue, CharRange, TextRule

UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
CORE_MIN_CHARS = 3
"""The shortest base64 core of the token looked for (contract section 2, the caller's token)."""


def _char_class(ranges: tuple[CharRange, ...]) -> re.Pattern[str]:
    """A regex matching one character of any of ``ranges`` (never matching when there are none)."""
    inner = "".join(f"\\U{r.first:08x}-\\U{r.last:08x}" for r in ranges)
    return re.compile(f"[{inner}]" if inner else "(?!)")


@dataclass(frozen=True)
class SanitizerReference:
    """Section 2 of the contract's algorithm over one catalogue."""

    cat: Catalogue

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
        encodings = [base64.b64encode(raw).decode("ascii").rstrip("=")]
        # Inside longer base64 text the token starts at one of three offsets in
        # a group of three bytes; keep the characters whose bits are all its own.
        # A core of fewer than CORE_MIN_CHARS characters (a token of one or two
        # bytes) is not looked for: it would match base64 text by chance.
        for k in range(3):
            text = base64.b64encode(b"\0" * k + raw + b"\0\0").decode("ascii")
            first = math.ceil(8 * k / 6)
            last = math.floor((8 * k + 8 * len(raw)) / 6)
            if last - first >= CORE_MIN_CHARS:
                encodings.append(text[first:last])
        b64_forms = []
        for encoded in encodings:
            b64_forms += [encoded, encoded.translate(str.maketrans("+/", "-_"))]
        markers = (san.redaction, san.filtered, san.truncation_marker)
        forms = []
        for form in (clean, upper, lower, *b64_forms):
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
        forms = self.token_forms(token)
        return self.cap(self.steps(text, forms), forms)

    def steps(self, text: str, forms: list[str]) -> str:
        """Stages 1 to 3 without the cap."""
        san = self.cat.sanitizer
        text = self.strip(text)
        text = self.replace_covers(
            text, self.hide(text, san.injection, [], san.filtered), san.filtered
        )
        secrets = self.hide(text, san.secrets, forms, san.redaction)
        text = self.replace_covers(text, secrets, san.redaction)
        if secrets:
            for form in forms:
                text = text.replace(form, san.redaction)
        return text

    def cap(self, text: str, forms: list[str]) -> str:
        """Stage 3, step 4: keep the longest start the search reaches that the steps leave as it is.

        The cut starts at the cap less the marker; each time the steps change
        the cut text with the marker, the cut goes to one code point less or
        to where the steps' output first differs, whichever is earlier.
        """
        marker = self.cat.sanitizer.truncation_marker
        if len(text) <= self.cat.limits.text_max_chars:
            return text
        cut = self.cat.limits.text_max_chars - len(marker)
        while cut > 0:
            kept = text[:cut] + marker
            again = self.steps(kept, forms)
            if again == kept:
                return kept
            differ = (i for i, (a, b) in enumerate(zip(kept, again, strict=False)) if a != b)
            cut = min(cut - 1, next(differ, min(len(kept), len(again))))
        return marker
