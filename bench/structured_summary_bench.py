"""The structured-data summary's cost at finalize: `auditdb.structured_data.summary_of` over
10,000 and 50,000 page rows on the local D1 (SQLite, as D1 runs it).

Run: `uv run python bench/structured_summary_bench.py`. For each size it writes a synthetic audit
(not measured): every page with structured data, one to three of 40 types, one or two of the 12
rich-result features, a few findings of one to three kinds, and one structured-data issue on
every fourth page. Then it times the summary (best of 3), which walks the audit's page rows once
per statement and its issue rows once. The last line is machine-readable.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from audit.catalogue import IssueType
from auditdb import repository
from auditdb.records import AuditRecord, IssueRecord, PageRecord
from auditdb.structured_data import summary_of
from common.bindings import D1Database
from local_platform.runtime import LocalPlatform
from structured.findings import FindingKind, RichResultFeature

SIZES = {"10k": 10_000, "50k": 50_000}
TYPES = [f"Type{n}" for n in range(40)]
FEATURES = [str(f) for f in RichResultFeature]
KINDS = [str(k) for k in FindingKind]
BATCH = 500


def page(audit_id: str, n: int) -> PageRecord:
    return PageRecord(
        f"{audit_id}-p{n}",
        audit_id,
        f"https://a.test/{n}",
        "2026-12-01T00:00:00.000Z",
        200,
        is_html=True,
        has_structured_data=True,
        structured_types=TYPES[n % 40 : n % 40 + 1 + n % 3],
        eligible_features=FEATURES[n % 12 : n % 12 + 1 + n % 2],
        structured_findings={KINDS[(n + k) % 12]: 1 + k for k in range(1 + n % 3)},
        structured_errors=n % 3,
        structured_warnings=n % 2,
    )


def issue(audit_id: str, p: PageRecord) -> IssueRecord:
    kind = IssueType.STRUCTURED_DATA_INVALID_VALUE
    details = {"findingCount": 2}
    return IssueRecord(f"{p.id}-i", audit_id, p.url, str(kind), "warning", p.id, details)


async def seed(db: D1Database, audit_id: str, pages: int) -> None:
    await repository.insert_audit(db, AuditRecord(audit_id, "https://a.test/", "t"))
    for start in range(0, pages, BATCH):
        rows = [page(audit_id, n) for n in range(start, min(start + BATCH, pages))]
        issues = [issue(audit_id, p) for n, p in enumerate(rows, start) if n % 4 == 0]
        await repository.write_crawled_pages(db, rows, issues)


async def measure(db: D1Database, name: str, pages: int) -> float:
    audit_id = f"bench-{name}"
    await seed(db, audit_id, pages)
    times = []
    for _ in range(3):
        started = time.perf_counter()
        summary = await summary_of(db, audit_id)
        times.append(time.perf_counter() - started)
    assert summary.pages == pages
    best_ms = min(times) * 1000
    print(
        f"{name}: {pages} pages, {summary.types_total} types, "
        f"{sum(k.findings for k in summary.kinds)} findings -> summary in {best_ms:.0f} ms"
    )
    return best_ms


async def main() -> None:
    with tempfile.TemporaryDirectory() as state:
        local = LocalPlatform(Path(state))
        try:
            db: D1Database = local.env.DB
            figures = {name: await measure(db, name, n) for name, n in SIZES.items()}
        finally:
            await local.close()
    print(" ".join(f"summary_ms_{name}={ms:.0f}" for name, ms in figures.items()))


if __name__ == "__main__":
    asyncio.run(main())
