"""Finalize speed: all pages of `run_finalize_checks` over a synthetic crawl, on the local platform.

Run: `uv run python bench/finalize_bench.py [--links-per-page N]`. For 10,000 and 50,000 page rows
(with N link edges per page, default 5) it writes the crawl through `record_batch` (not timed),
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

from local_platform.runtime import LocalPlatform
from tests.durable.test_finalize import AUDIT, write_crawl
from tests.durable.test_finalize_scale import synthetic_crawl

SIZES = {"10k": 10_000, "50k": 50_000}


async def time_finalize(
    local: LocalPlatform, name: str, n_pages: int, links_per_page: int
) -> float:
    pad = local.env.AUDIT_SCRATCHPAD.getByName(f"bench-{name}")
    pages, edges = synthetic_crawl(n_pages, n_pages * links_per_page)
    await write_crawl(pad, pages, edges, batch_size=2_000)
    options = {"audit_id": AUDIT, "start_url": pages[0].url, "crawl_completed": True}
    started = time.perf_counter()
    result = await pad.run_finalize_checks(options)
    first_ms = (time.perf_counter() - started) * 1000
    issues, calls = len(result["issues"]), 1
    while result["next_cursor"] is not None:
        result = await pad.run_finalize_checks(options | {"cursor": result["next_cursor"]})
        issues, calls = issues + len(result["issues"]), calls + 1
    total_ms = (time.perf_counter() - started) * 1000
    print(
        f"{name}: {n_pages} pages, {len(edges)} links -> {issues} issues in {calls} pages; "
        f"first page {first_ms:.0f} ms, all pages {total_ms:.0f} ms"
    )
    return total_ms


async def main(links_per_page: int) -> None:
    with tempfile.TemporaryDirectory() as state:
        local = LocalPlatform(Path(state))
        try:
            timings = {
                name: await time_finalize(local, name, n, links_per_page)
                for name, n in SIZES.items()
            }
        finally:
            await local.close()
    print(" ".join(f"finalize_ms_{name}={ms:.0f}" for name, ms in timings.items()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--links-per-page", type=int, default=5)
    asyncio.run(main(parser.parse_args().links_per_page))
