"""Read an ``llms.txt`` back with the format's reference parser and compare it with its catalogue.

:func:`problems` parses the file with ``llms_txt.parse_llms_file`` (the
parser of https://llmstxt.org) and lists every way it differs from the
model: the title and summary, the sections, one link per code in the right
section with its status, both class names, cause and remediation, each
link landing on a heading of ``docs/errors.md`` that reads the code (found
with a CommonMark parser and GitHub's anchor rule, not the generator's), the
retired codes under ``Optional``, and every linked file existing.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

import llms_txt
from markdown_it import MarkdownIt

from errcat.model.catalogue import Catalogue
from errcat.names.languages import LANGUAGES

_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])|<(https?://[^\s<>]*)>")
"""A backslash escape, or an autolink: both read as the character or address."""
_MARKDOWN = MarkdownIt("commonmark").enable("table")


def read(text: str) -> str:
    """Markdown text with its backslash escapes and autolinks resolved."""
    return _ESCAPE.sub(lambda m: m.group(1) or m.group(2), text)


def flat(text: str) -> str:
    return " ".join(text.split())


def github_anchors(markdown: str) -> dict[str, str]:
    """Anchor -> the text of its heading, numbering repeats ``-1``, ``-2`` as GitHub does."""
    tokens = _MARKDOWN.parse(markdown)
    found: dict[str, str] = {}
    counts: dict[str, int] = {}
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        text = "".join(
            c.content for c in tokens[i + 1].children or [] if c.type in ("text", "code_inline")
        )
        base = "".join(
            ch
            for ch in text.lower()
            if ch in "-_ "
            or unicodedata.category(ch)[0] in "LMN"
            or unicodedata.category(ch) == "Pc"
        ).replace(" ", "-")
        anchor = base
        while anchor in counts:
            counts[base] += 1
            anchor = f"{base}-{counts[base]}"
        counts[anchor] = 0
        found[anchor] = text
    return found


def _links(parsed: Any) -> dict[str, list[tuple[str, dict[str, str]]]]:
    """Link title -> every (section, link) of that title."""
    out: dict[str, list[tuple[str, dict[str, str]]]] = {}
    for section, links in parsed.sections.items():
        for link in links:
            out.setdefault(link["title"], []).append((section, link))
    return out


def problems(cat: Catalogue, root: Path) -> list[str]:
    """Every way ``root/llms.txt`` differs from ``cat`` (empty when it states it all)."""
    parsed = llms_txt.parse_llms_file((root / "llms.txt").read_text("utf-8"))
    docs = github_anchors((root / "docs" / "errors.md").read_text("utf-8"))
    found: list[str] = []
    if read(parsed.title) != f"{flat(cat.api_name)} errors":
        found.append(f"title {parsed.title!r}")
    if read(parsed.summary) != flat(cat.api_summary):
        found.append(f"summary {parsed.summary!r}")
    sections = ["Docs", "Error codes"] + (["SDK-local codes"] if cat.sdk_codes else [])
    sections += ["Condition reasons"] if cat.conditions else []
    if list(parsed.sections) != [*sections, "Optional"]:
        found.append(f"sections {list(parsed.sections)}")
    links = _links(parsed)
    for code in cat.codes:
        where = "SDK-local codes" if code.sdk_local else "Error codes"
        mine = [link for section, link in links.get(code.code, []) if section == where]
        if len(mine) != 1:
            found.append(f"{code.code}: {len(mine)} links under {where}")
            continue
        link, notes = mine[0], read(mine[0]["desc"] or "")
        page, _, anchor = link["url"].partition("#")
        if page != "docs/errors.md" or docs.get(anchor) != code.code:
            found.append(f"{code.code}: link {link['url']} is not its heading in docs/errors.md")
        facts = [f"HTTP {code.http};", flat(code.cause), f"Next: {flat(code.remediation)}"]
        facts += [
            f"{lang.label} `{lang.written_name(code.class_names[lang.key])}`" for lang in LANGUAGES
        ]
        found += [f"{code.code}: {fact!r} not in {notes!r}" for fact in facts if fact not in notes]
    for retired in cat.retired:
        mine = [link for section, link in links.get(retired.code, []) if section == "Optional"]
        if not mine or flat(retired.reason) not in read(mine[0]["desc"] or ""):
            found.append(f"retired {retired.code}: no Optional link with its reason")
    for _section, link in (pair for pairs in links.values() for pair in pairs):
        page, _, anchor = link["url"].partition("#")
        if not (root / page).is_file() or (
            page == "docs/errors.md" and anchor and anchor not in docs
        ):
            found.append(f"link {link['url']} does not resolve")
    return found
