"""Structured-data issues: one per page per class of finding, the findings listed with their
property paths in the details, bounded; none for a page without checked JSON-LD."""

import json
from typing import Any

import pytest

from audit.catalogue import STRUCTURED_FINDINGS_LISTED, Category, IssueType
from audit.issues import DetectedIssue
from audit.page_rules import run_page_rules
from audit.rules_structured import ISSUE_OF_KIND, structured_data_issues
from audit.verdict import FindingScope, Tally, TypeTally, findings, score
from structured.findings import FindingKind
from structured.page import PageStructuredData, check_json_ld
from tests.audit.audit_builders import observe

T = IssueType
ARTICLE: dict[str, Any] = {
    "@context": "https://schema.org",
    "@type": "Article",
    "headline": "H",
    "image": "https://x.test/i.jpg",
    "datePublished": "2026-01-02",
    "dateModified": "2026-01-03",
    "author": {"@type": "Person", "name": "A", "url": "https://x.test/a"},
}


def checked(*items: dict[str, Any]) -> PageStructuredData:
    return check_json_ld([json.dumps(item) for item in items])


def details(issue: DetectedIssue) -> Any:
    return issue.details


def test_a_page_without_checked_structured_data_has_no_such_issue() -> None:
    assert structured_data_issues(observe()) == []


def test_a_valid_article_has_no_issue() -> None:
    assert structured_data_issues(observe(structured_data=checked(ARTICLE))) == []


def test_one_issue_per_type_lists_each_finding_with_its_path() -> None:
    page = dict(ARTICLE, headlin="typo", wordCount="many")
    page["author"] = dict(ARTICLE["author"], colour="red")

    issues = structured_data_issues(observe(structured_data=checked(page)))

    by_type = {issue.issue_type: details(issue) for issue in issues}
    assert set(by_type) == {T.STRUCTURED_DATA_UNKNOWN_PROPERTY, T.STRUCTURED_DATA_INVALID_VALUE}
    unknown = by_type[T.STRUCTURED_DATA_UNKNOWN_PROPERTY]
    assert unknown["findingCount"] == 2
    assert [(f["path"], f["suggestions"]) for f in unknown["findings"]] == [
        ("Article > author > colour", ["color"]),  # document order: author comes first
        ("Article > headlin", ["headline"]),
    ]
    [invalid] = by_type[T.STRUCTURED_DATA_INVALID_VALUE]["findings"]
    assert invalid["path"] == "Article > wordCount"


def test_rich_result_findings_name_their_feature() -> None:
    issues = structured_data_issues(
        observe(structured_data=checked({"@context": "https://schema.org", "@type": "Product"}))
    )

    assert [i.issue_type for i in issues] == [
        T.RICH_RESULT_MISSING_REQUIRED,
        T.RICH_RESULT_MISSING_RECOMMENDED,
    ]
    for issue in issues:
        assert {f["feature"] for f in details(issue)["findings"]} == {"product-snippet"}


def test_the_details_list_a_bounded_number_of_findings_and_count_them_all() -> None:
    page = dict(ARTICLE, **{f"bogus{i}": "x" for i in range(STRUCTURED_FINDINGS_LISTED + 3)})

    [issue] = structured_data_issues(observe(structured_data=checked(page)))

    assert details(issue)["findingCount"] == STRUCTURED_FINDINGS_LISTED + 3
    assert len(details(issue)["findings"]) == STRUCTURED_FINDINGS_LISTED


def test_the_page_rules_run_the_check_on_content_pages_only() -> None:
    broken = checked(dict(ARTICLE, headlin="typo"))

    assert T.STRUCTURED_DATA_UNKNOWN_PROPERTY in {
        i.issue_type for i in run_page_rules(observe(structured_data=broken))
    }
    assert run_page_rules(observe(structured_data=broken, status_code=404)) == run_page_rules(
        observe(status_code=404)
    )


@pytest.mark.parametrize("kind", list(FindingKind))
def test_every_finding_kind_has_an_issue_type_in_the_content_category(kind: FindingKind) -> None:
    assert ISSUE_OF_KIND[kind].category is Category.CONTENT


def test_a_template_fault_counts_once_in_the_content_category() -> None:
    # An Article template with a misspelt property: the issue on all 80 pages of 100 is one
    # site-wide finding, and it lowers the content score, not on-page SEO's.
    issue = IssueType.STRUCTURED_DATA_UNKNOWN_PROPERTY
    tally = Tally(100, 100, 3000, None, (TypeTally(str(issue), issue.severity, 80, 80, 2400),))

    (finding,) = findings(tally)
    scores = {c.category: c.score for c in score(tally).categories}

    assert (finding.scope, finding.category) == (FindingScope.SITE_WIDE, Category.CONTENT)
    content = scores[Category.CONTENT]
    assert content is not None
    assert content < 100
    assert scores[Category.ON_PAGE] == 100
