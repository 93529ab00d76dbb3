"""The security grade's failing tests as issues on the start page (docs/security.md).

One issue type per HTTP Observatory test (`security-*` in the catalogue, Scope.SITE). A test that
did not pass (`TestOutcome.passed` false) becomes one issue on the page the grade was computed
for (or, for a test the crawl lowered, the crawled page where it was seen), with the test's
result id, score modifier and fix advice in `details`. Its severity follows the modifier, on the
catalogue's own scale:

    modifier <= -20  critical   (the Observatory's heavy penalties: no CSP, no HSTS, no https
                                 redirect, clickjacking, insecure cookies, CORS, insecure scripts)
    modifier < 0     warning    (-5 and -10: weaker settings that still cost points)
    otherwise        info       (a test that failed at no cost)

The catalogue gives each type the worst severity a row of it can get; rows carry their own.
"""

from __future__ import annotations

from audit.catalogue import IssueType, Severity, descriptor
from audit.issues import DetectedIssue
from common.wire import JsonValue
from security.grade import SecurityGrade
from security.results import TestName, TestOutcome

__all__ = ["CRITICAL_MODIFIER", "ISSUE_OF_TEST", "SOURCE", "grade_issues", "severity_for"]

CRITICAL_MODIFIER = -20
SOURCE = "security"  # details["source"]: what produced the issue (the grade, not a page rule)

ISSUE_OF_TEST: dict[TestName, IssueType] = {
    TestName.CONTENT_SECURITY_POLICY: IssueType.SECURITY_CSP,
    TestName.COOKIES: IssueType.SECURITY_COOKIES,
    TestName.CROSS_ORIGIN_RESOURCE_SHARING: IssueType.SECURITY_CORS,
    TestName.REDIRECTION: IssueType.SECURITY_REDIRECTION,
    TestName.REFERRER_POLICY: IssueType.SECURITY_REFERRER_POLICY,
    TestName.STRICT_TRANSPORT_SECURITY: IssueType.SECURITY_HSTS,
    TestName.SUBRESOURCE_INTEGRITY: IssueType.SECURITY_SRI,
    TestName.X_CONTENT_TYPE_OPTIONS: IssueType.SECURITY_CONTENT_TYPE_OPTIONS,
    TestName.X_FRAME_OPTIONS: IssueType.SECURITY_FRAME_OPTIONS,
    TestName.CROSS_ORIGIN_RESOURCE_POLICY: IssueType.SECURITY_CORP,
    TestName.CROSS_ORIGIN_OPENER_POLICY: IssueType.SECURITY_COOP,
    TestName.CROSS_ORIGIN_EMBEDDER_POLICY: IssueType.SECURITY_COEP,
}


def severity_for(score_modifier: int) -> Severity:
    if score_modifier <= CRITICAL_MODIFIER:
        return Severity.CRITICAL
    return Severity.WARNING if score_modifier < 0 else Severity.INFO


def grade_issues(grade: SecurityGrade, page_url: str) -> list[DetectedIssue]:
    """One issue per failing test of `grade`, in the Observatory's test order: on the page the
    crawl saw it on (`details["page"]`, security.crawl_merge), else on `page_url`."""
    return [_issue(test, _page_of(test, page_url)) for test in grade.tests if not test.passed]


def _page_of(test: TestOutcome, default: str) -> str:
    page = test.details.get("page")
    return page if isinstance(page, str) and page else default


def _issue(test: TestOutcome, page_url: str) -> DetectedIssue:
    issue_type = ISSUE_OF_TEST[test.test]
    details: dict[str, JsonValue] = {
        "source": SOURCE,
        "test": str(test.test),
        "result": test.result,
        "scoreModifier": test.score_modifier,
        "severity": str(severity_for(test.score_modifier)),
        "howToFix": descriptor(issue_type).how_to_fix,
    }
    return DetectedIssue(issue_type, page_url, details)
