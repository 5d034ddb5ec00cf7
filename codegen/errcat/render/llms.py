"""Render ``llms.txt``, the index a language model reads.

It follows the llms.txt format (https://llmstxt.org): an H1, a one-line
blockquote summary, prose, then H2 sections whose every line is a link,
``- [name](url): notes``. The generated-file notice is the first paragraph
after the summary, since the format wants the H1 on line one. Each code links
to its heading in ``docs/errors.md``; what a shorter context may skip (the
timeout rules, retired codes) is in the ``Optional`` section. Links are
relative to the file, which sits at the output root.
"""

from __future__ import annotations

from dataclasses import dataclass

from errcat.languages import LANGUAGES
from errcat.model import Catalogue, ErrorCode
from errcat.render import render_template
from errcat.render.docs import PATH as DOCS_PATH
from errcat.render.docs import inline, page_anchors
from errcat.render.schema import CONSUMER_PATH, STRICT_PATH

PATH = "llms.txt"


@dataclass(frozen=True)
class Link:
    """One line of a section: ``- [name](url): notes``."""

    name: str
    url: str
    notes: str


def one_line(text: str) -> str:
    """Collapse ``text`` onto one line of literal Markdown (llms.txt is Markdown)."""
    return inline(text)


def classes(code: ErrorCode) -> str:
    """The code's class in every SDK language: ``Python `X`, TypeScript `Y```."""
    return ", ".join(f"{lang.label} `{code.class_names[lang.key]}`" for lang in LANGUAGES)


def code_link(code: ErrorCode, anchor: str) -> Link:
    """A code's entry: status, classes, meaning and what to do next."""
    notes = (
        f"HTTP {code.http}; {classes(code)}. Origin: {code.origin}. {one_line(code.cause)} "
        f"Next: {one_line(code.remediation)}"
    )
    return Link(code.code, f"{DOCS_PATH}#{anchor}", notes)


def _timeouts(cat: Catalogue) -> str:
    """The timeout rules in one line, naming only codes the catalogue has."""
    codes = {c.code for c in cat.codes}
    limits = cat.limits
    text = f"A requested timeout above {limits.max_exec_timeout_s} s is rejected"
    if "timeout_too_large" in codes:
        text += " with `timeout_too_large`"
    text += (
        f", never reduced; without one, exec waits {limits.default_exec_timeout_s} s "
        f"and run_code {limits.default_run_code_timeout_s} s"
    )
    if "exec_timeout" in codes:
        text += "; an exec that exits 124 raises `exec_timeout`"
    return text + "."


def optional(cat: Catalogue, sections: dict[str, str]) -> list[Link]:
    """What a shorter context may leave out: the timeout rules and the retired codes."""
    links = [Link("Timeouts", f"{DOCS_PATH}#{sections['limits']}", _timeouts(cat))]
    links += [
        Link(
            r.code,
            f"{DOCS_PATH}#{sections['retired']}",
            f"Retired, never sent. {one_line(r.reason)}",
        )
        for r in cat.retired
    ]
    return links


def render(cat: Catalogue) -> dict[str, str]:
    """Render ``llms.txt``."""
    anchors = page_anchors(cat)
    text = render_template(
        "llms/llms.txt.jinja",
        cat,
        api_name=one_line(cat.api_name),
        summary=one_line(cat.api_summary),
        unknown_guidance=one_line(cat.unknown.recovery.guidance),
        docs=[
            Link(
                "Error catalogue",
                DOCS_PATH,
                "every code with cause, remediation, HTTP and gRPC status, context fields, "
                "recovery advice and examples",
            ),
            Link(
                "Error envelope JSON Schema",
                CONSUMER_PATH,
                "the envelope and, per code, its context fields with their types and bounds; "
                "any code passes, since a newer server may send a code not listed here",
            ),
            Link(
                "Strict error envelope JSON Schema",
                STRICT_PATH,
                "the same for servers and tests: only the codes listed here pass",
            ),
        ],
        server=[code_link(c, anchors.codes[c.code]) for c in cat.server_codes],
        sdk=[code_link(c, anchors.codes[c.code]) for c in cat.sdk_codes],
        optional=optional(cat, anchors.sections),
        conditions=[
            Link(
                r.name,
                f"{DOCS_PATH}#{anchors.sections['conditions']}",
                f"You see {', '.join(f'`{c}`' for c in r.codes)}. Where: {one_line(r.where)}. "
                f"Read: {one_line(r.read)}",
            )
            for r in cat.conditions
        ],
    )
    return {PATH: text}
