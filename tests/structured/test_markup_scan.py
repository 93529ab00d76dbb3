"""structured.markup_scan: whether a page's bytes carry Microdata or RDFa. The specification is
the check it gates: a page the scan passes by has nothing `check_page` would find (no type, no
finding), on generated markup and on every corpus page; any split of a body gives the answer of
the whole; and what decides is an attribute as HTML writes it, not a word in the text."""

from __future__ import annotations

import gzip
from html import escape
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parse.tree import Element
from parse.tree_builder import TreeBuilder
from structured.markup_scan import MAX_PENDING, MarkupScan, ascii_compatible, has_markup
from structured.page import check_page

S = "https://schema.org/"
CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus" / "pages"

SCANNED = {
    # Microdata and RDFa Lite's attributes decide, whatever their value
    f'<div itemscope itemtype="{S}Product">': True,
    "<div itemscope>": True,
    "<div ITEMSCOPE>": True,
    '<span itemprop="name">': True,
    "<span itemprop>": True,
    '<div typeof="Place">': True,
    f'<div vocab="{S}">': True,
    '<a resource="#x">': True,
    "<div\titemscope/>": True,
    "<div class=x itemscope=''>": True,
    # property, prefix and xmlns: only when their value names schema
    '<meta property="og:title" content="Fern">': False,
    "<meta property=og:title content=Fern>": False,
    '<span property="schema:name">': True,
    "<span property = 'https://schema.org/name'>": True,
    "<span PROPERTY=SCHEMA:name>": True,
    '<span property="name">': False,
    "<span property>": False,
    '<html prefix="og: http://ogp.me/ns#">': False,
    '<html prefix="s: https://schema.org/">': True,
    '<html xmlns:og="http://ogp.me/ns#">': False,
    '<html xmlns:s="http://schema.org/">': True,
    # words in text and script are no attributes
    "<p>the property is nice; items in a vocabulary</p>": False,
    '<script>if (typeof x === "y") {}</script>': False,
    "<p>itemscopes and typeofs</p>": False,
    # an attribute too long to be a sharing tag decides
    '<meta property="' + "og:x " * MAX_PENDING + '">': True,
    # a value not ended when the body ends is no attribute (the tag is dropped at its end)
    '<meta property="schema:name': False,
}


@pytest.mark.parametrize(("html", "expected"), SCANNED.items(), ids=[*range(len(SCANNED))])
def test_an_attribute_as_html_writes_it_decides(html: str, expected: bool) -> None:
    assert has_markup(html.encode()) is expected


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(list(SCANNED)), st.lists(st.integers(0, 1 << 16), max_size=4))
def test_any_split_gives_the_answer_of_the_whole(html: str, cuts: list[int]) -> None:
    body = ("<p>" + "x" * 20 + html + "</p>").encode()
    points = sorted({cut % (len(body) + 1) for cut in cuts})
    scan = MarkupScan()
    for start, end in zip([0, *points], [*points, len(body)], strict=True):
        scan.feed(body[start:end])
    assert scan.seen is has_markup(body)


def test_utf16_is_the_one_encoding_the_scan_cannot_read() -> None:
    assert ascii_compatible("utf-8") and ascii_compatible("windows-1252")
    assert not ascii_compatible("utf-16le") and not ascii_compatible("utf-16be")


# -- the gate never hides what the check would find --------------------------------------------

_WORDS = [
    "a",
    "name",
    "s:name",
    "schema:name",
    "og:title",
    "_:x",
    ":next",
    "http://x.org/y",
    S + "name",
]
_ATTRIBUTES = {
    "property": st.sampled_from(_WORDS),
    "prefix": st.sampled_from(["og: http://ogp.me/ns#", "x: y: z", "s: https://schema.org/"]),
    "xmlns:s": st.sampled_from(["http://schema.org/", "http://ogp.me/ns#"]),
    "content": st.sampled_from(["2024-01-01", "Fern"]),
    "href": st.sampled_from(["/x", "#f"]),
    "id": st.sampled_from(["i0", "i1"]),
}
_tags = st.sampled_from(["div", "span", "a", "meta", "link", "time", "p"])
_trees = st.recursive(
    st.builds(Element, _tags, st.fixed_dictionaries({}, optional=_ATTRIBUTES)),
    lambda children: st.builds(
        Element,
        _tags,
        st.fixed_dictionaries({}, optional=_ATTRIBUTES),
        st.lists(st.one_of(children, st.sampled_from(["t", "Fern"])), max_size=4).map(tuple),
    ),
    max_leaves=20,
)


def _html(node: Element | str) -> str:
    if isinstance(node, str):
        return escape(node)
    attributes = "".join(f' {k}="{escape(v)}"' for k, v in node.attributes.items())
    inner = "".join(_html(child) for child in node.children)
    return f"<{node.tag}{attributes}>{inner}</{node.tag}>"


def _checked(html: str) -> tuple[tuple[str, ...], int]:
    builder = TreeBuilder()
    builder.feed(html)
    checked = check_page([], builder.close().root, "https://shop.test/p")
    return checked.types, checked.findings_seen


@settings(max_examples=200, deadline=None)
@given(st.lists(_trees, min_size=1, max_size=3))
def test_a_page_the_scan_passes_by_has_nothing_to_check(trees: list[Element]) -> None:
    html = "<!doctype html><html><head></head><body>" + "".join(map(_html, trees))
    if not has_markup(html.encode()):
        assert _checked(html) == ((), 0)


def test_no_corpus_page_the_scan_passes_by_has_anything_to_check() -> None:
    passed = []
    for path in sorted(CORPUS.glob("*.html.gz")):
        body = gzip.decompress(path.read_bytes())
        if not has_markup(body):
            passed.append(path.name)
            assert _checked(body.decode("utf-8", "replace")) == ((), 0), path.name
    # The corpus's pages mostly carry Microdata or RDFa; the rest carry Open Graph at most.
    assert 20 <= len(passed) <= 40
