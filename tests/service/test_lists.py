"""Keyset lists, as the service reads them: pages concatenate to the full ordered, filtered list;
rows written between two page fetches never duplicate or skip the rows that were there before;
an export walk holds one page at a time."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.catalogue import IssueType, Severity
from auditdb import repository
from auditdb.listing import AuditFilter, IssueFilter, PageFilter, SortKey
from auditdb.records import AuditRecord, AuditStatus, IssueRecord, PageRecord
from common.bindings import D1Database, Env
from local_platform.d1 import LocalD1Database
from service import lists
from service.errors import AuditNotFound
from service.lists import Paging
from tests.support.local_d1 import as_d1

OWNER = "owner-1"
_ids = itertools.count()


@dataclass
class OnlyDb:
    DB: D1Database


@pytest.fixture(scope="module")
def env(migrated_d1: LocalD1Database) -> Env:
    # The list queries read only env.DB: no other binding is needed.
    return cast(Env, OnlyDb(as_d1(migrated_d1)))


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def unique(prefix: str) -> str:
    return f"{prefix}{next(_ids):06d}"


async def new_audit(env: Env, owner: str = OWNER, **fields: Any) -> str:
    audit = AuditRecord(
        id=unique("a"),
        start_url="https://a.test/",
        created_at="2026-12-01T00:00:00.000Z",
        owner=owner,
    )
    audit = AuditRecord(**{**{f: getattr(audit, f) for f in audit.__slots__}, **fields})
    await repository.insert_audit(env.DB, audit)
    return audit.id


# -- row strategies: a few urls and types, so sort keys tie and ids break the ties -------------

URLS = [f"https://a.test/{p}" for p in ("", "a", "a/b", "b", "blog/", "blog/x", "é")]
TYPES = [IssueType.MISSING_TITLE, IssueType.THIN_CONTENT, IssueType.BROKEN_INTERNAL_LINK]


@st.composite
def page_rows(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "url": draw(st.sampled_from(URLS)),
        "status_code": draw(st.sampled_from([200, 301, 404, 410, 500])),
        "is_indexable": draw(st.booleans()),
    }


@st.composite
def issue_rows(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "page_url": draw(st.sampled_from(URLS)),
        "issue_type": str(draw(st.sampled_from(TYPES))),
        # Any severity, not the catalogue's: the list must follow what the rows hold.
        "severity": str(draw(st.sampled_from(list(Severity)))),
    }


page_filters = st.builds(
    PageFilter,
    status_code=st.sampled_from([None, 404, 200]),
    status_class=st.sampled_from([None, 4, 3]),
    indexable=st.sampled_from([None, True, False]),
    has_issue=st.sampled_from([None, *TYPES]),
    url_contains=st.sampled_from([None, "blog", "/a"]),
)
issue_filters = st.builds(
    IssueFilter,
    types=st.lists(st.sampled_from(TYPES), max_size=3).map(tuple),
    severity=st.sampled_from([None, *Severity]),
    page_url_prefix=st.sampled_from([None, "https://a.test/blog", "https://a.test/a", "https://b"]),
)


async def write(
    env: Env, audit_id: str, pages: list[dict[str, Any]], issues: list[dict[str, Any]]
) -> None:
    page_records = [
        PageRecord(id=unique("p"), audit_id=audit_id, crawled_at="t", **row) for row in pages
    ]
    issue_records = [IssueRecord(id=unique("i"), audit_id=audit_id, **row) for row in issues]
    await repository.write_crawled_pages(env.DB, page_records, issue_records)


# -- the expected lists, computed in Python --------------------------------------------------


def rank(severity: str) -> int:
    return Severity(severity).order


def issue_key(issue: IssueRecord) -> SortKey:
    return (rank(issue.severity), issue.issue_type, issue.page_url, issue.id)


def issue_matches(f: IssueFilter) -> Callable[[IssueRecord], bool]:
    def match(issue: IssueRecord) -> bool:
        return (
            (not f.types or issue.issue_type in f.types)
            and (f.severity is None or issue.severity == f.severity)
            and (f.page_url_prefix is None or issue.page_url.startswith(f.page_url_prefix))
        )

    return match


def page_matches(f: PageFilter, issues: list[IssueRecord]) -> Callable[[PageRecord], bool]:
    def match(page: PageRecord) -> bool:
        return (
            (f.status_code is None or page.status_code == f.status_code)
            and (f.status_class is None or page.status_code // 100 == f.status_class)
            and (f.indexable is None or page.is_indexable == f.indexable)
            and (f.url_contains is None or f.url_contains in page.url)
            and (
                f.has_issue is None
                or any(i.page_url == page.url and i.issue_type == f.has_issue for i in issues)
            )
        )

    return match


async def all_issues(env: Env, audit_id: str) -> list[IssueRecord]:
    return [i async for chunk in lists.iter_issues(env, OWNER, audit_id) for i in chunk]


async def all_pages(env: Env, audit_id: str) -> list[PageRecord]:
    return [p async for chunk in lists.iter_pages(env, OWNER, audit_id) for p in chunk]


MAX_FETCHES = 200  # more than any example needs: a cursor that does not advance fails, not hangs


async def page_through(read: Callable[[Paging], Any], limit: int) -> list[Any]:
    found: list[Any] = []
    after: SortKey | None = None
    for _ in range(MAX_FETCHES):
        page = await read(Paging(after, limit))
        assert len(page.items) <= limit
        found.extend(page.items)
        if page.next_after is None:
            return found
        assert len(page.items) == limit
        after = page.next_after
    raise AssertionError("the cursor did not advance")


PROPERTY = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@PROPERTY
@given(
    pages=st.lists(page_rows(), max_size=25),
    issues=st.lists(issue_rows(), max_size=40),
    f=issue_filters,
    limit=st.integers(1, 12),
)
def test_issue_pages_concatenate_to_the_ordered_filtered_list(
    env: Env, pages: list[dict[str, Any]], issues: list[dict[str, Any]], f: IssueFilter, limit: int
) -> None:
    async def check() -> None:
        audit_id = await new_audit(env)
        await write(env, audit_id, pages, issues)
        stored = await all_issues(env, audit_id)
        expected = sorted(filter(issue_matches(f), stored), key=issue_key)

        got = await page_through(lambda p: lists.list_issues(env, OWNER, audit_id, f, p), limit)

        assert [i.id for i in got] == [i.id for i in expected]

    run(check())


@PROPERTY
@given(
    pages=st.lists(page_rows(), max_size=30),
    issues=st.lists(issue_rows(), max_size=30),
    f=page_filters,
    limit=st.integers(1, 12),
)
def test_page_pages_concatenate_to_the_ordered_filtered_list(
    env: Env, pages: list[dict[str, Any]], issues: list[dict[str, Any]], f: PageFilter, limit: int
) -> None:
    async def check() -> None:
        audit_id = await new_audit(env)
        await write(env, audit_id, pages, issues)
        stored_issues = await all_issues(env, audit_id)
        stored = await all_pages(env, audit_id)
        expected = sorted(
            filter(page_matches(f, stored_issues), stored), key=lambda p: (p.url, p.id)
        )

        got = await page_through(lambda p: lists.list_pages(env, OWNER, audit_id, f, p), limit)

        assert [p.id for p in got] == [p.id for p in expected]

    run(check())


@PROPERTY
@given(
    before=st.lists(issue_rows(), min_size=1, max_size=30),
    between=st.lists(st.lists(issue_rows(), max_size=5), max_size=8),
    f=issue_filters,
    limit=st.integers(1, 8),
)
def test_rows_written_while_paging_never_duplicate_or_skip_earlier_rows(
    env: Env,
    before: list[dict[str, Any]],
    between: list[list[dict[str, Any]]],
    f: IssueFilter,
    limit: int,
) -> None:
    async def check() -> None:
        audit_id = await new_audit(env)
        await write(env, audit_id, [], before)
        existing = [i for i in await all_issues(env, audit_id) if issue_matches(f)(i)]
        writes = iter(between)
        seen: list[IssueRecord] = []
        after: SortKey | None = None
        for _ in range(MAX_FETCHES):
            page = await lists.list_issues(env, OWNER, audit_id, f, Paging(after, limit))
            seen.extend(page.items)
            await write(env, audit_id, [], next(writes, []))  # the crawl goes on between fetches
            if page.next_after is None:
                break
            after = page.next_after
        else:
            raise AssertionError("the cursor did not advance")

        ids = [i.id for i in seen]
        assert len(ids) == len(set(ids))  # nothing twice
        assert {i.id for i in existing} <= set(ids)  # nothing that was there is skipped
        assert [issue_key(i) for i in seen] == sorted(issue_key(i) for i in seen)  # one order

    run(check())


@PROPERTY
@given(
    audits=st.lists(
        st.tuples(
            st.sampled_from(["2026-12-01T00:00:00.000Z", "2026-12-02T00:00:00.000Z"]),
            st.sampled_from(list(AuditStatus)),
            st.sampled_from(["https://shop.test/", "https://blog.test/"]),
        ),
        max_size=12,
    ),
    f=st.builds(
        AuditFilter,
        status=st.sampled_from([None, *AuditStatus]),
        url_contains=st.sampled_from([None, "shop"]),
    ),
    limit=st.integers(1, 5),
)
def test_audit_pages_concatenate_newest_first(
    env: Env, audits: list[tuple[str, AuditStatus, str]], f: AuditFilter, limit: int
) -> None:
    async def check() -> None:
        owner = unique("owner-")
        created = []
        for created_at, status, url in audits:
            audit_id = await new_audit(
                env, owner, created_at=created_at, status=status, start_url=url
            )
            created.append((created_at, audit_id, status, url))
        await new_audit(env, unique("other-"))  # another owner's audit never shows
        expected = [
            audit_id
            for created_at, audit_id, status, url in sorted(created, reverse=True)
            if (f.status is None or status == f.status)
            and (f.url_contains is None or f.url_contains in url)
        ]

        got = await page_through(lambda p: lists.list_audits(env, owner, f, p), limit)

        assert [a.id for a in got] == expected

    run(check())


async def insert_many(env: Env, audit_id: str, n: int) -> None:
    per_statement = 25
    statements = []
    for start in range(0, n, per_statement):
        count = min(per_statement, n - start)
        holes = ", ".join("(?, ?, ?, 't')" for _ in range(count))
        values: list[Any] = []
        for k in range(start, start + count):
            values += [f"{audit_id}-p{k:06d}", audit_id, f"https://a.test/{k:06d}"]
        statements.append(
            env.DB.prepare(
                f"INSERT INTO audit_pages (id, audit_id, url, crawled_at) VALUES {holes}"
            ).bind(*values)
        )
        issue_holes = ", ".join("(?, ?, ?, 'thin-content', 'warning')" for _ in range(count))
        issue_values: list[Any] = []
        for k in range(start, start + count):
            issue_values += [f"{audit_id}-i{k:06d}", audit_id, f"https://a.test/{k:06d}"]
        statements.append(
            env.DB.prepare(
                f"INSERT INTO audit_issues (id, audit_id, page_url, issue_type, severity) VALUES {issue_holes}"
            ).bind(*issue_values)
        )
    await env.DB.batch(statements)


def test_an_export_walk_of_25000_rows_holds_one_page_at_a_time(env: Env) -> None:
    async def check() -> None:
        audit_id = await new_audit(env)
        await insert_many(env, audit_id, 25_000)
        for walk in (lists.iter_pages, lists.iter_issues):
            sizes, last, total = [], None, 0
            async for chunk in walk(env, OWNER, audit_id, page_size=1000):
                sizes.append(len(chunk))
                urls = [row.url if isinstance(row, PageRecord) else row.page_url for row in chunk]
                assert urls == sorted(urls) and (last is None or last < urls[0])
                last, total = urls[-1], total + len(chunk)
            assert total == 25_000 and max(sizes) == 1000 and len(sizes) == 25

    run(check())


def test_another_owners_audit_cannot_be_listed_or_walked(env: Env) -> None:
    async def check() -> None:
        audit_id = await new_audit(env, "someone-else")
        with pytest.raises(AuditNotFound):
            await lists.list_pages(env, OWNER, audit_id, PageFilter(), Paging())
        with pytest.raises(AuditNotFound):
            await lists.iter_issues(env, OWNER, audit_id).__anext__()

    run(check())


def test_a_paging_limit_outside_1_to_1000_is_a_programming_error() -> None:
    for limit in (0, 1001):
        with pytest.raises(ValueError, match="limit"):
            Paging(None, limit)
