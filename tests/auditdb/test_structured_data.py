"""Structured data in the product (auditdb.structured_data): what a page row keeps of its check,
the audit's summary added up in D1 at finalize, stored and read back, and the list filters.

The summary is specified by its definition over the rows (`expected_summary`), which a property
test holds the SQL to, whatever the pages and issues hold."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.catalogue import Category, IssueType, Severity
from audit.issue_ids import page_id
from audit.rules_structured import ISSUE_OF_KIND, structured_data_issues
from audit.verdict import findings
from auditdb import listing, repository, structured_data, verdict
from auditdb.listing import IssueFilter, PageFilter, StructuredFilter
from auditdb.records import IssueRecord, PageRecord
from auditdb.structured_data import (
    MAX_LISTED,
    STRUCTURED_ISSUE_TYPES,
    FeaturePages,
    IssueTypeFindings,
    KindFindings,
    PageStructured,
    StructuredSummary,
    TypePages,
    page_structured,
)
from local_platform.d1 import LocalD1Database
from structured.findings import Finding, FindingKind, RichResultFeature
from structured.findings import Severity as FindingSeverity
from structured.page import PageStructuredData
from tests.audit.audit_builders import observe
from tests.auditdb.test_verdict_tally import seed_audit
from tests.support.local_d1 import as_d1

NOW = "2026-12-01T00:00:00.000Z"
_ids = itertools.count()


def finding(kind: FindingKind, severity: FindingSeverity = FindingSeverity.ERROR) -> Finding:
    return Finding(kind, severity, ("Product", "offers"), "offers", "a sentence")


# -- per page ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("checked", "expected"),
    [
        (None, PageStructured([], [], {}, 0, 0)),
        (PageStructuredData((), (), (), 0), PageStructured([], [], {}, 0, 0)),
        (
            PageStructuredData(
                ("Product", "BreadcrumbList"),
                (RichResultFeature.BREADCRUMB,),
                (
                    finding(FindingKind.MISSING_REQUIRED),
                    finding(FindingKind.MISSING_RECOMMENDED, FindingSeverity.WARNING),
                    finding(FindingKind.MISSING_RECOMMENDED, FindingSeverity.WARNING),
                    finding(FindingKind.UNKNOWN_PROPERTY),
                ),
                4,
            ),
            PageStructured(
                ["Product", "BreadcrumbList"],
                ["breadcrumb"],
                {"missing-required": 1, "missing-recommended": 2, "unknown-property": 1},
                2,
                2,
            ),
        ),
        # Past the page's bound only the kept findings are counted (structured.page.MAX_FINDINGS).
        (
            PageStructuredData(("Thing",), (), (finding(FindingKind.TEXT_FOR_THING),), 250),
            PageStructured(["Thing"], [], {"text-for-thing": 1}, 1, 0),
        ),
    ],
)
def test_a_page_row_keeps_types_features_and_findings_per_kind(
    checked: PageStructuredData | None, expected: PageStructured
) -> None:
    assert page_structured(checked) == expected


def test_the_page_rows_structured_columns_read_back_as_written() -> None:
    page = PageRecord(
        "p1",
        "a1",
        "https://a.test/",
        NOW,
        structured_types=["Product"],
        eligible_features=["product-snippet"],
        structured_findings={"missing-recommended": 3},
        structured_errors=0,
        structured_warnings=3,
    )
    row = page.to_row()

    assert row["structured_types_json"] == '["Product"]'
    assert row["structured_findings_json"] == '{"missing-recommended": 3}'
    assert PageRecord.from_row(row) == page
    # A row from before migration 0028 (its columns absent or NULL) reads as "none found".
    del row["structured_types_json"]
    row["structured_findings_json"] = None
    old = PageRecord.from_row(row)
    assert (old.structured_types, old.structured_findings) == ([], {})


# -- the summary: its definition, and the SQL held to it ---------------------------------------------

URLS = [f"https://a.test/{n}" for n in range(8)]
# Case variants sort apart (SQLite's BINARY collation, Python's code point order).
TYPE_NAMES = ["Product", "product", "Article", "Event", "Recipe", "FAQPage", "Zeta", "Ä"]
FINDING_TYPES = [IssueType.MISSING_TITLE, *STRUCTURED_ISSUE_TYPES]


def expected_summary(
    pages: list[PageRecord], issues: list[IssueRecord], listed: int = MAX_LISTED
) -> StructuredSummary:
    """The summary's definition over the rows."""
    with_data = [
        p for p in pages if p.has_structured_data or p.structured_types or p.structured_findings
    ]
    types = Counter(name for p in pages for name in set(p.structured_types))
    features = Counter(name for p in pages for name in set(p.eligible_features))
    kinds = sorted({kind for p in pages for kind in p.structured_findings})
    wanted = {str(t) for t in STRUCTURED_ISSUE_TYPES}
    by_type: dict[str, list[IssueRecord]] = {}
    for issue in issues:
        if issue.issue_type in wanted:
            by_type.setdefault(issue.issue_type, []).append(issue)
    issue_types = [
        IssueTypeFindings(
            name,
            min((Severity(i.severity) for i in rows), key=lambda s: s.order),
            len({i.page_url for i in rows}),
            sum(int(str(i.details.get("findingCount", 1))) for i in rows),
        )
        for name, rows in by_type.items()
    ]
    return StructuredSummary(
        pages=len(with_data),
        pages_with_errors=sum(p.structured_errors > 0 for p in pages),
        pages_with_warnings=sum(p.structured_warnings > 0 for p in pages),
        errors=sum(p.structured_errors for p in pages),
        warnings=sum(p.structured_warnings for p in pages),
        types=tuple(TypePages(n, c) for n, c in _most_first(types)[:listed]),
        types_total=len(types),
        features=tuple(
            FeaturePages(RichResultFeature(n), c) for n, c in _most_first(features)[:listed]
        ),
        features_total=len(features),
        kinds=tuple(
            KindFindings(
                FindingKind(kind),
                sum(kind in p.structured_findings for p in pages),
                sum(p.structured_findings.get(kind, 0) for p in pages),
            )
            for kind in kinds
        ),
        issue_types=tuple(sorted(issue_types, key=lambda t: (t.severity.order, t.issue_type))),
    )


