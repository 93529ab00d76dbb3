"""The extractor's `on_links`: every distinct <a href> of a page, uncapped, in source order.

`PageFacts.links` keeps the first LINKS_CAP for the per-page rules; `on_links` is the same list
without the cap, so its first LINKS_CAP items equal `facts.links`, whatever the chunking.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parse.extractor import PageExtractor
from parse.facts import LINKS_CAP, Link, PageFacts

PAGE = "https://site.test/docs/index.html"


def run(body: bytes, cuts: list[int] = ()) -> tuple[PageFacts, list[Link]]:  # type: ignore[assignment]
    got: list[Link] = []
    extractor = PageExtractor(PAGE, content_type="text/html", on_links=got.extend)
    edges = [0, *sorted(set(cuts)), len(body)]
    for start, end in itertools.pairwise(edges):
        extractor.feed(body[start:end])
    return extractor.close(), got


def index(count: int, *, base_after: int | None = None) -> bytes:
    parts = ["<!doctype html><title>Index</title><ul>"]
    for i in range(count):
        if i == base_after:
            parts.append('<base href="https://site.test/api/">')
        href = f"page-{i - 1}.html" if i % 9 == 4 else f"page-{i}.html"  # some repeats
        rel = ' rel="nofollow"' if i % 10 == 7 else ""
        parts.append(f'<li><a href="{href}"{rel}>Entry <em>{i}</em></a></li>')
    return "".join(parts).encode()


def test_every_distinct_link_is_reported_once_in_order_beyond_the_cap() -> None:
    facts, links = run(index(2_500))

    hrefs = [link.href.raw for link in links]
    assert len(hrefs) == len(set(hrefs)) == facts.links_seen - 2_500 // 9 - 1
    assert hrefs[-1] == "page-2499.html" and len(facts.links) == LINKS_CAP
    assert links[:LINKS_CAP] == list(facts.links)
    assert links[1_500] == Link(
        links[1_500].href, f"Entry {links[1_500].href.raw[5:-5]}", nofollow=False
    )


def test_a_base_before_the_cap_applies_to_every_link_as_in_the_facts() -> None:
    facts, links = run(index(300, base_after=150))

    assert links == list(facts.links)
    assert links[0].href.url == "https://site.test/api/page-0.html"


def test_without_on_links_nothing_changes() -> None:
    body = index(1_200)
    plain = PageExtractor(PAGE, content_type="text/html")
    plain.feed(body)

    assert plain.close() == run(body)[0]


@pytest.fixture
def small_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parse.builder.LINKS_CAP", 6)
    monkeypatch.setattr("parse.builder.LINK_BATCH", 4)


SMALL = index(60)


@pytest.mark.usefixtures("small_cap")
@settings(max_examples=60, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=len(SMALL)), max_size=20))
def test_any_chunking_reports_the_same_links(cuts: list[int]) -> None:
    assert run(SMALL, cuts)[1] == run(SMALL)[1]


@pytest.mark.parametrize(
    ("markup", "text", "image_alt"),
    [
        ('<a href="/a"><img src="logo.png" alt=" Our   logo "></a>', "", "Our logo"),
        ('<a href="/a"><img src="x.png"><img alt="second"></a>', "", "second"),
        ('<a href="/a"><img src="x.png" alt=""></a>', "", ""),
        ('<a href="/a"><img src="x.png"></a>', "", None),
        ('<a href="/a">Home <img alt="icon"></a>', "Home", "icon"),
        ('<a href="/a"></a><img alt="after the link">', "", None),
        ('<a href="/a"><template><img alt="inert"></template></a>', "", None),
        ('<a href="/a"><img alt="' + "w " * 150 + '"></a>', "", ("w " * 100).strip()),
    ],
)
def test_an_image_links_alt_is_reported_with_the_link(
    markup: str, text: str, image_alt: str | None
) -> None:
    facts, links = run(f"<!doctype html><p>{markup}".encode())

    assert [(link.text, link.image_alt) for link in links] == [(text, image_alt)]
    assert list(facts.links) == links
