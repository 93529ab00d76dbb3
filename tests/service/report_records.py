"""Audits and issues as records, for the report encoders' tests (no database needed)."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Iterable

from audit.catalogue import Severity
from auditdb.records import AuditRecord, AuditStatus, IssueRecord
from auditdb.summary import IssueCounts, TypeCount
from common.wire import JsonValue


def audit(status: str = "completed", **fields: object) -> AuditRecord:
    base: dict[str, object] = {
        "id": "a1",
        "start_url": "https://shop.test/",
        "final_url": "https://www.shop.test/",
        "created_at": "2026-12-01T10:00:00.000Z",
        "started_at": "2026-12-01T10:00:01.000Z",
        "finished_at": "2026-12-01T10:02:00.000Z",
        "status": AuditStatus(status),
        "pages_crawled": 12,
        "health_score": 75.0,
    }
    return AuditRecord(**(base | fields))  # type: ignore[arg-type]


def issue(
    issue_type: str, severity: str, page_url: str, key: str = "", **details: JsonValue
) -> IssueRecord:
    return IssueRecord(
        id=f"{issue_type}|{page_url}|{key}",
        audit_id="a1",
        page_url=page_url,
        issue_type=issue_type,
        severity=severity,
        details=dict(details),
        dedupe_key=key,
    )


# In list order: severity rank, type, page.
ISSUES = [
    issue(
        "broken-internal-link",
        "critical",
        "https://www.shop.test/",
        "https://www.shop.test/gone",
        status=404,
    ),
    issue(
        "broken-internal-link",
        "critical",
        "https://www.shop.test/a",
        "https://www.shop.test/gone",
        status=404,
    ),
    issue("missing-title", "critical", "https://www.shop.test/b?x=1&y=%3C2%3E"),
    issue(
        "duplicate-title",
        "warning",
        "https://www.shop.test/c",
        duplicates=["https://www.shop.test/d"],
    ),
    issue("thin-content", "warning", "http://shop.test/old", words=12),
    issue(
        "title-too-long", "info", "https://www.shop.test/e:colon", title='T\x07itle "quoted" & <b>'
    ),
    issue("a-type-from-a-newer-catalogue", "info", "https://www.shop.test/f"),
]


def counts_of(issues: Iterable[IssueRecord]) -> IssueCounts:
    groups: dict[tuple[str, str], int] = {}
    for row in issues:
        groups[(row.severity, row.issue_type)] = groups.get((row.severity, row.issue_type), 0) + 1
    return IssueCounts(tuple(TypeCount(t, Severity(s), n) for (s, t), n in groups.items()))


async def pages_of(issues: list[IssueRecord], size: int = 2) -> AsyncGenerator[list[IssueRecord]]:
    for start in range(0, len(issues), size):
        yield issues[start : start + size]


async def joined(chunks: AsyncGenerator[bytes]) -> bytes:
    return b"".join([chunk async for chunk in chunks])
