"""The page's structured data, as issues: one per page per class of finding (issue 32).

The crawl checked the page's JSON-LD, Microdata and RDFa (structured.page) when it observed the
page; here each finding kind maps to one catalogue issue type, and the page gets one issue of each
type it has, its details listing the findings (property path, term, sentence, suggestions, and the
rich-result feature for Google's), at most `STRUCTURED_FINDINGS_LISTED` of them with the count.
One issue per type and page (not per finding) keeps a page's hundred broken properties from
burying the report, and lets the verdict see a template's fault as one site-wide cause.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from audit.catalogue import STRUCTURED_FINDINGS_LISTED, IssueType
from audit.issues import DetectedIssue
from audit.page import PageObservation
from common.wire import JsonObject
from structured.findings import Finding, FindingKind

__all__ = ["ISSUE_OF_KIND", "structured_data_issues"]

ISSUE_OF_KIND: Mapping[FindingKind, IssueType] = MappingProxyType(
    {
        FindingKind.UNKNOWN_TYPE: IssueType.STRUCTURED_DATA_UNKNOWN_TYPE,
        FindingKind.UNKNOWN_PROPERTY: IssueType.STRUCTURED_DATA_UNKNOWN_PROPERTY,
        FindingKind.WRONG_NAMESPACE: IssueType.STRUCTURED_DATA_WRONG_VOCABULARY,
        FindingKind.NO_VOCABULARY: IssueType.STRUCTURED_DATA_WRONG_VOCABULARY,
        FindingKind.PROPERTY_NOT_FOR_TYPE: IssueType.STRUCTURED_DATA_PROPERTY_NOT_ON_TYPE,
        FindingKind.VALUE_TYPE_MISMATCH: IssueType.STRUCTURED_DATA_INVALID_VALUE,
        FindingKind.UNKNOWN_ENUMERATION_MEMBER: IssueType.STRUCTURED_DATA_INVALID_VALUE,
        FindingKind.TEXT_FOR_THING: IssueType.STRUCTURED_DATA_TEXT_FOR_THING,
        FindingKind.SUPERSEDED_TERM: IssueType.STRUCTURED_DATA_DEPRECATED_TERM,
        FindingKind.RETIRED_TERM: IssueType.STRUCTURED_DATA_DEPRECATED_TERM,
        FindingKind.MISSING_REQUIRED: IssueType.RICH_RESULT_MISSING_REQUIRED,
        FindingKind.MISSING_RECOMMENDED: IssueType.RICH_RESULT_MISSING_RECOMMENDED,
        FindingKind.MARKUP_UNCHECKED: IssueType.STRUCTURED_DATA_UNCHECKED,
    }
)


def structured_data_issues(obs: PageObservation) -> list[DetectedIssue]:
    """One issue per issue type the page's structured-data findings fall under, in the order of
    each type's first finding."""
    checked = obs.structured_data
    if checked is None:
        return []
    grouped: dict[IssueType, list[Finding]] = {}
    for finding in checked.findings:
        grouped.setdefault(ISSUE_OF_KIND[finding.kind], []).append(finding)
    return [
        DetectedIssue(issue_type, obs.url, _details(found)) for issue_type, found in grouped.items()
    ]


def _details(found: list[Finding]) -> JsonObject:
    return {
        "findingCount": len(found),
        "findings": [_listed(f) for f in found[:STRUCTURED_FINDINGS_LISTED]],
    }


def _listed(finding: Finding) -> JsonObject:
    listed: JsonObject = {
        "kind": finding.kind.value,
        "path": finding.path_text,
        "term": finding.term,
        "message": finding.message,
    }
    if finding.suggestions:
        listed["suggestions"] = list(finding.suggestions)
    if finding.feature is not None:
        listed["feature"] = finding.feature.value
    return listed
