"""Query strings of the list routes: every accepted form, and every refusal naming its parameter."""

from __future__ import annotations

import pytest

from api import queries
from api.errors import ApiErrorCode, BadRequest
from api.queries import (
    Query,
    parse_audit_filter,
    parse_issue_filter,
    parse_page_filter,
    parse_paging,
)
from audit.catalogue import IssueType, Severity
from auditdb.listing import (
    AuditFilter,
    IssueFilter,
    ListKind,
    PageFilter,
    StructuredFilter,
    encode_cursor,
)
from auditdb.records import AuditStatus
from service.lists import DEFAULT_LIMIT, Paging
from structured.findings import FindingKind, RichResultFeature


def query(text: str) -> Query:
    return Query.of(f"https://x.test/api/audits?{text}")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", AuditFilter()),
        ("status=running", AuditFilter(status=AuditStatus.RUNNING)),
        ("status=failed&url=shop", AuditFilter(AuditStatus.FAILED, "shop")),
        ("url=%2Fblog%2F", AuditFilter(url_contains="/blog/")),
    ],
)
def test_audit_filters(text: str, expected: AuditFilter) -> None:
    assert parse_audit_filter(query(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", PageFilter()),
        ("status=404", PageFilter(status_code=404)),
        ("status=200", PageFilter(status_code=200)),
        ("status=4xx", PageFilter(status_class=4)),
        ("status=5XX", PageFilter(status_class=5)),
        ("indexable=true", PageFilter(indexable=True)),
        ("indexable=false", PageFilter(indexable=False)),
        ("has_issue=missing-title", PageFilter(has_issue=IssueType.MISSING_TITLE)),
        # The pages a static accessibility rule failed on (docs/accessibility.md).
        ("has_issue=a11y-image-alt", PageFilter(has_issue=IssueType.A11Y_IMAGE_ALT)),
        ("url=%2Fblog", PageFilter(url_contains="/blog")),
        (
            "status=3xx&indexable=false&has_issue=thin-content&url=a",
            PageFilter(None, 3, False, IssueType.THIN_CONTENT, "a"),
        ),
        ("structured_type=Product", PageFilter(structured=StructuredFilter("Product"))),
        ("structured_type=schema%3AThing", PageFilter(structured=StructuredFilter("schema:Thing"))),
        (
            "eligible_feature=faq",
            PageFilter(structured=StructuredFilter(eligible=RichResultFeature.FAQ)),
        ),
        (
            "structured_finding=unknown-property&structured_type=Recipe",
            PageFilter(structured=StructuredFilter("Recipe", finding=FindingKind.UNKNOWN_PROPERTY)),
        ),
    ],
)
def test_page_filters(text: str, expected: PageFilter) -> None:
    assert parse_page_filter(query(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", IssueFilter()),
        ("type=missing-title", IssueFilter((IssueType.MISSING_TITLE,))),
        (
            "type=missing-title&type=thin-content",
            IssueFilter((IssueType.MISSING_TITLE, IssueType.THIN_CONTENT)),
        ),
        ("type=thin-content&type=thin-content", IssueFilter((IssueType.THIN_CONTENT,))),
        ("severity=critical", IssueFilter(severity=Severity.CRITICAL)),
        ("type=a11y-link-name", IssueFilter((IssueType.A11Y_LINK_NAME,))),
        ("severity=info", IssueFilter(severity=Severity.INFO)),
        (
            "page_url=https%3A%2F%2Fa.test%2Fblog%2F",
            IssueFilter(page_url_prefix="https://a.test/blog/"),
        ),
        (
            "type=missing-title&structured_type=Event&eligible_feature=event"
            "&structured_finding=missing-required",
            IssueFilter(
                (IssueType.MISSING_TITLE,),
                structured=StructuredFilter(
                    "Event", RichResultFeature.EVENT, FindingKind.MISSING_REQUIRED
                ),
            ),
        ),
    ],
)
def test_issue_filters(text: str, expected: IssueFilter) -> None:
    assert parse_issue_filter(query(text)) == expected


AUDITS, PAGES, ISSUES = parse_audit_filter, parse_page_filter, parse_issue_filter