def _most_first(counts: Counter[str]) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda item: (-item[1], item[0].encode()))


page_rows = st.dictionaries(
    st.sampled_from(URLS[:6]),
    st.tuples(
        st.booleans(),
        st.lists(st.sampled_from(TYPE_NAMES), max_size=4, unique=True),
        st.lists(st.sampled_from(list(RichResultFeature)), max_size=3, unique=True),
        st.dictionaries(
            st.sampled_from(list(FindingKind)), st.integers(min_value=1, max_value=100), max_size=4
        ),
        st.integers(min_value=0, max_value=50),
        st.integers(min_value=0, max_value=50),
    ),
)
issue_rows = st.lists(
    st.tuples(
        st.sampled_from(URLS),
        st.sampled_from(FINDING_TYPES),
        st.sampled_from(list(Severity)),
        st.none() | st.integers(min_value=1, max_value=20),
    ),
    max_size=12,
)


def _pages(audit_id: str, drawn: dict[str, tuple]) -> list[PageRecord]:
    return [
        PageRecord(
            f"{audit_id}-p{n}",
            audit_id,
            url,
            NOW,
            200,
            is_html=True,
            has_structured_data=flag,
            structured_types=types,
            eligible_features=[str(f) for f in features],
            structured_findings={str(k): v for k, v in kinds.items()},
            structured_errors=errors,
            structured_warnings=warnings,
        )
        for n, (url, (flag, types, features, kinds, errors, warnings)) in enumerate(drawn.items())
    ]


