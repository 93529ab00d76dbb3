"""Lighthouse runs as issues: each threshold at, just below and just above its boundary."""

from __future__ import annotations

import pytest

from audit.catalogue import CATALOGUE, IssueType
from lighthouse.records import FieldData, FieldMetric, FieldScope, LighthouseRun, Strategy
from lighthouse.vitals import LIGHTHOUSE_ISSUE_TYPES, page_issues

URL = "https://a.test/p"
M, D = Strategy.MOBILE, Strategy.DESKTOP


def field(scope: FieldScope = FieldScope.URL, **metrics: float) -> FieldData:
    return FieldData(scope, None, **{k: FieldMetric(v) for k, v in metrics.items()})


@pytest.mark.parametrize(
    ("run", "expected"),
    [
        (LighthouseRun(M, performance_score=49), {IssueType.LIGHTHOUSE_POOR_PERFORMANCE}),
        (LighthouseRun(M, performance_score=50), set()),
        (LighthouseRun(M, lcp_ms=4000.0), set()),
        (LighthouseRun(M, lcp_ms=4000.1), {IssueType.LAB_POOR_LCP}),
        (LighthouseRun(M, inp_ms=500.0), set()),
        (LighthouseRun(M, inp_ms=501.0), {IssueType.LAB_POOR_INP}),
        (LighthouseRun(M, cls=0.25), set()),
        (LighthouseRun(M, cls=0.26), {IssueType.LAB_POOR_CLS}),
        (LighthouseRun(M, field_url=field(lcp_ms=4001)), {IssueType.FIELD_POOR_LCP}),
        (LighthouseRun(M, field_url=field(inp_ms=501)), {IssueType.FIELD_POOR_INP}),
        (LighthouseRun(M, field_url=field(cls=0.3)), {IssueType.FIELD_POOR_CLS}),
        (LighthouseRun(M, field_url=field(lcp_ms=4000, inp_ms=500, cls=0.25)), set()),
        (
            LighthouseRun(M, field_origin=field(FieldScope.ORIGIN, lcp_ms=9000)),
            {IssueType.FIELD_POOR_LCP},
        ),
        # the URL's own data wins over its origin's
        (
            LighthouseRun(
                M, field_url=field(lcp_ms=1000), field_origin=field(FieldScope.ORIGIN, lcp_ms=9000)
            ),
            set(),
        ),
        (LighthouseRun.failed(M, "HTTP 500: boom"), set()),
    ],
)
def test_thresholds(run: LighthouseRun, expected: set[IssueType]) -> None:
    assert {issue.issue_type for issue in page_issues(URL, [run])} == expected


def test_one_issue_per_type_listing_each_poor_strategy() -> None:
    runs = [
        LighthouseRun(M, performance_score=20, lcp_ms=7000.0),
        LighthouseRun(
            D, performance_score=45, lcp_ms=1000.0, field_origin=field(FieldScope.ORIGIN, cls=0.5)
        ),
    ]
    issues = {issue.issue_type: issue for issue in page_issues(URL, runs)}
    assert set(issues) == {
        IssueType.LIGHTHOUSE_POOR_PERFORMANCE,
        IssueType.LAB_POOR_LCP,
        IssueType.FIELD_POOR_CLS,
    }
    assert dict(issues[IssueType.LIGHTHOUSE_POOR_PERFORMANCE].details["values"]) == {  # type: ignore[arg-type]
        "mobile": 20.0,
        "desktop": 45.0,
    }
    assert issues[IssueType.LAB_POOR_LCP].details["data"] == "lab"
    cls = issues[IssueType.FIELD_POOR_CLS].details
    assert (cls["data"], cls["fieldScope"], cls["threshold"]) == ("field", "origin", 0.25)
    assert all(i.page_url == URL and i.details["source"] == "lighthouse" for i in issues.values())


def test_every_lighthouse_type_is_catalogued_as_a_lighthouse_warning() -> None:
    assert all(CATALOGUE[t].severity == "warning" for t in LIGHTHOUSE_ISSUE_TYPES)
    assert all(CATALOGUE[t].scope == "lighthouse" for t in LIGHTHOUSE_ISSUE_TYPES)
    assert len(set(LIGHTHOUSE_ISSUE_TYPES)) == 7
