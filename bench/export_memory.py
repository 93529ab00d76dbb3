"""Peak traced memory of a streamed export at 10k and 100k rows: flat, and under 10 MB.

Run: `uv run python bench/export_memory.py [--sizes 10000,100000]`.

One LocalPlatform (state in bench/.out/). For each size a synthetic completed audit gets that many
page rows and as many issue rows, written straight into the local D1's SQLite file in one
transaction (the bench measures the export, not the crawl). Then `GET /api/audits/{id}/pages.csv`
and `GET /api/audits/{id}/issues.ndjson` go through the whole Worker stack as `siteaudit serve`
runs it, minus the socket: `Default.fetch` (entry.py) → `api.app.handle_request` →
`service.exports` over the keyset walk → the pull-based body (`entry.PulledBody` on the local
`js.ReadableStream`), read chunk by chunk as the HTTP server would send it. tracemalloc runs only
around each export (the seeding is not traced); the row count read back is checked.

Target (issue 10 item 7): every peak under 10 MB, and 100k within 1.5 x of 10k (flat: the Worker
holds one keyset page of rows, `service.lists.EXPORT_PAGE_SIZE`, whatever the audit's size).

Last line: `pages_10k_peak_mb=.. pages_100k_peak_mb=.. issues_10k_peak_mb=.. issues_100k_peak_mb=..
ratio=..` (ratio: the larger of the two 100k / 10k peaks).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
import tracemalloc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "src"))

from auditdb import repository
from auditdb.records import AuditRecord, AuditStatus, IssueRecord, PageRecord
from local_platform.http import Request
from local_platform.runtime import LocalPlatform
from service.audits import LOCAL_OWNER

TARGET_MB = 10.0
FLAT_RATIO = 1.5
ISSUE_TYPES = ["missing-meta-description", "thin-content", "title-too-long", "missing-h1"]


def page(audit_id: str, n: int) -> PageRecord:
    url = f"https://bench.example/section-{n // 100}/page-{n}.html"
    return PageRecord(
        f"{audit_id}-p{n}",
        audit_id,
        url,
        "2026-12-01T00:00:00.000Z",
        status_code=200 if n % 50 else 404,
        final_url=url,
        content_type="text/html; charset=utf-8",
        is_html=True,
        response_time_ms=120 + n % 300,
        html_bytes=14_000 + n % 5000,
        title=f"Page {n} of the synthetic bench site, a title of usual length",
        meta_description="A meta description of about the length search engines show. " * 2,
        canonical_url=url,
        html_lang="en",
        h1_count=1,
        h2_count=4,
        heading_order=[1, 2, 2, 3, 2, 2],
        word_count=800 + n % 700,
        content_hash=f"{n:064x}",
        images_total=6,
        internal_link_count=40,
        external_link_count=3,
    )


def issue(audit_id: str, row: PageRecord, n: int) -> IssueRecord:
    kind = ISSUE_TYPES[n % len(ISSUE_TYPES)]
    return IssueRecord(f"{row.id}-{kind}", audit_id, row.url, kind, "warning", row.id)


def seed(db_path: Path, audit_id: str, size: int) -> None:
    """`size` pages and `size` issues in one transaction, straight into the D1 file."""
    first_page, first_issue = page(audit_id, 0), issue(audit_id, page(audit_id, 0), 0)
    with sqlite3.connect(db_path) as conn:
        for table, sample, rows in (
            ("audit_pages", first_page, (page(audit_id, n).to_row() for n in range(size))),
            (
                "audit_issues",
                first_issue,
                (issue(audit_id, page(audit_id, n), n).to_row() for n in range(size)),
            ),
        ):
            columns = list(sample.to_row())
            sql = (
                f"INSERT INTO {table} ({', '.join(columns)}) "
                f"VALUES ({', '.join(':' + c for c in columns)})"
            )
            conn.executemany(sql, rows)


async def seed_completed_audit(platform: LocalPlatform, size: int) -> str:
    """A completed audit `bench-<size>` of the local owner with `size` pages and issues; its id."""
    audit_id = f"bench-{size}"
    audit = AuditRecord(
        audit_id,
        "https://bench.example/",
        "2026-12-01T00:00:00.000Z",
        LOCAL_OWNER,
        status=AuditStatus.COMPLETED,
    )
    await repository.insert_audit(platform.core_env.DB, audit)
    seed(platform.databases["DB"].path, audit_id, size)
    return audit_id


@asynccontextmanager
async def scratch_platform() -> AsyncIterator[tuple[LocalPlatform, Path]]:
    """A LocalPlatform on a temporary state folder under bench/.out/, closed and removed after."""
    out = BENCH / ".out"
    out.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out) as state:
        platform = LocalPlatform(Path(state))
        try:
            yield platform, Path(state)
        finally:
            await platform.close()


def parse_sizes(description: str) -> list[int]:
    """The `--sizes 10000,100000` option every memory bench takes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--sizes", default="10000,100000")
    return [int(s) for s in parser.parse_args().sizes.split(",")]


