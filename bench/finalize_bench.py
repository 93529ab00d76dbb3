"""Finalize speed: all pages of `run_finalize_checks` over a synthetic crawl, on the local platform.

Run: `uv run python bench/finalize_bench.py [--links-per-page N] [--fragments-per-page F]
[--sizes 10000,50000]`. For 10,000 and 50,000 page rows (with N link edges per page, default 5,
and F link fragments per page, default 0, of which every other names no id of its target, like
the `#method.x` links of crawl_bench's ApiDocsSite, so F/2 `broken-fragment` issues a page) it
writes the crawl through `record_batch` (not timed),
then times reading the whole finalize result through the Durable Object RPC stub, cursor by
cursor, and prints the issue count, the number of result pages, and the time of the first page
alone (which also computes the totals). The local platform runs CPython's sqlite3; the Workers
runtime adds a JS boundary crossing per statement and per row, so treat these as relative
numbers. The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from durable.records import FragmentLink, FragmentTargets, RecordBatch
from local_platform.runtime import LocalPlatform
from tests.durable.test_finalize import AUDIT, write_crawl
from tests.durable.test_finalize_scale import synthetic_crawl
from urls.fragment import fragment_key

TARGET_IDS = 20  # ids on every page; the fragments linked to alternate between these and others


async def write_fragments(pad: object, urls: list[str], per_page: int) -> None:
    """Every page's target set and `per_page` link fragments to the pages after it."""
    ids = [f"item-{n}" for n in range(TARGET_IDS)]
    keys = tuple(sorted({fragment_key(i) for i in ids}))
    for start in range(0, len(urls), 200):
        sources = urls[start : start + 200]
        links = []
        for n, source in enumerate(sources, start):
            for k in range(per_page):
                target = urls[(n + 1 + k % 7) % len(urls)]
                fragment = ids[k % TARGET_IDS] if k % 2 == 0 else f"method.missing-{k}"
                key = fragment_key(fragment)
                links.append(FragmentLink(source, target, fragment, key, key))
        batch = RecordBatch(
            fragment_targets=tuple(FragmentTargets(url, keys) for url in sources),
            fragment_links=tuple(links),
        )
        await pad.record_batch(batch.to_dict())  # type: ignore[attr-defined]


async def time_finalize(
    local: LocalPlatform, name: str, n_pages: int, links_per_page: int, fragments: int
) -> tuple[float, float]:
    pad = local.env.AUDIT_SCRATCHPAD.getByName(f"bench-{name}")
    pages, edges = synthetic_crawl(n_pages, n_pages * links_per_page)
    await write_crawl(pad, pages, edges, batch_size=2_000)
    if fragments:
        await write_fragments(pad, [p.url for p in pages], fragments)
    options = {"audit_id": AUDIT, "start_url": pages[0].url, "crawl_completed": True}
    started, cpu_started = time.perf_counter(), time.process_time()
    result = await pad.run_finalize_checks(options)
    first_ms = (time.perf_counter() - started) * 1000
    issues, calls = len(result["issues"]), 1
    while result["next_cursor"] is not None:
        result = await pad.run_finalize_checks(options | {"cursor": result["next_cursor"]})
        issues, calls = issues + len(result["issues"]), calls + 1
    total_ms = (time.perf_counter() - started) * 1000
    cpu_ms = (time.process_time() - cpu_started) * 1000  # the process's: the pad runs in it
    print(
        f"{name}: {n_pages} pages, {len(edges)} links -> {issues} issues in {calls} pages; "
        f"first page {first_ms:.0f} ms, all pages {total_ms:.0f} ms (CPU {cpu_ms:.0f} ms)"
    )
    return total_ms, cpu_ms


def _name(n_pages: int) -> str:
    return f"{n_pages // 1000}k" if n_pages % 1000 == 0 else str(n_pages)


async def main(links_per_page: int, fragments: int, sizes: list[int]) -> None:
    with tempfile.TemporaryDirectory() as state:
        local = LocalPlatform(Path(state))
        try:
            timings = {
                _name(n): await time_finalize(local, _name(n), n, links_per_page, fragments)
                for n in sizes
            }
        finally:
            await local.close()
    print(
        " ".join(
            f"finalize_ms_{name}={ms:.0f} finalize_cpu_ms_{name}={cpu:.0f}"
            for name, (ms, cpu) in timings.items()
        )
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--links-per-page", type=int, default=5)
    parser.add_argument("--fragments-per-page", type=int, default=0)
    parser.add_argument("--sizes", default="10000,50000", help="page rows, comma-separated")
    opts = parser.parse_args()
    sizes = [int(n) for n in opts.sizes.split(",")]
    asyncio.run(main(opts.links_per_page, opts.fragments_per_page, sizes))