def _issues(audit_id: str, drawn: list[tuple]) -> list[IssueRecord]:
    return [
        IssueRecord(
            f"{audit_id}-i{n}",
            audit_id,
            url,
            str(type_),
            str(severity),
            details={} if count is None else {"findingCount": count},
            dedupe_key=str(n),
        )
        for n, (url, type_, severity, count) in enumerate(drawn)
    ]


@settings(max_examples=60, deadline=None)
@given(pages=page_rows, issues=issue_rows)
def test_the_summary_follows_its_definition(
    migrated_d1: LocalD1Database,
    pages: dict[str, tuple],
    issues: list[tuple],
) -> None:
    audit_id = f"s{next(_ids)}"
    rows, issue_records = _pages(audit_id, pages), _issues(audit_id, issues)
    db = as_d1(migrated_d1)
    asyncio.run(seed_audit(db, audit_id, rows, issue_records))

    got = asyncio.run(structured_data.summary_of(db, audit_id))

    assert got == expected_summary(rows, issue_records)


async def test_types_and_features_are_bounded_most_pages_first(
    migrated_d1: LocalD1Database,
) -> None:
    audit_id = f"s{next(_ids)}"
    names = [f"Type{n:02d}" for n in range(MAX_LISTED + 5)]
    # Page n carries the first n + 1 names: Type00 is on every page, the last name on one.
    rows = [
        PageRecord(
            f"{audit_id}-p{n}",
            audit_id,
            f"https://a.test/{n}",
            NOW,
            200,
            is_html=True,
            structured_types=names[: n + 1],
        )
        for n in range(len(names))
    ]
    db = as_d1(migrated_d1)
    await seed_audit(db, audit_id, rows, [])

    got = await structured_data.summary_of(db, audit_id)

    assert [t.name for t in got.types] == names[:MAX_LISTED]
    assert [t.pages for t in got.types] == list(range(len(names), len(names) - MAX_LISTED, -1))
    assert (got.types_total, got.pages) == (len(names), len(names))
    assert got.note.startswith(f"{len(names)} pages with structured data (types: Type00 25, ")
    assert f"and {len(names) - 5} more" in got.note


# -- stored on the audit ---------------------------------------------------------------------------


async def test_finalize_stores_the_summary_while_the_audit_runs_and_reports_read_it(
    migrated_d1: LocalD1Database,
) -> None:
    db = as_d1(migrated_d1)
    audit_id = f"s{next(_ids)}"
    page = PageRecord(f"{audit_id}-p", audit_id, URLS[0], NOW, 200, is_html=True,
                      has_structured_data=True, structured_types=["Article"],
                      eligible_features=["article"])  # fmt: skip
    await seed_audit(db, audit_id, [page], [])
    assert await structured_data.read_summary(db, audit_id) is None  # not finalized yet

    stored = await structured_data.record_summary(db, audit_id)

    assert stored == StructuredSummary(
        pages=1,
        types=(TypePages("Article", 1),),
        types_total=1,
        features=(FeaturePages(RichResultFeature.ARTICLE, 1),),
        features_total=1,
    )
    assert await structured_data.read_summary(db, audit_id) == stored
    assert StructuredSummary.from_dict(json.loads(json.dumps(stored.to_dict()))) == stored


async def test_an_audit_no_longer_running_keeps_what_it_had(migrated_d1: LocalD1Database) -> None:
    db = as_d1(migrated_d1)
    audit_id = f"s{next(_ids)}"
    await seed_audit(db, audit_id, [], [])
    await repository.cancel_audit(db, audit_id, finished_at=NOW)

    await structured_data.record_summary(db, audit_id)

    assert await structured_data.read_summary(db, audit_id) is None


async def test_a_column_this_version_cannot_read_is_no_summary(
    migrated_d1: LocalD1Database,
) -> None:
    db = as_d1(migrated_d1)
    audit_id = f"s{next(_ids)}"
    await seed_audit(db, audit_id, [], [])
    await (
        db.prepare("UPDATE audits SET structured_summary = ? WHERE id = ?")
        .bind('{"pages": "many"}', audit_id)
        .run()
    )

    assert await structured_data.read_summary(db, audit_id) is None


