"""crawl.chunk's soft deadline, on an injected clock: past it the chunk launches nothing more,
hands back what it never launched and reports `deadline_hit`, which it reports only when the
deadline stopped something."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from common import ports
from crawl.chunk import ChunkIO, ChunkPlan, ChunkReport, run_chunk
from crawl.page_pipeline import CrawlScope
from crawl.url_policy import UrlPolicy
from durable.records import Claim, FrontierStats, LeasedUrl, ReleaseResult, ResourceClaim
from tests.crawl.test_chunk_persist import SITE, NullD1, RecordingPad
from urls.private_hosts import PrivateHosts

DEADLINE_S = 3.0
HTML = {"content-type": "text/html; charset=utf-8"}


class Pad(RecordingPad):
    """A frontier holding `pages` and `resources`; records what comes back to it."""

    def __init__(self, pages: int, resources: int = 0) -> None:
        super().__init__()
        self.urls = [LeasedUrl(f"{SITE}p{n}", 1, False) for n in range(pages)]
        self.resources = tuple(f"{SITE}r{n}.css" for n in range(resources))
        self.released: list[str] = []
        self.released_resources: list[str] = []

    async def claim_chunk(self, _chunk_no: int, limit: int) -> Claim:
        return Claim(tuple(self.urls[:limit]), is_retry=False)

    async def claim_more(self, _chunk_no: int, _limit: int) -> Claim:
        return Claim((), is_retry=False)

    async def record_links(self, _batch: object) -> None:
        pass

    async def release_urls(self, urls: Sequence[str]) -> ReleaseResult:
        self.released.extend(urls)
        return ReleaseResult(len(urls))

    async def claim_resources(self, _chunk_no: int, _limit: int) -> ResourceClaim:
        return ResourceClaim(self.resources, is_retry=False, pending=0)

    async def record_resources(self, _checks: object) -> None:
        pass

    async def release_resources(self, urls: Sequence[str]) -> ReleaseResult:
        self.released_resources.extend(urls)
        return ReleaseResult(len(urls))

    async def stats(self) -> FrontierStats:
        return FrontierStats(0, 0, 0, 0, False)


class SlowSite:
    """Every request takes `seconds` on the chunk's clock, which it moves on."""

    def __init__(self, seconds: float) -> None:
        self.now = 0.0
        self.seconds = seconds

    def clock(self) -> float:
        return self.now

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        self.now += self.seconds
        body = b"<!doctype html><title>A page</title><p>text</p>"
        return ports.FetchResult(request.url, 200, HTML, body, False, 1.0)


async def chunk(pad: Pad, site: SlowSite, limit: int) -> ChunkReport:
    scope = CrawlScope("audit", UrlPolicy(SITE, private_hosts=PrivateHosts.ALLOW), True)
    plan = ChunkPlan(chunk_no=1, limit=limit, window_hint=5, soft_deadline_s=DEADLINE_S)
    io = ChunkIO(pad, NullD1(), site, clock=site.clock)  # type: ignore[arg-type]  # test doubles
    return await run_chunk(scope, plan, io)


@pytest.mark.parametrize(
    ("pages", "resources", "seconds", "attempted", "checked", "deadline_hit"),
    [
        # The window's 5 start at 0 s; when they end the clock reads 5 s, past the 3 s deadline:
        # the other 3 are never launched.
        (8, 0, 1.0, 5, 0, True),
        # Every URL started before the deadline and the limit is leased: nothing waited on it.
        (5, 0, 1.0, 5, 0, False),
        # The page ends at 0.5 s; a window of 5 checks starts then and ends at 3 s.
        (1, 12, 0.5, 1, 5, True),
    ],
)
async def test_past_the_deadline_a_chunk_launches_nothing_more_and_hands_it_back(
    pages: int,
    resources: int,
    seconds: float,
    attempted: int,
    checked: int,
    deadline_hit: bool,
) -> None:
    pad, site = Pad(pages, resources), SlowSite(seconds)
    report = await chunk(pad, site, limit=pages)
    assert site.now >= DEADLINE_S
    assert (report.claimed, report.attempted_in_chunk, report.resources_checked) == (
        pages,
        attempted,
        checked,
    )
    assert report.deadline_hit is deadline_hit
    assert pad.released == [url.url for url in pad.urls[attempted:]]
    assert report.released == len(pad.released)
    assert pad.released_resources == list(pad.resources[checked:])