async def export(platform: LocalPlatform, key: str, path: str) -> tuple[float, int, int, float]:
    """(peak MB, bytes, lines, seconds) of one export read to its end through Default.fetch."""
    request = Request(f"http://siteaudit.local{path}", headers={"authorization": f"Bearer {key}"})
    tracemalloc.start()
    tracemalloc.reset_peak()
    started = time.perf_counter()
    response = await platform.fetch(request)
    assert response.status == 200, response.status
    size = lines = 0
    async for chunk in response.body:  # type: ignore[union-attr]
        data = chunk.to_bytes()
        size += len(data)
        lines += data.count(b"\n")
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return peak, size, lines, seconds


async def run(sizes: list[int]) -> None:
    out = BENCH / ".out"
    out.mkdir(exist_ok=True)
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(dir=out) as state:
        platform = LocalPlatform(Path(state))
        try:
            key = await platform.local_key()
            db_path = platform.databases["DB"].path
            for size in sizes:
                audit_id = f"bench-{size}"
                audit = AuditRecord(
                    audit_id, "https://bench.example/", "2026-12-01T00:00:00.000Z", LOCAL_OWNER
                )
                await repository.insert_audit(platform.core_env.DB, audit)
                started = time.perf_counter()
                seed(db_path, audit_id, size)
                print(f"seeded {size:,} pages and issues in {time.perf_counter() - started:.1f} s")
                for what, fmt, header in (("pages", "csv", 1), ("issues", "ndjson", 0)):
                    peak, nbytes, lines, seconds = await export(
                        platform, key, f"/api/audits/{audit_id}/{what}.{fmt}"
                    )
                    assert lines == size + header, (what, size, lines)
                    label = f"{what}_{size // 1000}k"
                    figures[label] = peak
                    print(
                        f"{what}.{fmt} {size:>7,} rows: {nbytes / 2**20:7.1f} MB sent in "
                        f"{seconds:5.1f} s, peak traced {peak:.2f} MB"
                    )
        finally:
            await platform.close()
    print_figures(figures, sizes, ("pages", "issues"))


def print_figures(figures: dict[str, float], sizes: list[int], names: tuple[str, ...]) -> None:
    """The verdict against the targets, then the `key=value` line: each name's peak at each size
    (`<name>_<N>k`) and the worst ratio of the largest size's peak to the smallest's."""
    small, large = f"{sizes[0] // 1000}k", f"{sizes[-1] // 1000}k"
    ratio = max(figures[f"{name}_{large}"] / figures[f"{name}_{small}"] for name in names)
    worst = max(figures.values())
    print(
        f"target: every peak < {TARGET_MB} MB ({worst:.2f}), 100k <= {FLAT_RATIO} x 10k ({ratio:.2f})"
    )
    print(" ".join(f"{k}_peak_mb={v:.2f}" for k, v in figures.items()) + f" ratio={ratio:.2f}")


def main() -> None:
    asyncio.run(run(parse_sizes(__doc__.splitlines()[0])))


if __name__ == "__main__":
    main()
