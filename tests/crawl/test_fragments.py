"""A page's part in the broken-fragment check: complete target sets, and the fragments of its
internal links as they stream out of the extractor (crawl.page_links)."""

from __future__ import annotations

from crawl.fragments import fragment_targets
from durable.records import FragmentLink
from parse.facts import LINKS_CAP
from parse.parity import extract
from tests.support.streamed_links import page_links
from urls.fragment import fragment_key, fragment_keys

PAGE_URL = "https://a.test/docs/page"


def fragment_links(html: str) -> list[FragmentLink]:
    return page_links(html.encode(), PAGE_URL).fragments


def links(html: str) -> list[tuple[str, str]]:
    return [(link.target_url, link.fragment) for link in fragment_links(html)]


def test_internal_fragments_in_document_order_once_each() -> None:
    html = (
        "<a href='#intro'>a</a><a href='other#Sec%202'>b</a><a href='/x#Sec 2'>c</a>"
        "<a href='other#Sec%202'>dup</a><a href='https://a.test/docs/other#Sec%202'>same</a>"
        "<a href='https://b.test/p#x'>external</a><a href='/y'>none</a><a href='/y#'>empty</a>"
        "<a href='/y#TOP'>top</a><a href='#top'>top</a><a href='mailto:a@b#x'>m</a>"
    )
    assert links(html) == [
        (PAGE_URL, "intro"),
        ("https://a.test/docs/other", "Sec%202"),
        ("https://a.test/x", "Sec%202"),
    ]


def test_links_carry_both_lookup_keys() -> None:
    found = fragment_links("<a href='#a b'>x</a>")
    assert found == [FragmentLink(PAGE_URL, PAGE_URL, "a%20b", *(fragment_keys("a%20b") or ()))]


def test_every_bare_fragment_link_of_a_long_page_is_kept() -> None:
    count = 3 * LINKS_CAP  # the facts keep LINKS_CAP of them; the stream has no cap
    html = "".join(f"<a href='#s{i}'>{i}</a><a href='#s{i // 2}'>again</a>" for i in range(count))
    assert links(html) == [(PAGE_URL, f"s{i}") for i in range(count)]
    assert len(extract(html.encode(), page_url=PAGE_URL).fragment_links) == LINKS_CAP


def test_a_base_href_moves_same_document_links() -> None:
    html = "<base href='/elsewhere/'><a href='#x'>x</a>"
    assert links(html) == [("https://a.test/elsewhere/", "x")]


def test_target_sets_are_sent_only_when_complete() -> None:
    facts = extract(b"<p id=x>" + b"y" * 100, page_url=PAGE_URL)
    sent = fragment_targets(PAGE_URL, facts, body_complete=True)
    assert sent is not None and sent.keys == (fragment_key("x"),)
    assert fragment_targets(PAGE_URL, facts, body_complete=False) is None
    cut = extract(b"<p id=x>" + b"y" * 100, page_url=PAGE_URL, max_bytes=50)
    assert fragment_targets(PAGE_URL, cut, body_complete=True) is None
    assert fragment_targets(PAGE_URL, None, body_complete=True) is None