@pytest.mark.parametrize(
    ("summary", "note"),
    [
        (StructuredSummary(), "no page has structured data"),
        (
            StructuredSummary(
                pages=1,
                errors=2,
                pages_with_errors=1,
                types=(TypePages("Product", 1),),
                types_total=1,
                features=(FeaturePages(RichResultFeature.PRODUCT_SNIPPET, 1),),
            ),
            "1 page with structured data (types: Product 1); eligible for product-snippet 1; "
            "2 errors on 1 page",
        ),
        (
            StructuredSummary(pages=3, warnings=1, pages_with_warnings=1),
            "3 pages with structured data (no typed item read); eligible for no rich result; "
            "1 warning on 1 page",
        ),
        (
            StructuredSummary(
                pages=4, errors=1, pages_with_errors=1, warnings=5, pages_with_warnings=2
            ),
            "4 pages with structured data (no typed item read); eligible for no rich result; "
            "1 error on 1 page, 5 warnings on 2 pages",
        ),
        (
            StructuredSummary(pages=1, types=(TypePages("Article", 1),), types_total=1),
            "1 page with structured data (types: Article 1); eligible for no rich result; "
            "no errors or warnings",
        ),
    ],
)
def test_the_text_reports_line(summary: StructuredSummary, note: str) -> None:
    assert summary.note == note


# -- the list filters --------------------------------------------------------------------------------

FILTER_PAGES = {
    "https://a.test/product": (["Product"], ["product-snippet"], {"missing-recommended": 2}),
    "https://a.test/broken": (["Product"], [], {"missing-required": 1, "unknown-property": 1}),
    "https://a.test/article": (["Article", "BreadcrumbList"], ["article", "breadcrumb"], {}),
    "https://a.test/plain": ([], [], {}),
}


@pytest.fixture(scope="module")
def filtered(migrated_d1: LocalD1Database) -> str:
    audit_id = "filters"
    rows = [
        PageRecord(
            f"f{n}",
            audit_id,
            url,
            NOW,
            200,
            is_html=True,
            structured_types=types,
            eligible_features=features,
            structured_findings=kinds,
        )
        for n, (url, (types, features, kinds)) in enumerate(FILTER_PAGES.items())
    ]
    # One missing-title on every page, and the structured issues each page's kinds make.
    issues = [
        IssueRecord(f"fi{n}-{t}", audit_id, page.url, str(t), "warning", page.id)
        for n, page in enumerate(rows)
        for t in {
            IssueType.MISSING_TITLE,
            *(ISSUE_OF_KIND[FindingKind(k)] for k in page.structured_findings),
        }
    ]
    asyncio.run(seed_audit(as_d1(migrated_d1), audit_id, rows, issues))
    return audit_id


@pytest.mark.parametrize(
    ("structured", "urls"),
    [
        (StructuredFilter(), set(FILTER_PAGES)),
        (StructuredFilter("Product"), {"https://a.test/product", "https://a.test/broken"}),
        (StructuredFilter("product"), set()),  # exact, as the type is named
        (StructuredFilter("BreadcrumbList"), {"https://a.test/article"}),
        (StructuredFilter(eligible=RichResultFeature.ARTICLE), {"https://a.test/article"}),
        (StructuredFilter(eligible=RichResultFeature.FAQ), set()),
        (StructuredFilter(finding=FindingKind.MISSING_REQUIRED), {"https://a.test/broken"}),
        (
            StructuredFilter("Product", RichResultFeature.PRODUCT_SNIPPET),
            {"https://a.test/product"},
        ),
        (StructuredFilter("Article", finding=FindingKind.MISSING_REQUIRED), set()),
    ],
)
async def test_the_page_list_keeps_the_pages_whose_structured_data_matches(
    migrated_d1: LocalD1Database, filtered: str, structured: StructuredFilter, urls: set[str]
) -> None:
    db = as_d1(migrated_d1)
    filter_ = PageFilter(structured=structured)

    found = await listing.read_pages(db, filtered, filter_, None, 100)

    assert {page.url for _, page in found} == urls
    assert await listing.count_pages(db, filtered, filter_) == len(urls)


