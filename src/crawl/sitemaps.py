"""Sitemap discovery: the public surface of `sitemap_parser` (bytes → one document) and
`sitemap_walk` (which documents to fetch, and what they held). Import from here.

    walk = SitemapWalk(normalise, same_site, max_urls=discovered_url_cap(max_pages))
    walk.add_seeds(sitemap_seeds(origin, robots_sitemap_lines), origin)
    while not walk.done:
        for request in walk.next_requests(SITEMAP_CONCURRENCY):
            ...fetch request.url; walk.receive(...) or begin/feed/complete, or walk.fail(...)
        while batch := walk.drain_urls(SEED_RPC_BATCH):
            ...seed the scratchpad with batch
    summary = walk.summary()  # the step output: outcomes and counts, no URL lists
"""

from crawl.sitemap_parser import (
    MAX_LOC_CHARS,
    MAX_SITEMAP_BYTES,
    MAX_URLS_PER_SITEMAP,
    ParseError,
    SitemapDocument,
    SitemapEntry,
    SitemapKind,
    SitemapParser,
    SitemapUsageError,
)
from crawl.sitemap_walk import (
    MAX_DISCOVERED_URLS,
    MAX_SITEMAP_DEPTH,
    MAX_SITEMAP_DOCS,
    SEED_RPC_BATCH,
    SITEMAP_CONCURRENCY,
    DocumentOutcome,
    DocumentResult,
    SitemapBody,
    SitemapRequest,
    SitemapWalk,
    SitemapWalkSummary,
    SitemapWalkUsageError,
    discovered_url_cap,
    sitemap_seeds,
)

__all__ = [
    "MAX_DISCOVERED_URLS",
    "MAX_LOC_CHARS",
    "MAX_SITEMAP_BYTES",
    "MAX_SITEMAP_DEPTH",
    "MAX_SITEMAP_DOCS",
    "MAX_URLS_PER_SITEMAP",
    "SEED_RPC_BATCH",
    "SITEMAP_CONCURRENCY",
    "DocumentOutcome",
    "DocumentResult",
    "ParseError",
    "SitemapBody",
    "SitemapDocument",
    "SitemapEntry",
    "SitemapKind",
    "SitemapParser",
    "SitemapRequest",
    "SitemapUsageError",
    "SitemapWalk",
    "SitemapWalkSummary",
    "SitemapWalkUsageError",
    "discovered_url_cap",
    "sitemap_seeds",
]
