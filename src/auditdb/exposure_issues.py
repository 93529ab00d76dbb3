"""An audit's exposure checks in D1: the `exposure-*` issues and the audits row's
`exposure_summary` (migration 0012), written together; and the summary as the report shows it.

Like the security grade (auditdb.security_grades), the write is one batch whose every statement
is conditioned on the audit still running: it deletes the audit's earlier `exposure-*` rows and
inserts the new ones, so a retried or resumed step leaves no stale rows, and a cancelled audit is
left alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from enum import StrEnum

from audit.issue_ids import page_id
from audit.issues import DetectedIssue
from auditdb.records import AuditRecord, IssueRecord
from auditdb.repository import crawled_among, is_running, replace_issues_while_running
from common.bindings import D1Database
from common.wire import JsonRecord, as_object, as_str
from exposure.findings import ISSUE_OF_CHECK

__all__ = [
    "EXPOSURE_TYPES",
    "AuditExposure",
    "ExposureStatus",
    "ExposureSummary",
    "read_exposure",
    "record_exposure",
]

EXPOSURE_TYPES = tuple(str(issue_type) for issue_type in ISSUE_OF_CHECK.values())
_UPDATE_SQL = "UPDATE audits SET exposure_summary = ? WHERE id = ? AND status = 'running'"


@dataclass(frozen=True, slots=True)
class ExposureSummary(JsonRecord):
    """What the exposure-checks step looked at (also its step result: counters and reasons)."""

    issues: int = 0
    scripts: int = 0  # distinct script URLs the crawl saw
    scripts_read: int = 0  # same-site scripts read by content
    bytes_read: int = 0
    dns_checked: bool = False
    dns_skipped: str | None = None  # why the host's DNS was not checked (an IP address, ...)
    error: str | None = None  # what stopped the checks; their issues are then none
    # Why the DNS checks could not run though the host has DNS: our resolver answered nothing
    # (then `dns_checked` is false and one exposure-dns-unchecked note stands for them).
    dns_error: str | None = None


class ExposureStatus(StrEnum):
    CHECKED = "checked"
    NOT_CHECKED = "not_checked"  # the checks stopped (`summary.error`) or never ran
    PENDING = "pending"  # the audit is running and the step has not run yet


@dataclass(frozen=True, slots=True)
class AuditExposure(JsonRecord):
    """The report's `exposure`: the status and, once the step ran, its summary."""

    status: ExposureStatus
    summary: ExposureSummary | None = None


async def record_exposure(
    db: D1Database,
    audit_id: str,
    issues: list[DetectedIssue],
    summary: ExposureSummary,
) -> None:
    """Replace the audit's exposure issues with `issues` (each linked to its page row when that
    page was crawled) and store `summary`, while running."""
    crawled = await crawled_among(db, audit_id, [issue.page_url for issue in issues])
    rows = [_row(audit_id, issue, crawled).to_row() for issue in issues]
    text = json.dumps(summary.to_dict(), sort_keys=True)
    update = db.prepare(_UPDATE_SQL).bind(text, audit_id)
    await db.batch([update, *replace_issues_while_running(db, audit_id, EXPOSURE_TYPES, rows)])


async def read_exposure(db: D1Database, audit: AuditRecord) -> AuditExposure:
    row = (
        await db.prepare("SELECT exposure_summary FROM audits WHERE id = ?").bind(audit.id).first()
    )
    text = (row or {}).get("exposure_summary")
    if text is not None:
        summary = ExposureSummary.from_dict(as_object(json.loads(as_str(text))))
        status = ExposureStatus.NOT_CHECKED if summary.error else ExposureStatus.CHECKED
        return AuditExposure(status, summary)
    if is_running(audit):
        return AuditExposure(ExposureStatus.PENDING)
    return AuditExposure(ExposureStatus.NOT_CHECKED)


def _row(audit_id: str, issue: DetectedIssue, crawled: set[str]) -> IssueRecord:
    """The issue's row, linked to its page when crawled, with the finding's own severity."""
    row_id = page_id(audit_id, issue.page_url) if issue.page_url in crawled else None
    record = IssueRecord.from_detected(audit_id, issue, row_id)
    return replace(record, severity=as_str(issue.details["severity"]))
