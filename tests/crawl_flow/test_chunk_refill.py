"""A chunk whose claim ran short leases more as its pages put links in the frontier, up to its
limit (crawl.chunk `_refill`): the first chunk, which can only claim the start URL, crawls a
full chunk instead of one page, and no chunk step ends while its limit allows more."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

import workflow.site_audit as site_audit
from common import settings
from crawl.chunk import ChunkReport
from local_platform.runtime import LocalPlatform
from tests.support.site_server import Reply, Site, html_page, serve_site

CHAIN = 12  # pages after the home page, each linking only the next


@pytest.fixture
def site() -> Iterator[Site]:
    routes = {
        f"/p{i}": Reply(body=html_page(f"Page {i} of the chain", f"<a href='/p{i + 1}'>next</a>"))
        for i in range(CHAIN - 1)
    }
    routes[f"/p{CHAIN - 1}"] = Reply(body=html_page("The last page of the chain", "<p>end</p>"))
    routes["/"] = Reply(body=html_page("Home of the chain", "<a href='/p0'>start</a>"))
    with serve_site(routes) as served:
        yield served


@pytest.fixture
def reports(monkeypatch: pytest.MonkeyPatch) -> list[ChunkReport]:
    monkeypatch.setattr(settings, "CRAWL", replace(settings.CRAWL, chunk_target_pages=5))
    seen: list[ChunkReport] = []
    real_run_chunk = site_audit.run_chunk  # type: ignore[attr-defined]  # the name where the workflow looks it up and the test patches it

    async def run_chunk(scope: Any, plan: Any, io: Any) -> ChunkReport:
        report = await real_run_chunk(scope, plan, io)
        seen.append(report)
        return report

    monkeypatch.setattr(site_audit, "run_chunk", run_chunk)
    return seen


async def audit(platform: LocalPlatform, site: Site, **options: Any) -> dict[str, Any]:
    status, body = await platform.request("POST", "/api/audits", {"url": site.url("/"), **options})
    assert status == 201, body
    audit_id = body["audit"]["id"]
    await platform.wait_for_workflow(audit_id, timeout_s=60)
    audit: dict[str, Any] = (await platform.request("GET", f"/api/audits/{audit_id}"))[1]["audit"]
    return audit


def crawled_per_chunk(reports: list[ChunkReport]) -> list[tuple[int, int, int]]:
    return [(r.chunk_no, r.claimed, r.attempted_in_chunk) for r in reports]


async def test_chunks_fill_up_to_their_limit_as_links_reach_the_frontier(
    platform: LocalPlatform, site: Site, reports: list[ChunkReport]
) -> None:
    got = await audit(platform, site)

    assert got["status"] == "completed" and got["pages_crawled"] == CHAIN + 1
    # Each chunk starts with one URL (a chain has one pending link at a time) and refills.
    assert crawled_per_chunk(reports) == [(1, 5, 5), (2, 5, 5), (3, 3, 3)]


async def test_refills_never_take_a_chunk_past_max_pages(
    platform: LocalPlatform, site: Site, reports: list[ChunkReport]
) -> None:
    got = await audit(platform, site, max_pages=7)

    assert got["status"] == "completed" and got["pages_crawled"] == 7
    assert crawled_per_chunk(reports) == [(1, 5, 5), (2, 2, 2)]
