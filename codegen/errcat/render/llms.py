"""Render ``llms.txt``, the index a language model reads.

It follows the llms.txt format: an H1, a one-paragraph blockquote summary,
then sections of one-line entries. The generated-file notice is the first
paragraph after the summary, since the format wants the H1 on line one.
"""

from __future__ import annotations

from errcat.model import Catalogue, ErrorCode
from errcat.render import render_template
from errcat.render.docs import PATH as DOCS_PATH
from errcat.render.docs import class_names, inline
from errcat.render.schema import PATH as SCHEMA_PATH

PATH = "llms.txt"


def one_line(text: str) -> str:
    """Collapse ``text`` onto one line of literal Markdown (llms.txt is Markdown)."""
    return inline(text)


def entry(code: ErrorCode) -> str:
    """The one-line entry of a code: code, status, classes, meaning and what to do next."""
    return (
        f"`{code.code}` (HTTP {code.http}, {class_names(code, mark='')}): {one_line(code.cause)} "
        f"Next: {one_line(code.remediation)}"
    )


def _timeouts(cat: Catalogue) -> str:
    """The timeout rules in one line, naming only codes the catalogue has."""
    codes = {c.code for c in cat.codes}
    limits = cat.limits
    text = f"a requested timeout above {limits.max_exec_timeout_s} s is rejected"
    if "timeout_too_large" in codes:
        text += " with `timeout_too_large`"
    text += (
        f", never reduced; without one, exec waits {limits.default_exec_timeout_s} s "
        f"and run_code {limits.default_run_code_timeout_s} s"
    )
    if "exec_timeout" in codes:
        text += "; an exec that exits 124 raises `exec_timeout`"
    return text + "."


def render(cat: Catalogue) -> dict[str, str]:
    """Render ``llms.txt``."""
    text = render_template(
        "llms/llms.txt.jinja",
        cat,
        api_name=one_line(cat.api_name),
        summary=one_line(cat.api_summary),
        timeouts=_timeouts(cat),
        unknown_guidance=one_line(cat.unknown.recovery.guidance),
        server_entries=[entry(c) for c in cat.server_codes],
        sdk_entries=[entry(c) for c in cat.sdk_codes],
        retired=[f"`{r.code}`: {one_line(r.reason)}" for r in cat.retired],
        docs_path=DOCS_PATH,
        schema_path=SCHEMA_PATH,
    )
    return {PATH: text}
