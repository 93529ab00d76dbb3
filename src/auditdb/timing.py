"""An audit's response-time verdict in D1 (docs/timing.md): the pages to measure again, and the
`slow-response` and `slow-site` issues, the measured pages' times and the audits row's
`timing_summary` (migration 0020), written together.

Like the exposure checks (auditdb.exposure_issues), the write is one batch whose every statement
is conditioned on the audit still running: it deletes the audit's earlier timing issues and
inserts the new ones, so a retried or resumed step leaves no stale rows, and a cancelled audit is
left alone.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from audit.issue_ids import page_id
from audit.issues import DetectedIssue
from audit.timing import TIMING_ISSUE_TYPES
from auditdb.records import IssueRecord
from auditdb.repository import RUNNING_GUARD, crawled_among, replace_issues_while_running
from common.bindings import D1Database
from common.wire import JsonRecord, as_int, as_object, as_str

__all__ = [
    "CANDIDATES_SQL",
    "SAMPLE_SQL",
    "Candidate",
    "TimingSummary",
    "candidates",
    "count_over",
    "read_timing_summary",
    "record_timing",
    "sample_pages",
]

_ANSWERED_OK = "fetch_class = 'ok' AND status_code BETWEEN 200 AND 299"
# The site's shallowest HTML pages (crawl depth is the shortest link distance: the frontier is
# claimed level by level), the start URL first; then URL order, so every audit of an unchanged
# site measures the same pages.
SAMPLE_SQL = (
    f"SELECT url FROM audit_pages WHERE audit_id = ? AND {_ANSWERED_OK} AND is_html = 1 "
    "ORDER BY crawl_depth IS NULL, crawl_depth, url LIMIT ?"
)
# Pages the crawl measured over `bar`, slowest first: the likeliest to be slow again come first
# when there are more than the step measures. The count says how many there were in all.
CANDIDATES_SQL = (
    f"SELECT url, response_time_ms FROM audit_pages WHERE audit_id = ? AND {_ANSWERED_OK} "
    "AND response_time_ms > ? ORDER BY response_time_ms DESC, url LIMIT ?"
)
CANDIDATE_COUNT_SQL = (
    f"SELECT COUNT(*) AS n FROM audit_pages WHERE audit_id = ? AND {_ANSWERED_OK} "
    "AND response_time_ms > ?"
)
_PAGE_TIME_SQL = f"UPDATE audit_pages SET response_time_ms = ? WHERE audit_id = ? AND url = ? AND {RUNNING_GUARD}"
_SUMMARY_SQL = "UPDATE audits SET timing_summary = ? WHERE id = ? AND status = 'running'"
_READ_SUMMARY_SQL = "SELECT timing_summary FROM audits WHERE id = ?"


@dataclass(frozen=True, slots=True)
class TimingSummary(JsonRecord):
    """What the timing step measured and concluded (also its step result: counters only)."""

    threshold_ms: int = 0
    sampled: int = 0  # pages measured for the site's median
    median_ms: int | None = None  # their median; None when none answered
    site_slow: bool = False
    candidates: int = 0  # pages the crawl measured over the page bar
    remeasured: int = 0  # of them, measured again
    unconfirmed: int = 0  # of them, not measured again (the step's budget): never flagged
    slow_pages: int = 0  # slow again: slow-response issues
    skipped: str | None = None  # why nothing was measured again (a rate-limited crawl)
    error: str | None = None  # what stopped the step; its issues are then none


@dataclass(frozen=True, slots=True)
class Candidate:
    url: str
    crawl_ms: int


async def sample_pages(db: D1Database, audit_id: str, count: int) -> list[str]:
    result = await db.prepare(SAMPLE_SQL).bind(audit_id, count).all()
    return [as_str(row["url"]) for row in result["results"]]


async def count_over(db: D1Database, audit_id: str, over_ms: int) -> int:
    """How many pages the crawl measured over `over_ms`."""
    count = await db.prepare(CANDIDATE_COUNT_SQL).bind(audit_id, over_ms).first()
    return as_int((count or {}).get("n", 0))


async def candidates(
    db: D1Database, audit_id: str, over_ms: int, limit: int
) -> tuple[list[Candidate], int]:
    """The first `limit` pages measured over `over_ms` while crawling, and how many there are."""
    rows = await db.prepare(CANDIDATES_SQL).bind(audit_id, over_ms, limit).all()
    found = [Candidate(as_str(r["url"]), as_int(r["response_time_ms"])) for r in rows["results"]]
    return found, await count_over(db, audit_id, over_ms)


async def record_timing(
    db: D1Database,
    audit_id: str,
    issues: list[DetectedIssue],
    times_ms: Mapping[str, int],
    summary: TimingSummary,
) -> None:
    """Replace the audit's timing issues with `issues`, give each page measured again its quiet
    time (`times_ms`, the figure it was judged on) and store `summary`, while running."""
    crawled = await crawled_among(db, audit_id, [issue.page_url for issue in issues])
    rows = [_row(audit_id, issue, crawled).to_row() for issue in issues]
    text = json.dumps(summary.to_dict(), sort_keys=True)
    times = [
        db.prepare(_PAGE_TIME_SQL).bind(ms, audit_id, url, audit_id)
        for url, ms in sorted(times_ms.items())
    ]
    types = [str(issue_type) for issue_type in TIMING_ISSUE_TYPES]
    update = db.prepare(_SUMMARY_SQL).bind(text, audit_id)
    await db.batch([*times, *replace_issues_while_running(db, audit_id, types, rows), update])


async def read_timing_summary(db: D1Database, audit_id: str) -> TimingSummary | None:
    """The stored summary; None before the step ran and for audits from before migration 0020."""
    row = await db.prepare(_READ_SUMMARY_SQL).bind(audit_id).first()
    text = (row or {}).get("timing_summary")
    return None if text is None else TimingSummary.from_dict(as_object(json.loads(as_str(text))))


def _row(audit_id: str, issue: DetectedIssue, crawled: set[str]) -> IssueRecord:
    row_id = page_id(audit_id, issue.page_url) if issue.page_url in crawled else None
    return IssueRecord.from_detected(audit_id, issue, row_id)
