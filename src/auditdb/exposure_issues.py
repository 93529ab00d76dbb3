"""An audit's exposure findings in D1: the `exposure-*` issues, replaced whole in one batch.

Like the security grade's issues (auditdb.security_grades), the batch deletes the audit's earlier
`exposure-*` rows and inserts the new ones, every statement conditioned on the audit still
running: a retried or resumed step leaves no stale rows, and a cancelled audit is left alone.
"""

from __future__ import annotations

from dataclasses import replace

from audit.issue_ids import page_id
from audit.issues import DetectedIssue
from auditdb.records import IssueRecord
from auditdb.repository import replace_issues_while_running
from common.bindings import D1Database
from common.wire import as_str
from exposure.findings import ISSUE_OF_CHECK

__all__ = ["EXPOSURE_TYPES", "record_exposure_issues"]

EXPOSURE_TYPES = tuple(str(issue_type) for issue_type in ISSUE_OF_CHECK.values())


async def record_exposure_issues(
    db: D1Database, audit_id: str, issues: list[DetectedIssue], crawled: set[str]
) -> int:
    """Replace the audit's exposure issues with `issues`; returns how many were sent."""
    rows = [_row(audit_id, issue, crawled).to_row() for issue in issues]
    await db.batch(replace_issues_while_running(db, audit_id, EXPOSURE_TYPES, rows))
    return len(rows)


def _row(audit_id: str, issue: DetectedIssue, crawled: set[str]) -> IssueRecord:
    """The issue's row, linked to its page when crawled, with the finding's own severity."""
    row_id = page_id(audit_id, issue.page_url) if issue.page_url in crawled else None
    record = IssueRecord.from_detected(audit_id, issue, row_id)
    return replace(record, severity=as_str(issue.details["severity"]))
