"""The CLI's summary says what happened, including why an audit stopped and what it kept."""

from typing import Any

import pytest

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


def runs(status: str, completed: int, failed: int) -> dict[str, object]:
    return {
        "lighthouse_status": status,
        "lighthouse_total": 16,
        "lighthouse_completed": completed,
        "lighthouse_failed": failed,
    }


@pytest.mark.parametrize(
    ("fields", "line"),
    [
        (
            {"lighthouse_status": "skipped_no_key"},
            "lighthouse: skipped (no PSI_API_KEY configured)",
        ),
        ({"lighthouse_status": "disabled"}, "lighthouse: not run (option none)"),
        (
            {
                "lighthouse_status": "completed",
                "lighthouse_total": 16,
                "lighthouse_completed": 14,
                "lighthouse_failed": 2,
            },
            "lighthouse: 16/16 runs, 2 failed",
        ),
        (
            {
                "lighthouse_status": "running",
                "lighthouse_total": 16,
                "lighthouse_completed": 5,
                "lighthouse_failed": 1,
            },
            "lighthouse: 6/16 runs, 1 failed (running)",
        ),
    ],
)
def test_the_summary_says_what_became_of_lighthouse(fields: dict[str, object], line: str) -> None:
    data = report("completed")
    data["audit"] = {**data["audit"], **fields}  # type: ignore[dict-item]
    assert line in format_summary(data).splitlines()


def test_no_lighthouse_line_before_the_phase() -> None:
    assert "lighthouse" not in format_summary(report("completed"))
