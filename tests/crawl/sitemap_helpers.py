"""Test utilities for the sitemap parser and walk (kept out of the product, as h11 keeps its helpers)."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator

from crawl.sitemap_parser import SitemapDocument, SitemapParser

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def urlset(*locs: str, ns: str = NS) -> bytes:
    items = "".join(f"<url><loc>{loc}</loc></url>" for loc in locs)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {ns}>{items}</urlset>'.encode()


def index(*locs: str, ns: str = NS) -> bytes:
    items = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex {ns}>{items}</sitemapindex>'.encode()


def parse_chunks(chunks: Iterable[bytes], **caps: int) -> SitemapDocument:
    parser = SitemapParser(**caps)
    for chunk in chunks:
        parser.feed(chunk)
    return parser.close()


def parse_every_way(data: bytes, **caps: int) -> SitemapDocument:
    """Parse whole, one byte at a time and in 7-byte pieces (h11's `tr()`); all must agree."""
    whole = parse_chunks([data], **caps)
    bytewise = parse_chunks([data[i : i + 1] for i in range(len(data))], **caps)
    sevens = parse_chunks([data[i : i + 7] for i in range(0, len(data), 7)], **caps)
    assert whole == bytewise == sevens
    return whole


def gzip_bomb(gib: int = 1) -> Iterator[bytes]:
    """`gib` GiB of zeros as a gzip stream, made lazily: ~1 KiB of compressed bytes per MiB.

    After a full flush the compressor restarts its dictionary, so every further 1 MiB of zeros
    compresses to the same bytes; the stream is built from one block repeated, never in memory
    whole. The trailer is left off: a parser that honours its cap never gets there.
    """
    zeros = bytes(1 << 20)
    deflate = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    yield deflate.compress(zeros) + deflate.flush(zlib.Z_FULL_FLUSH)
    block = deflate.compress(zeros) + deflate.flush(zlib.Z_FULL_FLUSH)
    for _ in range(gib * 1024 - 1):
        yield block
