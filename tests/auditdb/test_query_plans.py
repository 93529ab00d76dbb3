"""EXPLAIN QUERY PLAN over every statement the list routes, the report, the MCP tools and the
comparison can issue.

Each list statement must read its table through an index seek (`SEARCH ... USING INDEX`) and in
index order: no full `SCAN` of audits, audit_pages or audit_issues, and no `USE TEMP B-TREE` (a
sort of the rows the filters leave, per page). Filters that no index can seek (a url substring,
an issue page_url prefix without a type, has_issue) must still be bounded by the audit_id (or
owner) seek. The database is migrated with every migration, as `wrangler d1 migrations apply`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

import pytest

from audit.catalogue import IssueType, Severity
from auditdb import compare, page_links, structured_data, summary, verdict
from auditdb.compare import IssueChange, PageChange
from auditdb.listing import (
    AuditFilter,
    IssueFilter,
    PageFilter,
    SortKey,
    Statement,
    StructuredFilter,
    audits_statement,
    issue_groups,
    issue_statement,
    page_count_statement,
    pages_statement,
)
from auditdb.records import AuditStatus
from local_platform.d1 import LocalD1Database
from structured.findings import FindingKind, RichResultFeature

# The plan names a table by its alias where the statement gives one (auditdb.compare: i, o, p).
TABLES = ("audits", "audit_pages", "audit_issues", "audit_page_links", "i", "o", "p")
FULL_SCAN = re.compile(rf"\bSCAN ({'|'.join(TABLES)})\b")
SEEK = re.compile(
    rf"\bSEARCH ({'|'.join(TABLES)}) USING (COVERING )?INDEX \w+ \((audit_id|owner)=\?"
)


def _audit_statements() -> Iterator[tuple[str, Statement, bool]]:
    for status, url, after in itertools.product(
        (None, *AuditStatus), (None, "shop"), (None, ("2026-12-01T00:00:00.000Z", "a1"))
    ):
        filter_ = AuditFilter(status=status, url_contains=url)
        yield (
            f"audits {filter_} after={after}",
            audits_statement("o", filter_, after, 101),
            bool(url),
        )


_PAGE_FILTERS = {
    "status_code": 404,
    "status_class": 4,
    "indexable": False,
    "has_issue": IssueType.MISSING_TITLE,
    "url_contains": "/blog/",
    "structured": StructuredFilter(
        "Product", RichResultFeature.PRODUCT_SNIPPET, FindingKind.MISSING_REQUIRED
    ),
}
_RESIDUAL_PAGE_FILTERS = {"has_issue", "url_contains", "structured"}


def _page_statements() -> Iterator[tuple[str, Statement, bool]]:
    names = list(_PAGE_FILTERS)
    for size in range(len(names) + 1):
        for chosen in itertools.combinations(names, size):
            filter_ = PageFilter(**{name: _PAGE_FILTERS[name] for name in chosen})  # type: ignore[arg-type]
            residual = bool(_RESIDUAL_PAGE_FILTERS & set(chosen))
            for after in (None, ("https://a.test/x", "p1")):
                yield (
                    f"pages {filter_} after={after}",
                    pages_statement("a1", filter_, after, 101),
                    residual,
                )
            # The total the MCP tool get_audit_pages reports: the same terms, counted.
            yield f"pages count {filter_}", page_count_statement("a1", filter_), residual


def _issue_statements() -> Iterator[tuple[str, Statement, bool]]:
    for types, severity, prefix, structured in itertools.product(
        ((), (IssueType.MISSING_TITLE,), (IssueType.MISSING_TITLE, IssueType.THIN_CONTENT)),
        (None, Severity.WARNING),
        (None, "https://a.test/blog/"),
        (StructuredFilter(), _PAGE_FILTERS["structured"]),
    ):
        filter_ = IssueFilter(types, severity, prefix, structured)  # type: ignore[arg-type]
        for group in issue_groups("a1", filter_):
            # No cursor, and a cursor inside this group (the remaining sort columns compared).
            inside: SortKey = (
                *group.fixed,
                *(1, "t", "https://a.test/x", "i1")[len(group.fixed) :],
            )
            for after in (None, inside):
                statement = issue_statement(group, filter_, after, 101)
                assert statement is not None
                residual = (prefix is not None and not types) or structured != StructuredFilter()
                yield f"issues {filter_} group={group.fixed} after={after}", statement, residual


def _report_statements() -> Iterator[tuple[str, Statement, bool]]:
    yield "counts", Statement(summary.COUNTS_SQL, ("a1",)), False
    yield "examples", Statement(summary.EXAMPLES_SQL, ("a1", "missing-title", 3)), False
    yield "first issue", Statement(summary.FIRST_ISSUE_SQL, ("a1", "security-csp")), False


def _link_statements() -> Iterator[tuple[str, Statement, bool]]:
    """The kept link graph: a page's row (the API), a range of rows (the report), any row."""
    yield "page links", Statement(page_links.ONE_SQL, ("a1", "https://a.test/")), False
    yield (
        "page links range",
        Statement(page_links.MANY_SQL, ("a1", '["https://a.test/"]')),
        False,
    )
    yield "links kept", Statement(page_links.KEPT_SQL, ("a1",)), False


