"""Peak traced memory of the HTML report (`--format html`) at 10k and 100k pages and issues: flat,
and under 10 MB.

Run: `uv run python bench/html_report_memory.py [--sizes 10000,100000]`.

One LocalPlatform (state in bench/.out/), seeded as bench/export_memory.py seeds it: a synthetic
completed audit with that many page rows and as many issue rows (four types), written straight
into the local D1 file, and each page's kept link graph (`audit_page_links`, auditdb.page_links):
`INLINKS` inlinks and `OUTLINKS` outlinks, the profile of bench/synthetic_site.py's pages (median
25 inlinks, 38 outlinks), so each per-URL section lists `service.page_links.view_limit` of each.
The report is then produced exactly as `siteaudit report ID --format html --output FILE` produces
it (cli/deliver.py: `service.html_report.export_html`), the chunks
written to a file under bench/.out/. tracemalloc runs only around the export. The rows of the
plain page table and of its JSON data island are then counted in the file and checked against
their caps (`service.page_table.TABLE_ROWS`, `DATA_ROWS`).

Target: the peak under 10 MB, and 100k within 1.5 x of 10k: the renderer walks the pages one keyset
page at a time (`service.lists.EXPORT_PAGE_SIZE`) into the charts' counts, keeps `TABLE_ROWS` page
rows for the table and the URLs of the first `service.html_pages.PAGE_VIEWS` pages (with their issue
types, from one walk of the issues) for the per-URL sections, writes the data island and the
sections from further walks one keyset page at a time and reads `PAGES_PER_TYPE` issues per type.

Last line: `html_10k_peak_mb=.. html_100k_peak_mb=.. html_10k_kb=.. html_100k_kb=.. ratio=..`
(ratio: 100k / 10k peak).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import time
import tracemalloc
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "src"))

from export_memory import parse_sizes, scratch_platform, seed_completed_audit
from report_formats_memory import written

from audit.link_graph import AnchorKind, PageLink, PageLinkLists, encode_links
from common.bindings import Env
from service.audits import LOCAL_OWNER
from service.html_report import export_html
from service.page_table import DATA_ROWS, TABLE_ROWS

TARGET_MB = 10.0
FLAT_RATIO = 1.5
ROW_MARKER = b"<tr><td>"  # a row of the plain page table (the charts' and runs' rows start with th)
ISLAND = '<script type="application/json" id="page-data">'
INLINKS, OUTLINKS = 25, 38


def page_links(n: int, size: int) -> PageLinkLists:
    """Page n's kept lists: its neighbours by number, with anchors of usual length."""
    url = page_url(n)
    inlinks = tuple(
        PageLink(page_url((n + k) % size), f"Page {(n + k) % size} link", AnchorKind.TEXT)
        for k in range(1, INLINKS + 1)
    )
    outlinks = tuple(
        PageLink(page_url((n + 7 * k) % size), f"Read page {(n + 7 * k) % size}", AnchorKind.TEXT,
                 status_code=200)
        for k in range(1, OUTLINKS + 1)
    )  # fmt: skip
    return PageLinkLists(url, INLINKS, OUTLINKS, inlinks, outlinks)


def page_url(n: int) -> str:
    return f"https://bench.example/section-{n // 100}/page-{n}.html"  # export_memory.page's


def seed_links(db_path: Path, audit_id: str, size: int) -> float:
    """Every page's row, straight into the D1 file; the bytes of its values per page."""
    rows = (
        (audit_id, lists.url, lists.inlinks_total, lists.outlinks_total,
         json.dumps(encode_links(lists.url, lists.inlinks), separators=(",", ":")),
         json.dumps(encode_links(lists.url, lists.outlinks), separators=(",", ":")))
        for lists in (page_links(n, size) for n in range(size))
    )  # fmt: skip
    with sqlite3.connect(db_path) as conn:
        conn.executemany(
            "INSERT INTO audit_page_links (audit_id, page_url, inlinks_total, outlinks_total, "
            "inlinks, outlinks) VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )
        (total,) = conn.execute(
            "SELECT SUM(length(CAST(audit_id AS BLOB)) + length(CAST(page_url AS BLOB)) "
            "+ length(CAST(inlinks AS BLOB)) + length(CAST(outlinks AS BLOB)) + 12) "
            "FROM audit_page_links WHERE audit_id = ?",
            (audit_id,),
        ).fetchone()
    return float(total) / size


async def measure(env: Env, audit_id: str, path: Path) -> tuple[float, int, int, float]:
    """(peak MB, bytes, plain page-table rows, seconds) of the report written to its end."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    started = time.perf_counter()
    export = await export_html(env, LOCAL_OWNER, audit_id)
    size, cells = await written(export.chunks, path, ROW_MARKER)
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return peak, size, cells, seconds


def island_rows(path: Path) -> int:
    """The rows of the page table's data island in the written report (read after measuring)."""
    text = path.read_text()
    start = text.index(ISLAND) + len(ISLAND)
    return len(json.loads(text[start : text.index("</script>", start)])["rows"])


async def run(sizes: list[int]) -> None:
    peaks: dict[int, float] = {}
    kilobytes: dict[int, float] = {}
    async with scratch_platform() as (platform, state):
        for size in sizes:
            audit_id = await seed_completed_audit(platform, size)
            per_page = seed_links(platform.databases["DB"].path, audit_id, size)
            print(f"seeded {size:,} pages' links: {per_page:,.0f} bytes of D1 values a page")
            peak, nbytes, rows, seconds = await measure(
                platform.core_env, audit_id, state / "report.html"
            )
            assert rows == min(size, TABLE_ROWS), (size, rows)
            island = island_rows(state / "report.html")
            assert island == min(size, DATA_ROWS), (size, island)
            peaks[size], kilobytes[size] = peak, nbytes / 1024
            print(
                f"html {size:>7,} pages and issues: {nbytes / 1024:7.0f} KB in "
                f"{seconds:5.1f} s, peak traced {peak:.2f} MB ({rows} table rows, {island} in "
                "the data island)"
            )
    small, large = sizes[0], sizes[-1]
    ratio = peaks[large] / peaks[small]
    worst = max(peaks.values())
    print(f"target: peak < {TARGET_MB} MB ({worst:.2f}), 100k <= {FLAT_RATIO} x 10k ({ratio:.2f})")
    print(
        " ".join(f"html_{s // 1000}k_peak_mb={p:.2f}" for s, p in peaks.items())
        + " "
        + " ".join(f"html_{s // 1000}k_kb={k:.0f}" for s, k in kilobytes.items())
        + f" ratio={ratio:.2f}"
    )


def main() -> None:
    asyncio.run(run(parse_sizes(__doc__.splitlines()[0])))


if __name__ == "__main__":
    main()
