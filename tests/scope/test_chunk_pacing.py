"""crawl.chunk keeps the audit's rate per host and its concurrency (crawl.pacing): requests to one
host start at least 1/rate apart, and no more than `concurrency` are in flight. Gaps are checked
as lower bounds on the monotonic clock, which load can only widen."""

from __future__ import annotations

import asyncio
import time

import pytest

from common import ports
from crawl.chunk import ChunkIO, ChunkPlan, run_chunk
from crawl.host_robots import HostRobots
from crawl.page_pipeline import CrawlScope
from crawl.url_policy import UrlPolicy
from durable.records import DiscoveredUrl, LinkBatch
from tests.crawl.test_chunk_deadline import HTML, Pad
from tests.crawl.test_chunk_persist import SITE, NullD1
from urls.private_hosts import PrivateHosts


class TimedSite:
    """Answers every request after `seconds`, noting when each started and how many overlapped."""

    def __init__(self, seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.starts: list[float] = []
        self.in_flight = self.most_in_flight = 0

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        self.starts.append(time.monotonic())
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        await asyncio.sleep(self.seconds)
        self.in_flight -= 1
        body = b"<!doctype html><title>A page</title><p>text</p>"
        return ports.FetchResult(request.url, 200, HTML, body, False, 1.0)


async def _chunk(site: TimedSite, pages: int, **plan: object) -> None:
    scope = CrawlScope("audit", UrlPolicy(SITE, private_hosts=PrivateHosts.ALLOW), True)
    chunk_plan = ChunkPlan(chunk_no=1, limit=pages, window_hint=10, **plan)  # type: ignore[arg-type]
    io = ChunkIO(Pad(pages), NullD1(), site)  # type: ignore[arg-type]  # test doubles
    report = await run_chunk(scope, chunk_plan, io)
    assert report.attempted_in_chunk == pages


async def test_requests_to_one_host_start_at_least_one_over_the_rate_apart() -> None:
    site = TimedSite()
    await _chunk(site, 6, rate_per_s=20.0)
    gaps = [later - earlier for earlier, later in zip(site.starts, site.starts[1:], strict=False)]
    assert len(site.starts) == 6 and min(gaps) >= 0.05 - 0.002


async def test_a_rate_is_kept_while_slow_fetches_are_in_flight() -> None:
    # Fetches take longer than the interval: the pacer must not wait for one to end.
    site = TimedSite(seconds=0.2)
    started = time.monotonic()
    await _chunk(site, 4, rate_per_s=20.0)
    assert site.most_in_flight > 1  # the next started before the last had ended
    gaps = [later - earlier for earlier, later in zip(site.starts, site.starts[1:], strict=False)]
    assert min(gaps) >= 0.05 - 0.002 and time.monotonic() - started >= 0.15


@pytest.mark.parametrize("concurrency", [1, 2, 3])
async def test_no_more_than_concurrency_fetches_are_in_flight(concurrency: int) -> None:
    site = TimedSite(seconds=0.01)
    await _chunk(site, 8, concurrency=concurrency)
    assert site.most_in_flight == concurrency


async def test_the_user_agent_is_the_audits() -> None:
    seen: list[str] = []

    class Site(TimedSite):
        async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
            seen.append(request.headers["user-agent"])
            return await super().fetch(request)

    await _chunk(Site(), 2, user_agent="StagingBot/1.0")
    assert seen == ["StagingBot/1.0", "StagingBot/1.0"]


async def test_another_hosts_robots_txt_is_read_once_and_applied_to_its_urls() -> None:
    read: list[str] = []

    async def robots_of(origin: str) -> str:
        read.append(origin)
        return "User-agent: *\nDisallow: /private/\n"

    policy = UrlPolicy("https://www.example.co.uk/", subdomains=True)
    robots = HostRobots(policy, robots_of)
    urls = [
        "https://www.example.co.uk/private/a",  # the start host: the policy judged it
        "https://blog.example.co.uk/private/b",
        "https://blog.example.co.uk/c",
    ]
    batch = LinkBatch(discovered=tuple(DiscoveredUrl(url) for url in urls))

    kept = await robots.batch(batch)

    assert [item.url for item in kept.discovered] == [urls[0], urls[2]]
    assert read == ["https://blog.example.co.uk"]
    assert robots.counts() == {"robots_disallowed": 1}
    unchanged = HostRobots(UrlPolicy("https://www.example.co.uk/"), robots_of)
    assert await unchanged.batch(batch) == batch
