"""Finalize's health-score counts, read from D1 (`repository.score_counts`), agree with the score's
definition in audit.score: the scored pages (`is_scored`), those of them with a critical issue of a
page-scoped type, and the issue totals per severity, whatever the rows hold."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from audit.catalogue import CATALOGUE, IssueType, Scope, Severity
from audit.score import is_scored
from auditdb import repository
from auditdb.records import AuditRecord, IssueRecord, PageRecord
from common.fetch_class import FetchClass
from local_platform.d1 import LocalD1Database

NOW = "2026-12-01T00:00:00.000Z"
# Issues may sit on urls that are not pages of the audit (a broken target, the site's root).
URLS = [f"https://a.test/{n}" for n in range(8)]
SITE_TYPES = [t for t, d in CATALOGUE.items() if d.scope is Scope.SITE]
TYPES = [IssueType.MISSING_TITLE, IssueType.BROKEN_INTERNAL_LINK, SITE_TYPES[0], SITE_TYPES[-1]]
_ids = itertools.count()


pages = st.dictionaries(
    st.sampled_from(URLS[:6]),
    st.tuples(
        st.sampled_from(list(FetchClass)),
        st.sampled_from([0, 200, 301, 404, 500]),
        st.booleans(),
    ),
)
issues = st.lists(
    st.tuples(
        st.sampled_from(URLS),
        st.sampled_from(TYPES),
        # Any severity, not the catalogue's: the security grade and exposure checks store their own.
        st.sampled_from(list(Severity)),
    ),
    max_size=20,
)


async def _seed(
    db: LocalD1Database, audit_id: str, pages: list[PageRecord], issues: list[IssueRecord]
) -> None:
    await repository.insert_audit(db, AuditRecord(audit_id, URLS[0], NOW))
    await repository.write_crawled_pages(db, pages, issues)


@settings(max_examples=80, deadline=None)
@given(pages=pages, issues=issues)
def test_the_counts_follow_the_score_definition(
    migrated_d1: LocalD1Database,
    pages: dict[str, tuple[FetchClass, int, bool]],
    issues: list[tuple[str, IssueType, Severity]],
) -> None:
    audit_id = f"a{next(_ids)}"
    page_rows = [
        PageRecord(f"{audit_id}-p{n}", audit_id, url, NOW, status, str(fetch), is_html=html)
        for n, (url, (fetch, status, html)) in enumerate(pages.items())
    ]
    issue_rows = [
        IssueRecord(f"{audit_id}-i{n}", audit_id, url, str(type_), str(severity))
        for n, (url, type_, severity) in enumerate(issues)
    ]
    asyncio.run(_seed(migrated_d1, audit_id, page_rows, issue_rows))

    counts = asyncio.run(repository.score_counts(migrated_d1, audit_id))

    scored = {page.url for page in page_rows if is_scored(page)}
    critical = {
        url
        for url, type_, severity in issues
        if severity is Severity.CRITICAL and type_ not in SITE_TYPES
    }
    by_severity = Counter(str(severity) for _, _, severity in issues)
    assert counts == {
        "scored": len(scored),
        "critical_pages": len(scored & critical),
        **{str(severity): by_severity[str(severity)] for severity in Severity},
        "total": len(issues),
    }
