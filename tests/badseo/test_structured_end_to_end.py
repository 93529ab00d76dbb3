"""Structured data through the whole product (issue 32 item 5): the badseo site audited through
the Worker's API and workflow, then its structured-data summary in the report (JSON, text, HTML)
and the list filters and exports held to the golden issues. badseo's `/content/structured-data-*`
and `/content/rich-result-*` pages each plant one issue type; two more carry a valid Article and
a valid Product. The same checks run on Microdata and RDFa Lite (`/content/microdata-*`,
`/content/rdfa-*`)."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from typing import Any
from urllib.parse import quote

import pytest

from audit.rules_structured import ISSUE_OF_KIND
from auditdb.structured_data import STRUCTURED_ISSUE_TYPES, StructuredSummary
from cli.report import format_summary
from local_platform.http import Request
from local_platform.runtime import LocalPlatform
from structured.findings import FindingKind
from tests.badseo.site import expected_issues, serve_badseo
from tests.badseo.test_end_to_end import MAX_PAGES

VALID_PRODUCT = "/content/structured-data-valid-product"
VALID_ARTICLE = "/content/structured-data-valid-article"
NO_SNIPPET = "/content/rich-result-missing-required"  # a Product without offers, review or rating
# The same valid Product in Microdata (its offer nested, or named by itemref) and in RDFa Lite.
VALID_MARKUP = {
    "/content/microdata-product",
    "/content/microdata-itemref",
    "/content/rdfa-product",
}


async def text(platform: LocalPlatform, path: str) -> str:
    headers = {"authorization": f"Bearer {await platform.local_key()}"}
    response = await platform.fetch(Request(f"http://siteaudit.local{path}", headers=headers))
    assert response.status == 200, path
    return str(await response.text())


async def listed(platform: LocalPlatform, audit_id: str, what: str, query: str) -> list[Any]:
    status, body = await platform.request("GET", f"/api/audits/{audit_id}/{what}?{query}&limit=500")
    assert status == 200, body
    assert body["next_cursor"] is None
    return list(body[what])


@pytest.fixture(scope="module")
def golden() -> dict[str, set[str]]:
    """The structured-data issue types badseo plants, each with the paths of its pages."""
    pages: dict[str, set[str]] = defaultdict(set)
    wanted = {str(t) for t in STRUCTURED_ISSUE_TYPES}
    for issue_type, url in expected_issues("http://o"):
        if issue_type in wanted:
            pages[issue_type].add(url.removeprefix("http://o"))
    return dict(pages)


async def test_the_summary_the_filters_and_the_exports_agree_with_the_golden_issues(
    platform: LocalPlatform, golden: dict[str, set[str]]
) -> None:
    with serve_badseo() as site:
        # The whole site: the default 50 pages would stop before the structured-data pages.
        request = {"url": site.start_url, "max_pages": MAX_PAGES}
        status, body = await platform.request("POST", "/api/audits", request)
        assert status == 201, body
        audit_id = body["audit"]["id"]
        await platform.wait_for_workflow(audit_id, timeout_s=120)
    origin = site.origin
    status, report = await platform.request("GET", f"/api/audits/{audit_id}/report")
    assert report["audit"]["status"] == "completed"

    summary = StructuredSummary.from_dict(report["structured_data"])
    # Per issue type: the pages golden.json lists, and at least one finding on each.
    assert {t.issue_type: t.pages for t in summary.issue_types} == {
        t: len(paths) for t, paths in golden.items()
    }
    assert all(t.findings >= t.pages for t in summary.issue_types)
    types = {t.name: t.pages for t in summary.types}
    assert types["Article"] >= 8 and types["Product"] >= 2 and "Prodcut" in types
    features = {str(f.feature) for f in summary.features}
    assert {"article", "product-snippet"} <= features
    assert summary.pages >= summary.pages_with_errors > 0 and summary.errors > 0
    # Errors and warnings are the kinds' findings, split by severity.
    assert summary.errors + summary.warnings == sum(k.findings for k in summary.kinds)

    # A finding kind's pages are those of the issue type that lists it, kind by kind.
    by_type: dict[str, set[str]] = defaultdict(set)
    for kind in summary.kinds:
        pages = await listed(platform, audit_id, "pages", f"structured_finding={kind.kind}")
        assert len(pages) == kind.pages
        by_type[str(ISSUE_OF_KIND[kind.kind])] |= {p["url"].removeprefix(origin) for p in pages}
        issues = await listed(platform, audit_id, "issues", f"structured_finding={kind.kind}")
        assert {i["issue_type"] for i in issues} == {str(ISSUE_OF_KIND[kind.kind])}
        assert {i["page_url"] for i in issues} == {p["url"] for p in pages}
    golden_checked = {t: p for t, p in golden.items() if t != "invalid-structured-data"}
    assert by_type == golden_checked

    snippet = await listed(platform, audit_id, "pages", "eligible_feature=product-snippet")
    snippet_paths = {p["url"].removeprefix(origin) for p in snippet}
    assert VALID_PRODUCT in snippet_paths and NO_SNIPPET not in snippet_paths
    assert snippet_paths >= VALID_MARKUP
    products = await listed(platform, audit_id, "pages", "structured_type=Product")
    assert {VALID_PRODUCT, NO_SNIPPET} <= {p["url"].removeprefix(origin) for p in products}
    assert len(products) == types["Product"]
    required = await listed(
        platform, audit_id, "issues", f"structured_finding={FindingKind.MISSING_REQUIRED}"
    )
    assert {i["page_url"].removeprefix(origin) for i in required} == golden[
        "rich-result-missing-required"
    ]

    # The export carries the columns, filtered as the list is.
    exported = await text(platform, f"/api/audits/{audit_id}/pages.csv?structured_type=Product")
    rows = list(csv.DictReader(io.StringIO(exported)))
    assert len(rows) == len(products)
    valid = next(r for r in rows if r["url"] == origin + VALID_PRODUCT)
    assert (valid["structured_types"], valid["eligible_features"]) == (
        '["Product"]',
        '["product-snippet"]',
    )
    assert (valid["structured_errors"], valid["structured_findings"]) == ("0", "{}")

    # Every report format with sections says it: the text summary and the HTML report.
    assert f"structured data: {summary.note}" in format_summary(report).splitlines()
    html = await text(platform, f"/api/audits/{audit_id}/report.html")
    section = html[html.index('id="structured-h"') :]
    assert '<th scope="row">Prodcut</th>' in section
    assert f"?structured_type={quote('Product')}" in section
