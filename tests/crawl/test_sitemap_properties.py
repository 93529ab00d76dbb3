"""Properties of the sitemap parser over arbitrary bytes and arbitrary chunkings (h11's fuzz invariant:
content never raises, and how the bytes are split never changes the result)."""

from __future__ import annotations

import gzip

from hypothesis import given, settings
from hypothesis import strategies as st

from crawl.sitemap_parser import MAX_LOC_CHARS, SitemapDocument, SitemapParser
from tests.crawl.sitemap_helpers import parse_chunks

TOKENS = [
    b'<?xml version="1.0"?>',
    b"<urlset>",
    b"</urlset>",
    b'<urlset xmlns="urn:x">',
    b"<sitemapindex>",
    b"</sitemapindex>",
    b"<url>",
    b"</url>",
    b"<sitemap>",
    b"</sitemap>",
    b"<loc>",
    b"</loc>",
    b"<lastmod>",
    b"</lastmod>",
    b"https://example.com/",
    b"a",
    b"&amp;",
    b"&lt;",
    b"&bogus;",
    b"<![CDATA[x&y]]>",
    b" ",
    b"\n",
    b"\r\n",
    b"\xef\xbb\xbf",
    b"<!DOCTYPE urlset>",
    b"<!-- c -->",
    b"<sm:url>",
    b"</sm:url>",
    b"\xff",
    b"\x00",
    b"<",
    b">",
    b"2024-01-01",
    b"\xc3\xa4",
]

sitemapish = st.lists(st.sampled_from(TOKENS), max_size=40).map(b"".join)
maybe_gzipped = st.tuples(sitemapish, st.sampled_from(["plain", "gzip", "truncated-gzip"])).map(
    lambda pair: {
        "plain": pair[0],
        "gzip": gzip.compress(pair[0]),
        "truncated-gzip": gzip.compress(pair[0])[: max(2, len(pair[0]) // 2)],
    }[pair[1]]
)
bodies = st.one_of(st.binary(max_size=600), sitemapish, maybe_gzipped)
caps = st.fixed_dictionaries(
    {}, optional={"max_bytes": st.integers(0, 400), "max_urls": st.integers(0, 4)}
)


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


def check_invariants(doc: SitemapDocument, parser: SitemapParser) -> None:
    assert doc.size <= parser.max_bytes + 1
    assert len(doc.entries) <= doc.url_count
    assert all(e.loc and len(e.loc) <= MAX_LOC_CHARS for e in doc.entries)
    if doc.oversized:
        assert (doc.entries, doc.url_count, doc.error) == ((), 0, None)


@settings(max_examples=400, deadline=None)
@given(data=bodies, cuts=st.lists(st.integers(0, 10_000), max_size=12), limits=caps)
def test_any_chunking_gives_the_same_document(
    data: bytes, cuts: list[int], limits: dict[str, int]
) -> None:
    whole = parse_chunks([data], **limits)
    assert parse_chunks([data[i : i + 1] for i in range(len(data))], **limits) == whole
    assert parse_chunks(split(data, cuts), **limits) == whole
    check_invariants(whole, SitemapParser(**limits))


@settings(max_examples=200, deadline=None)
@given(data=bodies, limits=caps)
def test_the_document_round_trips_through_a_dict(data: bytes, limits: dict[str, int]) -> None:
    doc = parse_chunks([data], **limits)
    assert SitemapDocument.from_dict(doc.to_dict()) == doc
