"""The frontier's cost per crawl chunk at 1k vs 100k rows: AuditScratchpad claim + record.

Run: `uv run python bench/frontier_bench.py [--chunks 7] [--sizes 1000,100000]`.

One LocalPlatform; for each size an AuditScratchpad Durable Object (reached through the platform's
DO namespace, so every call crosses the local RPC boundary as in production) is filled with that
many frontier rows, half of them already crawled and half pending, as in the middle of a crawl.
Then each measured chunk makes the scratchpad calls one `crawl-chunk-N` step makes
(crawl/chunk.py): `claim_chunk(n, 200)`, `record_batch` per persisted sub-batch (5 pages, then 25s)
with each page's mirror row, 10 link edges and 10 discovered URLs (8 already known, 2 new), and the
closing `stats()`. Sizes alternate chunk by chunk; medians are reported. Target: 100k <= 2 x 1k.

Last line: `claim_record_ms_1k=.. claim_record_ms_100k=.. ratio=..`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "src"))

from common.settings import CRAWL
from crawl.persister import FIRST_PERSIST_BATCH_SIZE, PERSIST_BATCH_SIZE

CHUNK_TARGET_PAGES = CRAWL.chunk_target_pages
from durable.client import Scratchpad
from durable.records import DiscoveredUrl, LinkRow, RecordBatch
from local_platform.runtime import LocalPlatform

FILL_BATCH = 5000
LINKS_PER_PAGE = 10
KNOWN_PER_PAGE, NEW_PER_PAGE = 8, 2
RECORD_CALLS = 1 + -(
    -(CHUNK_TARGET_PAGES - FIRST_PERSIST_BATCH_SIZE) // PERSIST_BATCH_SIZE
)  # 5, then 25s


def url(i: int) -> str:
    return f"http://bench.example/section-{i // 100}/page-{i}.html"


def mirror(page_url: str, depth: int) -> dict[str, Any]:
    return {
        "url": page_url,
        "page_id": f"page-{hash(page_url) & 0xFFFFFFFF:08x}",
        "status_code": 200,
        "fetch_class": "ok",
        "final_url": None,
        "redirect_url": None,
        "is_html": 1,
        "is_indexable": 1,
        "canonical_url": page_url,
        "title": f"Title of {page_url}",
        "meta_description": "A page.",
        "content_hash": f"{hash(page_url) & 0xFFFFFFFFFFFF:012x}",
        "word_count": 500,
        "javascript_shell": 0,
        "depth": depth,
        "in_sitemap": 0,
        "hreflang_json": "[]",
    }


class Frontier:
    """One scratchpad of a given size, and a counter for minting new URLs."""

    def __init__(self, platform: LocalPlatform, size: int) -> None:
        self.pad = Scratchpad.for_audit(platform.env, f"frontier-bench-{size}")
        self.size = size
        self.next_url = 0
        self.next_chunk = 1

    async def fill(self) -> None:
        """`size` rows: all discovered as links, then the oldest half leased and crawled."""
        for start in range(0, self.size, FILL_BATCH):
            found = tuple(
                DiscoveredUrl(url(i), 2, url(0))
                for i in range(start, min(self.size, start + FILL_BATCH))
            )
            await self.pad.record_batch(RecordBatch(discovered=found))
        self.next_url = self.size
        crawled = 0
        while crawled < self.size // 2:
            claim = await self.pad.claim_chunk(
                self.next_chunk, min(FILL_BATCH, self.size // 2 - crawled)
            )
            self.next_chunk += 1
            urls = tuple(leased.url for leased in claim.urls)
            await self.pad.record_batch(RecordBatch(crawled=urls))
            crawled += len(urls)

    async def chunk(self) -> tuple[float, float, float]:
        """One chunk's scratchpad calls: (claim ms, record + stats ms, closing stats() ms)."""
        started = time.perf_counter()
        claim = await self.pad.claim_chunk(self.next_chunk, CHUNK_TARGET_PAGES)
        self.next_chunk += 1
        claimed = time.perf_counter()
        leased = [leased.url for leased in claim.urls]
        target, done = FIRST_PERSIST_BATCH_SIZE, 0
        while done < len(leased):
            await self.pad.record_batch(self._batch(leased[done : done + target]))
            done += target
            target = PERSIST_BATCH_SIZE
        recorded = time.perf_counter()
        await self.pad.stats()
        finished = time.perf_counter()
        return (claimed - started) * 1000, (finished - claimed) * 1000, (finished - recorded) * 1000

    def _batch(self, pages: list[str]) -> RecordBatch:
        links: list[LinkRow] = []
        discovered: list[DiscoveredUrl] = []
        for n, page in enumerate(pages):
            known = [
                url((self.next_url * 7 + n * 13 + k * 101) % self.next_url)
                for k in range(KNOWN_PER_PAGE)
            ]
            new = [url(self.next_url + k) for k in range(NEW_PER_PAGE)]
            self.next_url += NEW_PER_PAGE
            links += [
                LinkRow(page, target, False, "a link") for target in (known + new)[:LINKS_PER_PAGE]
            ]
            discovered += [DiscoveredUrl(target, 3, page) for target in known + new]
        return RecordBatch(
            crawled=tuple(pages),
            pages=tuple(mirror(page, 2) for page in pages),
            links=tuple(links),
            discovered=tuple(discovered),
        )


