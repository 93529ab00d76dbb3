"""Differential property: finalize's SQL yields exactly the specification's issues, in order.

Random small crawls (statuses, fetch classes, redirect targets with cycles and self-redirects,
colliding titles/descriptions/hashes, canonicals, hreflangs, sitemap flags, link edges with
self-links and uncrawled endpoints, retried pages) go through `record_batch` into a fresh
scratchpad; `run_finalize_checks`, read page by page, must equal `audit.cross_page`.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from audit.cross_page import CrawledPage, HreflangLink, LinkEdge
from common.fetch_class import FetchClass
from local_platform.runtime import LocalPlatform
from tests.durable.test_finalize import AUDIT, finalize_all, specification, url, write_crawl

# A small URL space makes collisions (duplicates, cycles, return links) likely; "ghost" is never
# crawled, so it exercises targets and link sources that have no page row.
PATHS = ["", "a", "b", "c", "d", "e"]
crawled_urls = st.sampled_from([url(p) for p in PATHS])
any_urls = st.sampled_from([url(p) for p in [*PATHS, "ghost"]])


def mostly(common: Any, *rare: Any) -> st.SearchStrategy[Any]:
    """`common` about two times in three."""
    return st.sampled_from([common] * (2 * len(rare)) + list(rare))


def page_rows(**fields: st.SearchStrategy[Any]) -> st.SearchStrategy[CrawledPage]:
    varied = {
        "url": crawled_urls,
        "status_code": st.sampled_from([0, 100, 200, 204, 299, 301, 302, 308, 399, 404, 410, 500]),
        "fetch_class": mostly(FetchClass.OK, *[c for c in FetchClass if c != FetchClass.OK]),
        "redirect_url": st.none() | st.just("") | any_urls,
        "is_indexable": mostly(True, False),
        "canonical_url": st.none() | st.none() | st.just("") | any_urls,
        "title": st.sampled_from(["", "T1", "T2", "t1"]),
        "meta_description": st.sampled_from(["", "M1", "M2"]),
        "content_hash": st.none() | st.sampled_from(["", "h1", "h2"]),
        "word_count": st.sampled_from([0, 3]),
        "javascript_shell": mostly(False, True),
        "in_sitemap": st.booleans(),
        "hreflang": st.lists(
            st.builds(HreflangLink, st.sampled_from(["en", "de", "x-default"]), any_urls),
            max_size=4,
        ).map(tuple),
    }
    return st.builds(CrawledPage, **(varied | fields))


# Healthy pages feed duplicates, orphans, canonicals and hreflang; redirect rows feed chains,
# loops and link-to-redirect; anything else probes every filter.
pages = (
    page_rows(status_code=st.just(200), fetch_class=st.just(FetchClass.OK), redirect_url=st.none())
    | page_rows(status_code=st.sampled_from([301, 302, 308]), redirect_url=st.just("") | any_urls)
    | page_rows()
)
edges = st.lists(
    st.builds(LinkEdge, any_urls, any_urls) | any_urls.map(lambda u: LinkEdge(u, u)),  # self-links
    max_size=10,
)
crawls = st.fixed_dictionaries(
    {
        "pages": st.lists(pages, max_size=12),  # repeats: a retried fetch, the last row wins
        "edges": edges,
        "start_url": crawled_urls,
        "crawl_completed": mostly(True, False),
        "truncate": mostly(False, True),
        "blocked": st.lists(any_urls, max_size=3),
        "limit": st.sampled_from([2, 2000]),
        "max_bytes": st.sampled_from([300, 4 * 1024 * 1024]),  # 300: about one issue per page
    }
)


_objects = itertools.count()


async def finalize_random_crawl(
    local: LocalPlatform, crawl: dict[str, Any]
) -> list[dict[str, Any]]:
    pad = local.env.AUDIT_SCRATCHPAD.getByName(f"prop-{next(_objects)}")
    await write_crawl(pad, crawl["pages"], crawl["edges"], truncate=crawl["truncate"], batch_size=5)
    issues, _ = await finalize_all(
        pad,
        start_url=crawl["start_url"],
        crawl_completed=crawl["crawl_completed"],
        robots_blocked_sitemap_urls=crawl["blocked"],
        limit=crawl["limit"],
        max_bytes=crawl["max_bytes"],
    )
    return issues


@settings(max_examples=100, deadline=None)
@given(crawl=crawls)
def test_finalize_sql_equals_the_specification(
    runner: tuple[asyncio.AbstractEventLoop, LocalPlatform], crawl: dict[str, Any]
) -> None:
    loop, local = runner
    issues = loop.run_until_complete(finalize_random_crawl(local, crawl))

    assert issues == specification(
        crawl["pages"],
        crawl["edges"],
        audit_id=AUDIT,
        start_url=crawl["start_url"],
        crawl_completed=crawl["crawl_completed"],
        link_graph_complete=not crawl["truncate"],
        blocked=crawl["blocked"],
    )
