"""The live progress feed in the scratchpad: newest crawled URLs first, at most 300, no repeats."""

from __future__ import annotations

import pytest

from durable.client import Scratchpad
from durable.progress_feed import FEED_SIZE as PROGRESS_FEED_SIZE
from durable.records import CrawledEntry, RecordBatch
from local_platform.runtime import LocalPlatform


@pytest.fixture
def pad(platform: LocalPlatform) -> Scratchpad:
    return Scratchpad.for_audit(platform.env, "audit-feed")


def entry(n: int, status: int = 200) -> CrawledEntry:
    return CrawledEntry(
        f"https://a.test/{n}", status, "ok", 10 + n, f"2026-12-01T00:00:{n % 60:02d}Z"
    )


def batch(*entries: CrawledEntry) -> RecordBatch:
    return RecordBatch(crawled=tuple(e.url for e in entries), progress=entries)


async def test_an_empty_feed(pad: Scratchpad) -> None:
    feed = await pad.recent_pages()
    assert feed.recent == () and feed.stats.crawled == 0


async def test_newest_first_and_limited(pad: Scratchpad) -> None:
    await pad.record_batch(batch(entry(1), entry(2)))
    await pad.record_batch(batch(entry(3, status=404)))
    feed = await pad.recent_pages()
    assert feed.recent == (entry(3, status=404), entry(2), entry(1))
    assert (await pad.recent_pages(limit=2)).recent == (entry(3, status=404), entry(2))


async def test_a_replayed_batch_moves_its_urls_to_the_front_instead_of_repeating_them(
    pad: Scratchpad,
) -> None:
    await pad.record_batch(batch(entry(1), entry(2)))
    await pad.record_batch(batch(entry(3)))
    await pad.record_batch(batch(entry(1), entry(2)))  # a retried chunk rewrites its pages
    assert [e.url for e in (await pad.recent_pages()).recent] == [
        "https://a.test/2",
        "https://a.test/1",
        "https://a.test/3",
    ]


async def test_only_the_newest_feed_size_are_kept(pad: Scratchpad) -> None:
    for start in range(0, PROGRESS_FEED_SIZE + 50, 25):
        await pad.record_batch(batch(*(entry(n) for n in range(start, start + 25))))
    feed = await pad.recent_pages(limit=1000)
    newest = PROGRESS_FEED_SIZE + 49  # the last batch starts at PROGRESS_FEED_SIZE + 25
    assert len(feed.recent) == PROGRESS_FEED_SIZE
    assert feed.recent[0].url == f"https://a.test/{newest}"
    assert feed.recent[-1].url == f"https://a.test/{newest - PROGRESS_FEED_SIZE + 1}"