async def bench(sizes: list[int], chunks: int) -> dict[int, list[tuple[float, float, float]]]:
    with tempfile.TemporaryDirectory(dir=BENCH / ".out") as state:
        platform = LocalPlatform(Path(state), var_overrides={"ALLOW_PRIVATE_HOSTS": "loopback"})
        try:
            frontiers = [Frontier(platform, size) for size in sizes]
            for frontier in frontiers:
                started = time.perf_counter()
                await frontier.fill()
                stats = await frontier.pad.stats()
                print(
                    f"filled {frontier.size} rows in {time.perf_counter() - started:.1f} s: "
                    f"{stats.pending} pending, {stats.crawled} crawled",
                    flush=True,
                )
            for frontier in frontiers:
                await frontier.chunk()  # warm-up: first-call costs (statement cache, page cache)
            times: dict[int, list[tuple[float, float, float]]] = {size: [] for size in sizes}
            for rep in range(chunks):
                for frontier in frontiers if rep % 2 == 0 else frontiers[::-1]:
                    times[frontier.size].append(await frontier.chunk())
        finally:
            await platform.close()
    return times


def label(size: int) -> str:
    return f"{size // 1000}k" if size % 1000 == 0 else str(size)


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--chunks", type=int, default=7, help="measured chunks per size")
    args.add_argument("--sizes", default="1000,100000", help="two frontier sizes, small first")
    opts = args.parse_args()
    sizes = [int(x) for x in opts.sizes.split(",")]
    (BENCH / ".out").mkdir(exist_ok=True)
    times = asyncio.run(bench(sizes, opts.chunks))
    totals = {}
    for size in sizes:
        claim = statistics.median(c for c, _, _ in times[size])
        record = statistics.median(r for _, r, _ in times[size])
        stats = statistics.median(s for _, _, s in times[size])
        totals[size] = statistics.median(c + r for c, r, _ in times[size])
        print(
            f"{label(size):>5} rows: {totals[size]:7.1f} ms per chunk (claim {claim:.1f} ms, "
            f"{RECORD_CALLS} record_batch + stats {record:.1f} ms; "
            f"the closing stats() alone {stats:.1f} ms)"
        )
    small, large = sizes[0], sizes[-1]
    print(
        f"claim_record_ms_{label(small)}={totals[small]:.1f} "
        f"claim_record_ms_{label(large)}={totals[large]:.1f} "
        f"ratio={totals[large] / totals[small]:.2f}"
    )


if __name__ == "__main__":
    main()