@pytest.mark.parametrize(
    ("parse", "text", "names"),
    [
        (AUDITS, "status=cancelled-ish", "'status'"),
        (AUDITS, "status=RUNNING", "'status'"),
        (AUDITS, "status=", "'status'"),
        (AUDITS, "status=running&status=failed", "'status'"),
        (AUDITS, "url=", "'url'"),
        (AUDITS, "url=" + "a" * 2049, "'url'"),
        (PAGES, "status=99", "'status'"),
        (PAGES, "status=600", "'status'"),
        (PAGES, "status=4x", "'status'"),
        (PAGES, "status=6xx", "'status'"),
        (PAGES, "status=0", "'status'"),
        (PAGES, "status=%EF%BC%94%EF%BC%90%EF%BC%94", "'status'"),  # fullwidth digits
        (PAGES, "indexable=yes", "'indexable'"),
        (PAGES, "indexable=1", "'indexable'"),
        (PAGES, "indexable=True", "'indexable'"),
        (PAGES, "has_issue=not-a-rule", "'has_issue'"),
        (PAGES, "has_issue=missing-title&has_issue=thin-content", "'has_issue'"),
        (ISSUES, "type=not-a-rule", "'type'"),
        (ISSUES, "type=missing-title&type=", "'type'"),
        (ISSUES, "&".join(f"type={t}" for t in list(IssueType)[:21]), "'type'"),
        (ISSUES, "severity=high", "'severity'"),
        (ISSUES, "severity=critical&severity=info", "'severity'"),
        (ISSUES, "page_url=", "'page_url'"),
        (PAGES, "structured_type=", "'structured_type'"),
        (PAGES, "structured_type=A&structured_type=B", "'structured_type'"),
        (PAGES, "eligible_feature=Product", "'eligible_feature'"),
        (PAGES, "eligible_feature=product-snippet&eligible_feature=faq", "'eligible_feature'"),
        (PAGES, "structured_finding=error", "'structured_finding'"),
        (ISSUES, "eligible_feature=rich", "'eligible_feature'"),
        (ISSUES, "structured_finding=missing", "'structured_finding'"),
    ],
)
def test_bad_filters_are_refused_naming_the_parameter(parse: object, text: str, names: str) -> None:
    with pytest.raises(BadRequest) as caught:
        parse(query(text))  # type: ignore[operator]
    assert caught.value.code is ApiErrorCode.INVALID_REQUEST
    assert names in caught.value.message


@pytest.mark.parametrize(
    ("kind", "text", "name"),
    [
        (ListKind.AUDITS, "sort=created_at", "'sort'"),
        (ListKind.PAGES, "type=missing-title", "'type'"),
        (ListKind.ISSUES, "status=404", "'status'"),
        (ListKind.MONITORS, "status=active", "'status'"),
    ],
)
def test_a_name_a_list_does_not_declare_is_refused(kind: ListKind, text: str, name: str) -> None:
    with pytest.raises(BadRequest) as caught:
        query(text).check_names(queries.PARAMETERS[kind])
    assert caught.value.code is ApiErrorCode.INVALID_REQUEST
    assert f"unknown query parameter {name}" in caught.value.message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", Paging(None, DEFAULT_LIMIT)),
        ("limit=1", Paging(None, 1)),
        ("limit=1000", Paging(None, 1000)),
        ("limit=0050", Paging(None, 50)),
        (f"cursor={encode_cursor(ListKind.PAGES, ('https://a.test/', 'p1'))}&limit=5",
         Paging(("https://a.test/", "p1"), 5)),
    ],
)  # fmt: skip
def test_paging(text: str, expected: Paging) -> None:
    assert parse_paging(query(text), ListKind.PAGES) == expected


GOOD_ISSUE_CURSOR = encode_cursor(ListKind.ISSUES, (0, "missing-title", "https://a.test/", "i1"))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("limit=0", "'limit'"),
        ("limit=1001", "'limit'"),
        ("limit=-1", "'limit'"),
        ("limit=ten", "'limit'"),
        ("limit=1.5", "'limit'"),
        ("limit=", "'limit'"),
        ("limit=%EF%BC%95", "'limit'"),  # a fullwidth 5 is a digit to str.isdigit, not to us
        ("limit=5&limit=6", "'limit'"),
        ("cursor=", "'cursor'"),
        ("cursor=not-base64!", "'cursor'"),
        ("cursor=e30", "'cursor'"),  # base64 of {}
        (f"cursor={GOOD_ISSUE_CURSOR}", "'cursor'"),  # another list's cursor
        (f"cursor={encode_cursor(ListKind.PAGES, ('u',))}", "'cursor'"),  # too short
        (f"cursor={encode_cursor(ListKind.PAGES, ('u', 1))}", "'cursor'"),  # wrong type
        (f"cursor={GOOD_ISSUE_CURSOR[:-3]}", "'cursor'"),  # truncated
    ],
)
def test_bad_paging_is_refused_naming_the_parameter(text: str, name: str) -> None:
    with pytest.raises(BadRequest) as caught:
        parse_paging(query(text), ListKind.PAGES)
    assert caught.value.code is ApiErrorCode.INVALID_REQUEST
    assert name in caught.value.message


def test_a_cursor_round_trips_for_each_list() -> None:
    keys = {
        ListKind.AUDITS: ("2026-12-01T00:00:00.000Z", "a1"),
        ListKind.PAGES: ("https://a.test/é?q=1", "p1"),
        ListKind.ISSUES: (2, "thin-content", "https://a.test/", "i1"),
    }
    for kind, key in keys.items():
        cursor = encode_cursor(kind, key)
        assert cursor.isascii() and "=" not in cursor and "/" not in cursor and "+" not in cursor
        assert parse_paging(query(f"cursor={cursor}"), kind).after == key


def test_the_next_link_keeps_the_path_and_filters_and_replaces_the_cursor() -> None:
    q = query("type=missing-title&type=thin-content&cursor=old&limit=5")
    assert q.next_link("/api/audits/a1/issues", "NEW") == (
        '</api/audits/a1/issues?type=missing-title&type=thin-content&limit=5&cursor=NEW>; rel="next"'
    )
