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

from errcat.model.catalogue import Catalogue, ErrorCode
from errcat.names.languages import LANGUAGES
from errcat.render import render_template
from errcat.render.docs import PATH as DOCS_PATH
from errcat.render.docs import code_naming, page_anchors
from errcat.render.markdown import inline
from errcat.render.schema import CONSUMER_PATH, STRICT_PATH

PATH = "llms.txt"


@dataclass(frozen=True)
class ClassName:
    """A code's class in one SDK language."""

    label: str
    name: str


@dataclass(frozen=True)
class CodeLink:
    """A code's line: status, classes, origin, cause and what to do next."""

    code: str
    url: str
    http: int
    classes: tuple[ClassName, ...]
    origin: str
    cause: str
    remediation: str


@dataclass(frozen=True)
class RetiredLink:
    """A retired code's line, with why it was retired."""

    code: str
    url: str
    reason: str


@dataclass(frozen=True)
class ConditionLink:
    """A condition reason's line: the codes it explains, where it shows, what to read."""

    name: str
    url: str
    codes: tuple[str, ...]
    where: str
    read: str


@dataclass(frozen=True)
class Timeouts:
    """The timeout rules' line; a code it names only when the catalogue has it."""

    url: str
    too_large: bool
    """The catalogue has ``timeout_too_large``, the error of a timeout above the ceiling."""
    exec_timeout: bool
    """The catalogue has ``exec_timeout``, the error of an exec that exits 124."""


def one_line(text: str) -> str:
    """Collapse ``text`` onto one line of literal Markdown (llms.txt is Markdown)."""
    return inline(text)


def code_link(code: ErrorCode, anchor: str) -> CodeLink:
    """A code's entry, linking to its heading in the docs."""
    return CodeLink(
        code=code.code,
        url=f"{DOCS_PATH}#{anchor}",
        http=code.http,
        classes=tuple(
            ClassName(lang.label, lang.written_name(code.class_names[lang.key]))
            for lang in LANGUAGES
        ),
        origin=code.origin,
        cause=one_line(code.cause),
        remediation=one_line(code.remediation),
    )


def render(cat: Catalogue) -> dict[str, str]:
    """Render ``llms.txt``."""
    anchors = page_anchors(cat)
    codes = {c.code for c in cat.codes}
    text = render_template(
        "llms/llms.txt.jinja",
        cat,
        api_name=one_line(cat.api_name),
        summary=one_line(cat.api_summary),
        unknown_guidance=one_line(cat.unknown.recovery.guidance),
        packages=", ".join(
            f"{cat.packages[lang.key][lang.install_field]} for {lang.label}" for lang in LANGUAGES
        ),
        code_naming=code_naming(),
        docs_path=DOCS_PATH,
        consumer_path=CONSUMER_PATH,
        strict_path=STRICT_PATH,
        server=[code_link(c, anchors.codes[c.code]) for c in cat.server_codes],
        sdk=[code_link(c, anchors.codes[c.code]) for c in cat.sdk_codes],
        timeouts=Timeouts(
            url=f"{DOCS_PATH}#{anchors.sections['limits']}",
            too_large="timeout_too_large" in codes,
            exec_timeout="exec_timeout" in codes,
        ),
        retired=[
            RetiredLink(r.code, f"{DOCS_PATH}#{anchors.sections['retired']}", one_line(r.reason))
            for r in cat.retired
        ],
        conditions=[
            ConditionLink(
                r.name,
                f"{DOCS_PATH}#{anchors.sections['conditions']}",
                r.codes,
                one_line(r.where),
                one_line(r.read),
            )
            for r in cat.conditions
        ],
    )
    return {PATH: text}
