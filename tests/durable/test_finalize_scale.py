"""Finalize at scale: 20,000 page rows and 100,000 link edges finish and equal the specification.

No timing here (speed is measured by bench/finalize_bench.py); this proves the queries complete,
the paging holds together over many pages, and every referrer of a broken link is listed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from audit.cross_page import CrawledPage, HreflangLink, LinkEdge
from common.fetch_class import FetchClass
from local_platform.runtime import LocalPlatform
from tests.durable.test_finalize import finalize_all, specification, write_crawl

SITE = "https://big.test/"


def _url(i: int) -> str:
    return f"{SITE}p/{i}"


def _synthetic_page(i: int, n_pages: int, rng: random.Random) -> CrawledPage:
    """A mostly healthy page; every tenth kind of trouble appears a few hundred times."""
    roll = rng.random()
    if roll < 0.03:  # redirects, forming chains and loops through neighbours
        return CrawledPage(_url(i), 301, redirect_url=_url((i + rng.choice([1, 2, -1])) % n_pages))
    if roll < 0.05:
        return CrawledPage(_url(i), rng.choice([404, 410, 500]))
    if roll < 0.06:
        return CrawledPage(_url(i), 403, fetch_class=FetchClass.BLOCKED)
    alternate = _url((i + 1) % n_pages)
    return CrawledPage(
        _url(i),
        200,
        is_indexable=roll > 0.08,
        canonical_url=_url(rng.randrange(n_pages)) if roll > 0.95 else None,
        title=f"Title {i // 3}" if roll < 0.4 else f"Unique {i}",
        meta_description=f"Description {i // 50}" if roll < 0.6 else "",
        content_hash=f"hash-{i // 2}" if roll < 0.2 else f"unique-{i}",
        word_count=120,
        in_sitemap=roll < 0.5,
        hreflang=(HreflangLink("de", alternate),) if roll > 0.9 else (),
    )


def synthetic_crawl(
    n_pages: int, n_links: int, seed: int = 7
) -> tuple[list[CrawledPage], list[LinkEdge]]:
    """A seeded site of `n_pages` rows and about `n_links` distinct edges (no page is skipped
    as a source, and the home page reaches every tenth page, so orphans are a minority)."""
    rng = random.Random(seed)
    pages = [_synthetic_page(i, n_pages, rng) for i in range(n_pages)]
    edges = {LinkEdge(_url(0), _url(i)) for i in range(0, n_pages, 10)}
    while len(edges) < n_links:
        edges.add(LinkEdge(_url(rng.randrange(n_pages)), _url(rng.randrange(n_pages))))
    return pages, sorted(edges, key=lambda e: (e.source_url, e.target_url))


@pytest.fixture
def pad(platform: LocalPlatform) -> Any:
    return platform.env.AUDIT_SCRATCHPAD.getByName("finalize-scale")


@pytest.mark.slow
async def test_twenty_thousand_pages_and_a_hundred_thousand_links(pad: Any) -> None:
    pages, edges = synthetic_crawl(20_000, 100_000)
    await write_crawl(pad, pages, edges, batch_size=2_000)

    issues, parts = await finalize_all(pad, start_url=_url(0))

    assert issues == specification(pages, edges, start_url=_url(0))
    assert parts[0].counts is not None
    assert sum(parts[0].counts.values()) == len(issues)
    assert parts[0].counts["broken-internal-link"] > 2000  # no cap hides a referrer


def redirect_graph(n_rows: int, seed: int = 11) -> list[CrawledPage]:
    """About `n_rows` redirect rows: chains of 1-6 hops into content, chains into loops, and
    headless cycles of 1-4 members (self-redirects included)."""
    rng = random.Random(seed)
    pages: list[CrawledPage] = []
    while len(pages) < n_rows:
        base = f"{SITE}r/{len(pages)}/"
        chain = [f"{base}{k}" for k in range(rng.randint(1, 6))]
        shape = rng.choice(["content", "loop", "cycle"])
        if shape == "content":
            end = f"{base}final"
            pages.append(CrawledPage(end, 200))
        elif shape == "loop":
            end = rng.choice(chain)  # the head's own URL makes the whole chain headless
        else:
            end = chain[0]  # a headless cycle; a one-URL chain is a self-redirect
        pages.extend(
            CrawledPage(url, 301, redirect_url=(chain[k + 1] if k + 1 < len(chain) else end))
            for k, url in enumerate(chain)
        )
    return pages


async def test_ten_thousand_redirect_rows_walk_like_the_specification(pad: Any) -> None:
    pages = redirect_graph(12_000)
    await write_crawl(pad, pages, batch_size=2_000)

    issues, _ = await finalize_all(pad, crawl_completed=False)

    assert issues == specification(pages, crawl_completed=False)
    assert {"redirect-chain", "redirect-loop"} <= {i["issue_type"] for i in issues}
