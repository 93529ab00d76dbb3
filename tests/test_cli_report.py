"""The CLI's summary says what happened, including why an audit stopped and what it kept."""

from typing import Any

from auditdb.records import AuditRecord, AuditStatus
from cli.report import format_summary
from common.wire import JsonObject


def report(status: str, **audit: Any) -> JsonObject:
    """A report as the API renders it: the audit record and its counts (no rows)."""
    record = AuditRecord(
        id="a1",
        start_url="https://a.test/",
        created_at="2026-12-01T00:00:00.000Z",
        status=AuditStatus(status),
        pages_crawled=7,
        **audit,
    )
    summary: JsonObject = {
        "issues_total": 3,
        "issues_by_severity": {"critical": 2, "warning": 1, "info": 0},
        "issues_by_type": {"missing-title": 2, "thin-content": 1},
        "top_issues": [],
    }
    return {
        "audit": {**record.to_dict(), "stopped_early": status in ("failed", "cancelled")},
        "summary": summary,
        "links": {"pages": "/api/audits/a1/pages", "issues": "/api/audits/a1/issues"},
    }


def test_a_failed_audit_shows_its_reason_and_partial_results() -> None:
    text = format_summary(report("failed", error_code="oom", failed_phase="crawling"))

    assert "status: failed" in text
    assert "error: oom in crawling" in text
    assert "stopped early after 7 pages; partial results kept" in text


def test_a_cancelled_audit_says_so_keeps_its_partial_results_and_names_the_resume() -> None:
    text = format_summary(report("cancelled"))

    assert "status: cancelled" in text
    assert "cancelled; `siteaudit resume a1` finishes it" in text
    assert "stopped early after 7 pages; partial results kept" in text
    assert "error:" not in text


def test_a_completed_audit_shows_counts_by_severity_and_type() -> None:
    text = format_summary(report("completed", health_score=85.7))

    assert "issues: 3 (2 critical, 1 warning, 0 info)" in text
    assert "health score: 85.7" in text
    assert text.index("missing-title") < text.index("thin-content")
