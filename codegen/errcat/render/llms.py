"""Render ``llms.txt``, the index a language model reads.

It follows the llms.txt format: an H1, a one-paragraph blockquote summary,
then sections of one-line entries. The generated-file notice is the first
paragraph after the summary, since the format wants the H1 on line one.
"""

from __future__ import annotations

from errcat.model import Catalogue, ErrorCode
from errcat.render import render_template
from errcat.render.docs import PATH as DOCS_PATH
from errcat.render.schema import PATH as SCHEMA_PATH

PATH = "llms.txt"


def one_line(text: str) -> str:
    """Collapse ``text`` onto one line."""
    return " ".join(text.split())


def entry(code: ErrorCode) -> str:
    """The one-line entry of a code: code, status, meaning and what to do next."""
    return (
        f"`{code.code}` (HTTP {code.http}, {code.python_class}): {one_line(code.cause)} "
        f"Next: {one_line(code.remediation)}"
    )


def render(cat: Catalogue) -> dict[str, str]:
    """Render ``llms.txt``."""
    text = render_template(
        "llms/llms.txt.jinja",
        cat,
        summary=one_line(cat.api_summary),
        unknown_guidance=one_line(cat.unknown.recovery.guidance),
        server_entries=[entry(c) for c in cat.server_codes],
        sdk_entries=[entry(c) for c in cat.sdk_codes],
        retired=[f"`{r.code}`: {one_line(r.reason)}" for r in cat.retired],
        docs_path=DOCS_PATH,
        schema_path=SCHEMA_PATH,
    )
    return {PATH: text}
