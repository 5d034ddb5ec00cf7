"""Catalogue text in Markdown: escaped, autolinked and wrapped, it reads back as written.

:func:`errcat.render.markdown.inline` escapes prose and turns web addresses into
autolinks; :func:`errcat.render.markdown.wrap` breaks a paragraph at 80 columns.
Whatever the text, the result must be one CommonMark paragraph that reads as
the text (whitespace collapsed), with no line over 80 columns unless it is
one word, and no address split or escaped.
"""

from __future__ import annotations

from catalogue_strategies import texts
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from errcat.render.markdown import WIDTH, inline, wrap

MARKDOWN = MarkdownIt("commonmark")
URLS = st.from_regex(r"https?://[a-z0-9.]{0,12}[a-z0-9](/[a-z0-9_~&=-]{0,8}){0,3}", fullmatch=True)
BLOCK_STARTS = st.sampled_from(["-", "+", "1.", "2)", "=", "---", "#", ">", "*", "10.", "- x"])
WORDS = st.one_of(texts(30), URLS, BLOCK_STARTS, st.text("ab ", min_size=1, max_size=90))
PROSE = st.lists(WORDS, min_size=1, max_size=30).map(" ".join).filter(lambda t: t.strip())


def read(markdown: str) -> tuple[list[str], list[str]]:
    """The block types of ``markdown``, and the text and link targets of its inline content."""
    tokens = MARKDOWN.parse(markdown)
    blocks = [t.type for t in tokens if t.type.endswith("_open") or t.type in ("fence", "hr")]
    parts, links = [], []
    for token in tokens:
        for child in token.children or []:
            if child.type in ("text", "code_inline"):
                parts.append(child.content)
            elif child.type == "softbreak":
                parts.append(" ")
            elif child.type == "link_open":
                links.append(str(child.attrs["href"]))
    return blocks, ["".join(parts), *links]


@given(PROSE)
def test_wrapped_prose_reads_back_as_one_paragraph(text: str) -> None:
    markdown = wrap(inline(text))
    blocks, (seen, *_links) = read(markdown)
    assert blocks == ["paragraph_open"], (markdown, blocks)
    assert seen == " ".join(text.split()), markdown
    for line in markdown.splitlines():
        assert len(line) <= WIDTH or " " not in line, line


@given(st.lists(st.one_of(texts(20), URLS), min_size=1, max_size=6))
def test_every_address_becomes_one_autolink(pieces: list[str]) -> None:
    text = " ".join(pieces)
    markdown = wrap(inline(text))
    _blocks, (_seen, *links) = read(markdown)
    urls = [p for p in pieces if p.startswith(("http://", "https://"))]
    assert [link for link in links if link in urls] == urls, (markdown, links)