@pytest.mark.parametrize(
    ("filter_", "issues"),
    [
        (
            IssueFilter(structured=StructuredFilter("Product")),
            {
                ("missing-title", "https://a.test/product"),
                ("rich-result-missing-recommended", "https://a.test/product"),
                ("missing-title", "https://a.test/broken"),
                ("rich-result-missing-required", "https://a.test/broken"),
                ("structured-data-unknown-property", "https://a.test/broken"),
            },
        ),
        (
            IssueFilter(structured=StructuredFilter(eligible=RichResultFeature.BREADCRUMB)),
            {("missing-title", "https://a.test/article")},
        ),
        # A finding kind keeps the issue type that lists its findings, on the pages that have it.
        (
            IssueFilter(structured=StructuredFilter(finding=FindingKind.UNKNOWN_PROPERTY)),
            {("structured-data-unknown-property", "https://a.test/broken")},
        ),
        (
            IssueFilter(
                (IssueType.MISSING_TITLE,),
                structured=StructuredFilter(finding=FindingKind.UNKNOWN_PROPERTY),
            ),
            set(),
        ),
        (
            IssueFilter(
                (IssueType.RICH_RESULT_MISSING_REQUIRED, IssueType.MISSING_TITLE),
                Severity.WARNING,
                structured=StructuredFilter(finding=FindingKind.MISSING_REQUIRED),
            ),
            {("rich-result-missing-required", "https://a.test/broken")},
        ),
    ],
)
async def test_the_issue_list_keeps_the_issues_of_matching_pages(
    migrated_d1: LocalD1Database,
    filtered: str,
    filter_: IssueFilter,
    issues: set[tuple[str, str]],
) -> None:
    found = await listing.read_issues(as_d1(migrated_d1), filtered, filter_, None, 100)

    assert {(issue.issue_type, issue.page_url) for _, issue in found} == issues


# -- the verdict ---------------------------------------------------------------------------------


async def test_the_verdict_counts_a_pages_findings_once_per_issue_type_in_content(
    migrated_d1: LocalD1Database,
) -> None:
    """Thirty findings of two kinds that one issue type lists (structured-data-invalid-value),
    written by the crawl and written again by a render of the same page, are one row on one page:
    one content finding, whatever the number of findings behind it."""
    db = as_d1(migrated_d1)
    audit_id = f"s{next(_ids)}"
    kinds = [FindingKind.VALUE_TYPE_MISMATCH, FindingKind.UNKNOWN_ENUMERATION_MEMBER] * 15
    checked = PageStructuredData(("Product",), (), tuple(finding(k) for k in kinds), 30)
    obs = observe(structured_data=checked)
    page = PageRecord(page_id(audit_id, obs.url), audit_id, obs.url, NOW, 200, is_html=True,
                      crawl_depth=0)  # fmt: skip
    issues = [
        IssueRecord.from_detected(audit_id, issue, page.id) for issue in structured_data_issues(obs)
    ]
    await seed_audit(db, audit_id, [page], issues)
    await repository.write_crawled_pages(db, [page], issues)
    await repository.replace_crawled_pages(db, [page], issues)

    tally = await verdict.tally(db, audit_id, None)

    (row,) = tally.types
    assert (row.issue_type, row.rows, row.pages) == ("structured-data-invalid-value", 1, 1)
    (found,) = findings(tally)
    assert found.category is Category.CONTENT
    summary = await structured_data.summary_of(db, audit_id)
    assert [(t.pages, t.findings) for t in summary.issue_types] == [(1, 30)]
