"""`DetectedIssue`: what a rule reports, before it becomes an `audit_issues` row (§1.1, §2.3)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Self

from audit.catalogue import IssueType, Severity, severity_of
from audit.issue_ids import issue_id
from common.wire import JsonMapping, JsonObject, JsonRecord, JsonValue, WireError

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

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self:
        # Spelled out like to_dict, with the checks `wire.from_json` makes for these fields (an
        # object, known issue type, strings, an object of details with string keys): the
        # finalize step reads tens of thousands of these per page.
        try:
            issue_type, page_url = data["issue_type"], data["page_url"]
        except KeyError as exc:
            raise WireError(f"DetectedIssue: missing field {exc.args[0]!r}") from None
        details = data.get("details", {})
        dedupe_key = data.get("dedupe_key")
        if not isinstance(issue_type, str) or issue_type not in _ISSUE_TYPES:
            raise WireError(f"DetectedIssue.issue_type: not an IssueType: {issue_type!r}")
        if not isinstance(page_url, str):
            raise WireError(f"DetectedIssue.page_url: expected a string, got {page_url!r}")
        if not isinstance(details, Mapping) or not all(isinstance(k, str) for k in details):
            raise WireError(f"DetectedIssue.details: expected an object, got {details!r}")
        if dedupe_key is not None and not isinstance(dedupe_key, str):
            raise WireError(f"DetectedIssue.dedupe_key: expected a string, got {dedupe_key!r}")
        fields: dict[str, JsonValue] = dict(details)
        return cls(_ISSUE_TYPES[issue_type], page_url, fields, dedupe_key)


_ISSUE_TYPES = {issue_type.value: issue_type for issue_type in IssueType}
