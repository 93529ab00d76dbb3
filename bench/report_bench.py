"""Full report memory: `service.reports.build_report` over 10,000 and 50,000 issue rows.

Run: `uv run python bench/report_bench.py`. For each size it writes a synthetic audit to the local
D1 (pages of 50 broken links each, seeded by tests/service/test_reports.py; not measured), then
builds the gzip report while `tracemalloc` traces Python allocations, and prints the JSON size,
the gzip size, the time and the peak traced memory. The builder holds one keyset page of rows plus
the compressed output, so the peak should track the gzip size plus a page, far below the JSON
document. sqlite3's own C buffers are not traced. The last line is machine-readable.
"""

from __future__ import annotations

import asyncio
import gzip
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from local_platform.runtime import LocalPlatform
from service.reports import build_report
from tests.service.test_reports import seed

SIZES = {"10k": 10_000, "50k": 50_000}
ISSUES_PER_PAGE = 50
MB = 1024 * 1024


async def measure(local: LocalPlatform, name: str, n_issues: int) -> tuple[float, float, float]:
    pages = n_issues // ISSUES_PER_PAGE
    audit = await seed(local.env, f"bench-{name}", "bench", pages, ISSUES_PER_PAGE)
    tracemalloc.start()
    started = time.perf_counter()
    body = await build_report(local.env, audit)
    elapsed_s = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    json_mb, gzip_mb, peak_mb = len(gzip.decompress(body)) / MB, len(body) / MB, peak / MB
    print(
        f"{name}: {n_issues} issues -> JSON {json_mb:.1f} MB, gzip {gzip_mb:.2f} MB "
        f"in {elapsed_s:.1f} s; peak traced {peak_mb:.1f} MB"
    )
    return json_mb, gzip_mb, peak_mb


async def main() -> None:
    with tempfile.TemporaryDirectory() as state:
        local = LocalPlatform(Path(state))
        try:
            figures = {name: await measure(local, name, n) for name, n in SIZES.items()}
        finally:
            await local.close()
    print(
        " ".join(
            f"json_mb_{name}={j:.1f} gzip_mb_{name}={g:.2f} peak_mb_{name}={p:.1f}"
            for name, (j, g, p) in figures.items()
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
