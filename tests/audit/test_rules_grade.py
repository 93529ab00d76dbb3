"""The security grade's failing tests as issues (audit.rules_grade): one type per test, severity
by score modifier, details naming the source, the test and its result."""

from __future__ import annotations

import pytest

from audit.catalogue import CATALOGUE, IssueType, Scope, Severity
from audit.rules_grade import ISSUE_OF_TEST, SOURCE, grade_issues, severity_for
from exposure.findings import ISSUE_OF_CHECK
from security.results import SCORE_MODIFIERS, TestName
from tests.security.cases import BEST_HEADERS, HTTP, graded, response

PAGE = "https://example.com/"


@pytest.mark.parametrize(
    ("modifier", "severity"),
    [
        (-50, Severity.CRITICAL),
        (-20, Severity.CRITICAL),
        (-19, Severity.WARNING),
        (-10, Severity.WARNING),
        (-5, Severity.WARNING),
        (-1, Severity.WARNING),
        (0, Severity.INFO),
        (5, Severity.INFO),
    ],
)
def test_severity_follows_the_score_modifier(modifier: int, severity: Severity) -> None:
    assert severity_for(modifier) is severity


def test_every_test_has_its_own_site_issue_type() -> None:
    assert set(ISSUE_OF_TEST) == set(TestName)
    assert len(set(ISSUE_OF_TEST.values())) == len(TestName)
    assert all(CATALOGUE[t].scope is Scope.SITE for t in ISSUE_OF_TEST.values())
    site_types = {t for t, d in CATALOGUE.items() if d.scope is Scope.SITE}
    # the other site types are the exposure checks' (exposure.findings), one per check, and the
    # whole site's slowness (audit.timing)
    others = set(ISSUE_OF_CHECK.values()) | {IssueType.SLOW_SITE}
    assert site_types == set(ISSUE_OF_TEST.values()) | others
    assert set(ISSUE_OF_TEST.values()).isdisjoint(ISSUE_OF_CHECK.values())


@pytest.mark.parametrize("test", list(TestName))
def test_the_catalogue_gives_each_type_the_worst_severity_of_its_results(test: TestName) -> None:
    from security.results import RESULTS_OF

    worst = min(SCORE_MODIFIERS[result] for result in RESULTS_OF[test])
    assert CATALOGUE[ISSUE_OF_TEST[test]].severity is severity_for(worst)


def test_a_best_practice_site_has_no_issues() -> None:
    grade = graded(response(BEST_HEADERS))
    assert grade_issues(grade, PAGE) == []


def test_a_bare_http_site_gets_one_issue_per_failing_test_with_its_result() -> None:
    grade = graded(response({}, url=HTTP))
    failing = [t for t in grade.tests if not t.passed]

    issues = grade_issues(grade, HTTP)

    assert [i.issue_type for i in issues] == [ISSUE_OF_TEST[t.test] for t in failing]
    assert {i.page_url for i in issues} == {HTTP}
    by_type = {i.issue_type: dict(i.details) for i in issues}
    csp = by_type[ISSUE_OF_TEST[TestName.CONTENT_SECURITY_POLICY]]
    assert csp == {
        "source": SOURCE,
        "test": "content-security-policy",
        "result": "csp-not-implemented",
        "scoreModifier": -25,
        "severity": "critical",
        "howToFix": CATALOGUE[ISSUE_OF_TEST[TestName.CONTENT_SECURITY_POLICY]].how_to_fix,
    }
    assert by_type[ISSUE_OF_TEST[TestName.X_CONTENT_TYPE_OPTIONS]]["severity"] == "warning"
