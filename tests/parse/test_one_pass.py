"""One tokenizing pass for the facts and the tree: when a `TreeBuilder` is the extractor's text
sink, its tokenizer drives the extractor (parse.tokenizer.TokenListener), and the page's facts
are the extractor's alone, its tree the one its decoded text builds alone, whatever the chunking
and wherever the tree's caps stop it (the extractor then tokenizes the rest itself)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parse.extractor import PageExtractor
from parse.facts import PageFacts
from parse.parity import PARITY_URL, page_files, read_page, split
from parse.tree_builder import ParsedTree, TreeBuilder
from parse.tree_construction import MIN_ELEMENTS
from tests.parse.cases import cases
from tests.parse.tree_compare import DecodedText, lines

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus" / "pages"
CORPUS_FILES = page_files(CORPUS) if CORPUS.is_dir() else []
CASES = cases()


def _alone(data: bytes, content_type: str | None) -> tuple[PageFacts, list[str]]:
    """The facts of the extractor's own scan, and the tree of its decoded text fed whole."""
    text = DecodedText()
    extractor = PageExtractor(PARITY_URL, content_type=content_type, on_text=text)
    extractor.feed(data)
    facts = extractor.close()
    builder = TreeBuilder()
    builder.feed("".join(text.pieces))
    return facts, lines(builder.close().root)


def _one_pass(
    data: bytes,
    content_type: str | None,
    chunks: list[int] | None = None,
    *,
    max_elements: int = 25_000,
    max_text: int = 500_000,
) -> tuple[PageFacts, ParsedTree]:
    builder = TreeBuilder(max_elements=max_elements, max_text=max_text)
    extractor = PageExtractor(PARITY_URL, content_type=content_type, on_text=builder)
    for piece in split(data, chunks):
        extractor.feed(piece)
    facts = extractor.close()
    return facts, builder.close(truncated=facts.truncated)


def _check(data: bytes, content_type: str | None, chunks: list[int] | None) -> None:
    facts, tree = _alone(data, content_type)
    ours, our_tree = _one_pass(data, content_type, chunks)
    assert ours.to_dict() == facts.to_dict()
    assert lines(our_tree.root) == tree


@pytest.mark.parametrize(("name", "data", "content_type"), CASES, ids=[c[0] for c in CASES])
def test_cases_whole_and_one_byte_at_a_time(
    name: str, data: bytes, content_type: str | None
) -> None:
    _check(data, content_type, None)
    _check(data, content_type, [1])


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name[:12] for p in CORPUS_FILES])
def test_corpus_page_whole_and_in_random_chunks(path: Path) -> None:
    data = read_page(path)
    _check(data, None, None)
    rng = random.Random(path.name)
    _check(data, None, [rng.randint(1, 3000) for _ in range(64)])


@pytest.mark.parametrize("path", CORPUS_FILES[::4], ids=[p.name[:12] for p in CORPUS_FILES[::4]])
def test_where_the_tree_stops_the_extractor_goes_on_alone(path: Path) -> None:
    data = read_page(path)
    facts, _ = _alone(data, None)
    rng = random.Random(path.name)
    elements = rng.randint(MIN_ELEMENTS, 400)
    for caps in ({"max_elements": elements}, {"max_text": rng.randint(1, 5000)}):
        ours, tree = _one_pass(data, None, [rng.randint(1, 3000) for _ in range(64)], **caps)
        assert not tree.complete
        assert ours.to_dict() == facts.to_dict()


def test_a_late_charset_restarts_both() -> None:
    page = b"<title>x</title><meta charset=utf-8><p>caf\xc3\xa9 <a href=/a>\xc3\xa9</a>"
    facts, tree = _alone(page, None)
    ours, our_tree = _one_pass(page, None, [5])
    assert ours.to_dict() == facts.to_dict() and ours.encoding.name == "utf-8"
    assert lines(our_tree.root) == tree


_PIECES = st.sampled_from(
    [
        "<p>", "</p>", "<b>", "</b>", "<a href=x>", "<a id=y href=z>", "</a>", "<table>", "<tr>",
        "<td>", "</td>", "</table>", "<svg>", "</svg>", "<math>", "<mi>", "<foreignObject>",
        "<font color=red>", "<select>", "</select>", "<option>", "<li>", "<script>",
        '<script type="application/ld+json">', "</script>", "<style>", "</style>", "<title>",
        "</title>", "<textarea>", "</textarea>", "<xmp>", "</xmp>", "<noscript>", "<plaintext>",
        "<!--", "-->", "<![CDATA[", "]]>", "<!doctype html>", "&amp;", "&", "x", " ", "\n",
        "\r\n", "<div id=d>", "</div>", "<h1>", "</h1>", "<h2 id=h>", "<pre>", "<listing>",
        "<template>", "</template>", "<img alt=i src=s>", "<meta name=description content=d>",
        "<link rel=canonical href=c>", "<base href=/b/>", "<frameset>", "<iframe src=f>", "<",
        "{}", '{"@type": "Thing"}',
    ]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join), st.lists(st.integers(1, 12), max_size=4))
def test_generated_markup_gives_the_same_facts_and_tree(html: str, chunks: list[int]) -> None:
    _check(html.encode(), "text/html; charset=utf-8", chunks or None)