def _score_statements() -> Iterator[tuple[str, Statement, bool]]:
    yield "verdict site", Statement(verdict.SITE_SQL, ("a1",)), False
    yield "structured data site", Statement(structured_data.SITE_SQL, ("a1",)), False


def _compare_statements() -> Iterator[tuple[str, Statement, bool]]:
    yield "compare after counts", compare.after_counts_statement("a1", "a2"), False
    yield "compare before counts", compare.before_counts_statement("a1", "a2"), False
    for change in IssueChange:
        yield f"compare {change} issues", compare.issues_statement(change, "a1", "a2", 100), False
    for page_change in PageChange:
        count = compare.pages_count_statement(page_change, "a1", "a2")
        yield f"compare {page_change} pages count", count, False
        yield (
            f"compare {page_change} pages",
            compare.pages_statement(page_change, "a1", "a2", 100),
            False,
        )


ALL = [
    *_audit_statements(),
    *_page_statements(),
    *_issue_statements(),
    *_report_statements(),
    *_link_statements(),
    *_score_statements(),
    *_compare_statements(),
]


@pytest.fixture(scope="module")
def db(migrated_d1: LocalD1Database) -> LocalD1Database:
    return migrated_d1


async def plan(db: LocalD1Database, statement: Statement) -> list[str]:
    result = await db.prepare(f"EXPLAIN QUERY PLAN {statement.sql}").bind(*statement.params).all()
    return [str(row["detail"]) for row in result["results"]]


@pytest.mark.parametrize(("name", "statement", "residual"), ALL, ids=[name for name, _, _ in ALL])
async def test_every_list_statement_seeks_an_index_and_reads_in_order(
    db: LocalD1Database, name: str, statement: Statement, residual: bool
) -> None:
    lines = await plan(db, statement)

    assert not [line for line in lines if FULL_SCAN.search(line)], lines
    assert not [line for line in lines if "TEMP B-TREE" in line], lines
    # The outer table is always reached by a seek on audit_id (or owner), whatever the filters.
    assert SEEK.search(lines[0]), lines


def test_the_filters_no_index_can_seek_are_the_listed_ones() -> None:
    residual = {name.split(" ")[0] for name, _, is_residual in ALL if is_residual}
    assert residual == {"audits", "pages", "issues"}


@pytest.mark.parametrize(
    ("filter_", "index"),
    [
        (PageFilter(status_code=404), "audit_pages_audit_status_idx"),
        (PageFilter(status_class=4), "audit_pages_audit_class_idx"),
        (PageFilter(indexable=True), "audit_pages_audit_indexable_idx"),
        (PageFilter(url_contains="x"), "audit_pages_audit_url_id_idx"),
    ],
)
async def test_each_page_filter_seeks_its_own_index(
    db: LocalD1Database, filter_: PageFilter, index: str
) -> None:
    lines = await plan(db, pages_statement("a1", filter_, ("u", "i"), 10))
    assert index in lines[0], lines


