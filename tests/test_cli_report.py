"""The CLI's summary says what happened, including why an audit stopped and what it kept."""

from cli.report import format_summary


def report(status: str, **audit: object) -> dict:
    base = {
        "status": status,
        "start_url": "https://a.test/",
        "pages_crawled": 7,
        "health_score": None,
        "error_code": None,
        "failed_phase": None,
        "stopped_early": False,
    }
    issues = [
        {"issue_type": "missing-title", "severity": "critical"},
        {"issue_type": "missing-title", "severity": "critical"},
        {"issue_type": "thin-content", "severity": "warning"},
    ]
    return {"audit": {**base, **audit}, "issues": issues, "pages": []}


def test_a_failed_audit_shows_its_reason_and_partial_results() -> None:
    text = format_summary(
        report("failed", error_code="oom", failed_phase="crawling", stopped_early=True)
    )

    assert "status: failed" in text
    assert "error: oom in crawling" in text
    assert "stopped early after 7 pages; partial results kept" in text


def test_a_completed_audit_shows_counts_by_severity_and_type() -> None:
    text = format_summary(report("completed", health_score=85.7))

    assert "issues: 3 (2 critical, 1 warning, 0 info)" in text
    assert "health score: 85.7" in text
    assert text.index("missing-title") < text.index("thin-content")
