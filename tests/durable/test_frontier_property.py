"""Model-based property: random frontier operations against the scratchpad and a reference model.

The model is a dict url -> [state, chunk, level] moved only through `durable.frontier.next_state`,
so a URL the Durable Object leases, crawls or releases out of turn raises `IllegalFrontierMove`
here. After every operation the O(1) stats (`frontier_counts`) must equal the model's counts, and
every count the methods return (inserted, enqueued, released, claimed) must equal the model's. A
claim leases, in URL order, pending URLs of the lowest level any pending or leased URL is at
(link depth 0, then 1, then sitemap-only), and nothing while that level is only leased: the
level barrier (durable.scratchpad._LEASE_LEVEL).
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from durable.client import Scratchpad
from durable.frontier import INITIAL_STATE, FrontierEvent, FrontierState, next_state
from durable.records import DiscoveredUrl, FrontierStats, RecordBatch
from local_platform.runtime import LocalPlatform

URLS = [f"https://a.test/{i}" for i in range(8)]
some_urls = st.lists(st.sampled_from(URLS), max_size=6)
chunks = st.integers(min_value=1, max_value=4)
claims = st.tuples(st.just("claim"), chunks, st.integers(min_value=0, max_value=5))
operations: st.SearchStrategy[Any] = st.tuples(
    st.tuples(st.just("discover"), st.lists(st.sampled_from(URLS), min_size=3, max_size=8)),
).map(list) | st.just([])
operations = st.tuples(
    operations,
    st.lists(
        st.one_of(
            st.tuples(st.just("seed_start"), st.sampled_from(URLS)),
            st.tuples(st.just("seed_sitemap"), some_urls),
            st.tuples(st.just("discover"), some_urls),
            claims,
            claims,  # twice as likely: retried chunk numbers are the interesting part
            st.tuples(st.just("crawl"), some_urls),
            st.tuples(st.just("release"), some_urls),
            st.tuples(st.just("resume")),
        ),
        min_size=4,
        max_size=30,
    ),
).map(lambda parts: parts[0] + parts[1])


SITEMAP_LEVEL = 2  # after link depths 0 (the start URL) and 1 (discovered here)


class Model:
    def __init__(self) -> None:
        self.rows: dict[str, list[Any]] = {}  # url -> [state, chunk_no, level]

    def add(self, urls: list[str], level: int) -> int:
        new = [url for url in dict.fromkeys(urls) if url not in self.rows]
        for url in new:
            self.rows[url] = [INITIAL_STATE, None, level]
        return len(new)

    def link(self, urls: list[str], level: int) -> int:
        """Links: new URLs, and a pending URL found deeper (or by the sitemap only) takes the
        link's level (durable.scratchpad._ENQUEUE_LINKS)."""
        for url in urls:
            row = self.rows.get(url)
            if row is not None and row[0] is FrontierState.PENDING and row[2] > level:
                row[2] = level
        return self.add(urls, level)

    def claimable(self) -> list[str]:
        """What a claim leases first, in order: the lowest open level's pending URLs."""
        open_levels = [
            level
            for state, _, level in self.rows.values()
            if state in (FrontierState.PENDING, FrontierState.LEASED)
        ]
        if not open_levels:
            return []
        floor = min(open_levels)
        return sorted(
            url
            for url, (state, _, level) in self.rows.items()
            if state is FrontierState.PENDING and level == floor
        )

    def move(self, url: str, event: FrontierEvent, chunk: int | None = None) -> None:
        row = self.rows[url]
        row[0] = next_state(row[0], event)
        if event is FrontierEvent.LEASE:
            row[1] = chunk
        elif event is FrontierEvent.RELEASE:
            row[1] = None

    def in_state(self, state: FrontierState, chunk: int | None = None) -> list[str]:
        return [
            url
            for url, (s, c, _) in self.rows.items()
            if s is state and (chunk is None or c == chunk)
        ]

    def stats(self) -> FrontierStats:
        counts = Counter(state for state, _, _ in self.rows.values())
        return FrontierStats(
            seen=len(self.rows),
            pending=counts[FrontierState.PENDING],
            leased=counts[FrontierState.LEASED],
            crawled=counts[FrontierState.CRAWLED],
            links_truncated=False,
        )


async def apply(pad: Scratchpad, model: Model, op: tuple[Any, ...]) -> None:
    match op:
        case ("seed_start", url):
            assert (await pad.seed_start(url)).inserted == model.add([url], 0)
        case ("seed_sitemap", urls):
            assert (await pad.seed_sitemap_urls(urls)).inserted == model.add(urls, SITEMAP_LEVEL)
        case ("discover", urls):
            batch = RecordBatch(discovered=tuple(DiscoveredUrl(url, 1) for url in urls))
            assert (await pad.record_batch(batch)).enqueued == model.link(urls, 1)
        case ("claim", chunk, limit):
            await claim(pad, model, chunk, limit)
        case ("crawl", urls):
            await pad.record_batch(RecordBatch(crawled=tuple(urls)))
            for url in dict.fromkeys(urls):
                if url in model.rows:
                    model.move(url, FrontierEvent.CRAWL)
        case ("release", urls):
            leased = [
                url for url in dict.fromkeys(urls) if url in model.in_state(FrontierState.LEASED)
            ]
            for url in leased:
                model.move(url, FrontierEvent.RELEASE)
            assert (await pad.release_urls(urls)).released == len(leased)
        case ("resume",):
            chunks = [c for _, c, _ in model.rows.values() if c is not None]
            for url in model.in_state(FrontierState.LEASED):
                model.move(url, FrontierEvent.RELEASE)
            assert (await pad.prepare_resume()).last_chunk == max(chunks, default=0)


async def claim(pad: Scratchpad, model: Model, chunk: int, limit: int) -> None:
    held = model.in_state(FrontierState.LEASED, chunk)
    done = model.in_state(FrontierState.CRAWLED, chunk)
    claimable = model.claimable()
    result = await pad.claim_chunk(chunk, limit)
    got = [leased.url for leased in result.urls]
    if held:
        assert (sorted(got), result.is_retry) == (sorted(held), True)
    elif done:
        assert (got, result.is_retry) == ([], True)
    else:
        assert (got, result.is_retry) == (claimable[: max(limit, 0)], False)
        for url in got:
            model.move(url, FrontierEvent.LEASE, chunk)


_objects = itertools.count()


@settings(max_examples=100, deadline=None)
@given(ops=operations)
def test_frontier_follows_the_table_and_counts_stay_exact(
    runner: tuple[asyncio.AbstractEventLoop, LocalPlatform], ops: list[Any]
) -> None:
    loop, local = runner

    async def run() -> None:
        pad = Scratchpad.for_audit(local.env, f"frontier-prop-{next(_objects)}")
        model = Model()
        for op in ops:
            await apply(pad, model, op)
            assert await pad.stats() == model.stats(), op

    loop.run_until_complete(run())
