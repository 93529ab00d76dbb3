"""An audit's security grade in D1: the audits row's security columns (migration 0011) and the
`security-*` issues of its failing tests, written together; and the grade as the report shows it.

The write is one atomic batch, guarded like every write to a running audit: the columns change
only while the audit runs, and the grade's issues are replaced (deleted, then inserted), so a
retried or resumed step never leaves the issues of an older grade behind. Every statement of the
batch, the issue inserts and deletes too, carries the `status = 'running'` condition, so an
owner's cancel that lands while the step observes the site leaves the cancelled audit untouched.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from enum import StrEnum

from audit.issue_ids import page_id
from audit.issues import DetectedIssue
from audit.rules_grade import ISSUE_OF_TEST, grade_issues, severity_for
from auditdb.records import AuditRecord, IssueRecord
from auditdb.repository import crawled_among, is_running, replace_issues_while_running
from common.bindings import D1Database, D1PreparedStatement
from common.wire import JsonRecord, as_int, as_str
from security.grade import SecurityGrade
from security.results import TestOutcome

__all__ = ["AuditSecurity", "SecurityStatus", "read_security", "record_grade", "record_not_graded"]


class SecurityStatus(StrEnum):
    GRADED = "graded"
    NOT_GRADED = "not_graded"  # the step ran and could not grade the site: `reason` says why
    PENDING = "pending"  # the audit is running and the step has not run yet


@dataclass(frozen=True, slots=True)
class AuditSecurity(JsonRecord):
    """The report's `security`: the grade, the score and the 12 tests' outcomes."""

    status: SecurityStatus
    grade: str | None = None
    score: int | None = None
    reason: str | None = None
    tests: list[TestOutcome] = field(default_factory=list)


# Audits from before the grade (migration 0011) and audits whose step never ran have no columns.
NEVER_GRADED = "the audit ended without a security grade step"

_SECURITY_TYPES = tuple(str(t) for t in ISSUE_OF_TEST.values())
_UPDATE_SQL = (
    "UPDATE audits SET security_grade = ?, security_score = ?, security_tests = ?, "
    "security_error = ? WHERE id = ? AND status = 'running'"
)


async def record_grade(db: D1Database, audit_id: str, grade: SecurityGrade, page_url: str) -> int:
    """Store `grade` and its failing tests as issues on `page_url` (or the crawled page a test
    names, audit.rules_grade), each linked to its page row when that page was crawled; returns
    how many issues."""
    detected = grade_issues(grade, page_url)
    crawled = await crawled_among(db, audit_id, [issue.page_url for issue in detected])
    issues = [_row(audit_id, issue, crawled) for issue in detected]
    tests = json.dumps([test.to_dict() for test in grade.tests], sort_keys=True)
    update = db.prepare(_UPDATE_SQL).bind(str(grade.grade), grade.score, tests, None, audit_id)
    await db.batch([update, *_replace_issues(db, audit_id, issues)])
    return len(issues)


async def record_not_graded(db: D1Database, audit_id: str, reason: str) -> None:
    update = db.prepare(_UPDATE_SQL).bind(None, None, None, reason, audit_id)
    await db.batch([update, *_replace_issues(db, audit_id, [])])


async def read_security(db: D1Database, audit: AuditRecord) -> AuditSecurity:
    if audit.security_grade is not None:
        row = (
            await db.prepare("SELECT security_tests FROM audits WHERE id = ?")
            .bind(audit.id)
            .first()
        )
        text = (row or {}).get("security_tests")
        tests = [TestOutcome.from_dict(item) for item in json.loads(as_str(text or "[]"))]
        return AuditSecurity(
            SecurityStatus.GRADED, audit.security_grade, audit.security_score, None, tests
        )
    if audit.security_error is not None:
        return AuditSecurity(SecurityStatus.NOT_GRADED, reason=audit.security_error)
    if is_running(audit):
        return AuditSecurity(SecurityStatus.PENDING)
    return AuditSecurity(SecurityStatus.NOT_GRADED, reason=NEVER_GRADED)


def _replace_issues(
    db: D1Database, audit_id: str, issues: list[IssueRecord]
) -> list[D1PreparedStatement]:
    rows = [issue.to_row() for issue in issues]
    return replace_issues_while_running(db, audit_id, _SECURITY_TYPES, rows)


def _row(audit_id: str, issue: DetectedIssue, crawled: set[str]) -> IssueRecord:
    """The issue's row, its severity that of its score modifier (audit.rules_grade)."""
    row_id = page_id(audit_id, issue.page_url) if issue.page_url in crawled else None
    record = IssueRecord.from_detected(audit_id, issue, row_id)
    return replace(record, severity=str(severity_for(as_int(issue.details["scoreModifier"]))))
