"""Health score: share of scored pages without a critical issue; counts per type and severity."""

from dataclasses import dataclass

import pytest

from audit.catalogue import IssueType
from audit.issues import DetectedIssue
from audit.score import (
    ScoreSummary,
    counts_by_severity,
    counts_by_type,
    health_score,
    is_scored,
    summarise,
)
from local_platform.rpc import crossing


@dataclass(frozen=True)
class Row:
    url: str
    status_code: int = 200
    fetch_class: str = "ok"
    is_html: bool = True


def issue(issue_type: IssueType, url: str) -> DetectedIssue:
    return DetectedIssue(issue_type, url)


@pytest.mark.parametrize(
    ("row", "scored"),
    [
        (Row("a"), True),  # 2xx HTML
        (Row("a", is_html=False), False),  # asset: cannot inflate the score
        (Row("a", 301, is_html=False), False),  # redirect hop
        (Row("a", 399), False),
        (Row("a", 404, is_html=False), True),  # error responses are bad pages
        (Row("a", 500, is_html=False), True),
        (Row("a", 403, "blocked", False), True),  # blocked-page is critical
        (Row("a", 429, "rate_limited", False), False),  # no verdict about the page
        (Row("a", 0, "error", False), False),
    ],
)
def test_which_pages_are_scored(row, scored):
    assert is_scored(row) is scored


@pytest.mark.parametrize(
    ("pages", "issues", "expected"),
    [
        ([Row("a"), Row("b")], [], 100.0),
        ([Row("a"), Row("b")], [issue(IssueType.MISSING_TITLE, "a")], 50.0),
        # two criticals on one page count once
        (
            [Row("a"), Row("b")],
            [issue(IssueType.MISSING_TITLE, "a"), issue(IssueType.BROKEN_INTERNAL_LINK, "a")],
            50.0,
        ),
        # warnings and infos do not lower the score
        ([Row("a")], [issue(IssueType.THIN_CONTENT, "a"), issue(IssueType.DEEP_PAGE, "a")], 100.0),
        ([Row("a"), Row("b"), Row("c")], [issue(IssueType.MISSING_TITLE, "a")], 66.7),
        ([Row(str(i)) for i in range(8)], [issue(IssueType.MISSING_TITLE, "0")], 87.5),
        ([Row("a"), Row("b", 500)], [issue(IssueType.SERVER_ERROR, "b")], 50.0),
        # a critical issue on an unscored URL (e.g. a sitemap entry) does not count
        ([Row("a"), Row("x", 301)], [issue(IssueType.CANONICAL_TO_BROKEN, "x")], 100.0),
        ([Row("a", is_html=False)], [], None),
        ([], [], None),
        ([Row("a")], [issue(IssueType.MISSING_TITLE, "a")], 0.0),
    ],
)
def test_health_score(pages, issues, expected):
    assert health_score(pages, issues) == expected


def test_rounding_is_half_up_to_one_decimal():
    pages = [Row(str(i)) for i in range(2000)]
    issues = [issue(IssueType.MISSING_TITLE, str(i)) for i in range(1)]  # 99.95 -> 100.0
    assert health_score(pages, issues) == 100.0
    issues = [issue(IssueType.MISSING_TITLE, str(i)) for i in range(3)]  # 99.85 -> 99.9
    assert health_score(pages, issues) == 99.9


def test_counts_per_severity_list_every_severity_critical_first():
    issues = [
        issue(IssueType.MISSING_TITLE, "a"),
        issue(IssueType.DEEP_PAGE, "a"),
        issue(IssueType.DEEP_PAGE, "b"),
    ]
    assert list(counts_by_severity(issues).items()) == [
        ("critical", 1),
        ("warning", 0),
        ("info", 2),
    ]


def test_counts_per_type_ordered_by_severity_then_id():
    issues = [
        issue(IssueType.TITLE_TOO_LONG, "a"),
        issue(IssueType.DEEP_PAGE, "a"),
        issue(IssueType.THIN_CONTENT, "b"),
        issue(IssueType.SERVER_ERROR, "c"),
        issue(IssueType.DEEP_PAGE, "c"),
    ]
    assert list(counts_by_type(issues).items()) == [
        ("server-error", 1),
        ("thin-content", 1),
        ("deep-page", 2),
        ("title-too-long", 1),
    ]


def test_summary_round_trips_across_the_rpc_boundary():
    summary = summarise([Row("a"), Row("b")], [issue(IssueType.MISSING_TITLE, "a")])
    assert (summary.scored_pages, summary.healthy_pages) == (2, 1)
    assert ScoreSummary.from_dict(crossing(summary.to_dict())) == summary
    empty = summarise([], [])
    assert ScoreSummary.from_dict(crossing(empty.to_dict())) == empty