@pytest.mark.parametrize("status", list(AuditStatus))
async def test_the_audit_status_filter_seeks_the_owner_status_index(
    db: LocalD1Database, status: AuditStatus
) -> None:
    statement = audits_statement("o", AuditFilter(status=status), ("2026-12-01", "a1"), 10)
    lines = await plan(db, statement)
    assert "audits_owner_status_created_id_idx (owner=? AND status=?" in lines[0], lines


async def test_a_typed_issue_list_seeks_the_page_url_prefix(db: LocalD1Database) -> None:
    filter_ = IssueFilter((IssueType.MISSING_TITLE,), None, "https://a.test/blog/")
    group = issue_groups("a1", filter_)[0]
    statement = issue_statement(group, filter_, None, 10)
    assert statement is not None

    lines = await plan(db, statement)

    assert "issue_type=? AND page_url>? AND page_url<?" in lines[0], lines


@pytest.mark.parametrize(
    ("name", "statement"),
    [(name, statement) for name, statement, _ in _compare_statements()],
    ids=[name for name, _, _ in _compare_statements()],
)
async def test_the_comparison_probes_the_other_audit_by_an_exact_seek(
    db: LocalD1Database, name: str, statement: Statement
) -> None:
    lines = await plan(db, statement)
    probes = [line for line in lines if "CORRELATED" not in line and " o " in f" {line} "]

    assert probes, lines
    identity = (
        "audit_issues_identity_idx (audit_id=? AND issue_type=? AND page_url=? AND dedupe_key=?)"
    )
    url = "audit_pages_audit_url_id_idx (audit_id=? AND url=?)"
    assert all(identity in line or url in line for line in probes), lines


async def test_the_verdict_tally_looks_each_page_up_once_by_its_url(db: LocalD1Database) -> None:
    lines = await plan(db, Statement(verdict.TYPES_SQL, ("a1", "a1")))

    # Issues are walked in (type, page) order, and each distinct page is probed by an exact seek.
    # Run once per audit at finalize, it may group its (type, page) pairs in a temporary b-tree;
    # the list statements above, run per request, may not.
    assert "SEARCH audit_issues USING INDEX audit_issues_identity_idx (audit_id=?)" in lines, lines
    assert not [line for line in lines if "CORRELATED" in line or FULL_SCAN.search(line)], lines
    assert any("audit_pages_audit_url" in line and "url=?" in line for line in lines), lines


async def test_no_index_on_the_severity_text_is_left(db: LocalD1Database) -> None:
    result = await db.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_issues'"
    ).all()
    names = {str(row["name"]) for row in result["results"]}

    assert "audit_issues_audit_severity_idx" not in names
    assert {"audit_issues_list_idx", "audit_issues_identity_idx"} <= names


_STRUCTURED_SUMMARY = [
    ("types", Statement(structured_data.TYPES_SQL, ("a1", 20))),
    ("features", Statement(structured_data.FEATURES_SQL, ("a1", 20))),
    ("kinds", Statement(structured_data.KINDS_SQL, ("a1",))),
    ("issue types", Statement(structured_data.ISSUE_TYPES_SQL, ("a1", '["missing-title"]'))),
]


@pytest.mark.parametrize(
    ("name", "statement"), _STRUCTURED_SUMMARY, ids=[name for name, _ in _STRUCTURED_SUMMARY]
)
async def test_the_structured_data_summary_walks_one_audits_rows(
    db: LocalD1Database, name: str, statement: Statement
) -> None:
    """Finalize's sums group and sort what they read (a temporary b-tree is expected there), but
    read only the audit's rows, through a seek on audit_id (inside the window's subquery)."""
    lines = await plan(db, statement)

    assert not [line for line in lines if FULL_SCAN.search(line)], lines
    assert [line for line in lines if SEEK.search(line)], lines
