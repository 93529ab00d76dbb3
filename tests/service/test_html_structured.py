"""The HTML report's structured-data section (service.html_structured): what it shows of the
summary, escaped, and nothing for an audit without one."""

from __future__ import annotations

import pytest

from audit.catalogue import Severity
from auditdb.structured_data import (
    FeaturePages,
    IssueTypeFindings,
    KindFindings,
    StructuredSummary,
    TypePages,
)
from service.html_structured import structured_section
from structured.findings import FindingKind, RichResultFeature

SUMMARY = StructuredSummary(
    pages=3,
    pages_with_errors=1,
    errors=2,
    types=(TypePages("Product", 2), TypePages('<img src=x onerror="alert(1)">', 1)),
    types_total=25,
    features=(FeaturePages(RichResultFeature.PRODUCT_SNIPPET, 2),),
    features_total=1,
    kinds=(KindFindings(FindingKind.MISSING_REQUIRED, 1, 2),),
    issue_types=(IssueTypeFindings("rich-result-missing-required", Severity.WARNING, 1, 2),),
)


def test_an_audit_without_a_summary_has_no_section() -> None:
    assert structured_section("a1", None) == ""


def test_a_site_without_structured_data_says_so() -> None:
    section = structured_section("a1", StructuredSummary())
    assert 'id="structured-h"' in section
    assert "No page has structured data." in section


@pytest.mark.parametrize(
    "shown",
    [
        "3 pages have structured data: 2 errors on 1 page.",
        "Types found (the first 2 of 25)",
        '<th scope="row">Product</th><td>2</td>',
        '<th scope="row">product-snippet</th><td>2</td>',
        '<th scope="row">missing-required</th><td>1</td><td>2</td>',
        "<td>warning</td><td>1</td><td>2</td>",
        "<code>/api/audits/a1/pages?structured_type=Product</code>",
        # A type name is crawled text: escaped, never markup.
        "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;",
    ],
)
def test_the_section_shows_the_summary(shown: str) -> None:
    assert shown in structured_section("a1", SUMMARY)


def test_crawled_text_never_becomes_markup() -> None:
    assert "<img" not in structured_section("a1", SUMMARY)
