"""`DetectedIssue`: what a rule reports, before it becomes an `audit_issues` row (§1.1, §2.3)."""

from __future__ import annotations

from dataclasses import dataclass, field

from audit.catalogue import IssueType, Severity, severity_of
from audit.issue_ids import issue_id
from common.wire import JsonMapping, JsonObject, JsonRecord

__all__ = ["DetectedIssue"]


@dataclass(frozen=True, slots=True)
class DetectedIssue(JsonRecord):
    """One issue of one type on one page; `dedupe_key` tells apart several of one type on a page.

    `details` holds JSON values only (dicts, lists, str, int, float, bool, None) with the original's
    camelCase keys, because it is stored as `details_json` and read by the UI, MCP and CSV export.
    The envelope (`to_dict`) uses the project's snake_case, like every other record.
    """

    issue_type: IssueType
    page_url: str
    details: JsonMapping = field(default_factory=dict)
    dedupe_key: str | None = None

    @property
    def severity(self) -> Severity:
        return severity_of(self.issue_type)

    def id(self, audit_id: str) -> str:
        return issue_id(audit_id, self.page_url, self.issue_type, self.dedupe_key)

    def to_dict(self) -> JsonObject:
        # Spelled out: finalize sends tens of thousands of these per page, and `details` is
        # already JSON (rules build it from JSON values), so it needs no walk.
        return {
            "issue_type": self.issue_type.value,
            "page_url": self.page_url,
            "details": dict(self.details),
            "dedupe_key": self.dedupe_key,
        }
