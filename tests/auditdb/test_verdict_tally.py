"""Finalize's verdict tally, added up in D1 (`auditdb.verdict.tally`), agrees with its definition
in audit.verdict and audit.score, whatever the rows hold: the scored pages (`is_scored`) and their
importance (`importance` of the crawl depth), the 2xx HTML pages, and per issue type its rows, its
distinct pages, the importance of those that are scored, its most severe row and, for a security
grade test, its score modifier. Issues may sit on URLs that are no page of the audit."""

from __future__ import annotations

import asyncio
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from audit.catalogue import IssueType, Severity
from audit.score import is_scored
from audit.verdict import Tally, TypeTally, importance
from auditdb import repository, verdict
from auditdb.records import AuditRecord, IssueRecord, PageRecord
from common.bindings import D1Database
from common.fetch_class import FetchClass
from local_platform.d1 import LocalD1Database
from tests.support.local_d1 import as_d1

NOW = "2026-12-01T00:00:00.000Z"
URLS = [f"https://a.test/{n}" for n in range(8)]
TYPES = [
    IssueType.MISSING_TITLE,
    IssueType.BROKEN_INTERNAL_LINK,
    IssueType.SECURITY_CSP,
    IssueType.EXPOSURE_SPF_MISSING,
]
_ids = itertools.count()

pages = st.dictionaries(
    st.sampled_from(URLS[:6]),
    st.tuples(
        st.sampled_from(list(FetchClass)),
        st.sampled_from([0, 200, 301, 404, 500]),
        st.booleans(),
        st.none() | st.integers(min_value=0, max_value=9),
        st.booleans(),  # the accessibility rules ran on it
        st.booleans(),  # axe-core ran on it, rendered
    ),
)
issues = st.lists(
    st.tuples(
        st.sampled_from(URLS),
        st.sampled_from(TYPES),
        # Any severity, not the catalogue's: the security grade and exposure checks store their own.
        st.sampled_from(list(Severity)),
        st.integers(min_value=-30, max_value=10),
    ),
    max_size=20,
)


def expected_tally(page_rows: list[PageRecord], issue_rows: list[IssueRecord]) -> Tally:
    scored = {p.url: importance(p.crawl_depth) for p in page_rows if is_scored(p)}
    html = sum(
        p.fetch_class == "ok" and p.is_html and 200 <= p.status_code < 300 for p in page_rows
    )
    types = []
    for issue_type in sorted({i.issue_type for i in issue_rows}):
        rows = [i for i in issue_rows if i.issue_type == issue_type]
        urls = {i.page_url for i in rows}
        modifiers = [int(str(i.details["scoreModifier"])) for i in rows]
        types.append(
            TypeTally(
                issue_type,
                min((Severity(i.severity) for i in rows), key=lambda s: s.order),
                len(rows),
                len(urls),
                sum(scored.get(url, 0) for url in urls),
                min(modifiers) if issue_type.startswith("security-") else 0,
            )
        )
    # Accessibility is checked when the rules ran on a scored page (they run on 2xx HTML pages).
    checked = any(p.a11y_checked for p in page_rows if is_scored(p))
    rendered = sum(p.a11y_rendered for p in page_rows if is_scored(p))
    return Tally(len(scored), html, sum(scored.values()), 42, tuple(types), checked, rendered)


async def seed_audit(
    db: D1Database, audit_id: str, pages: list[PageRecord], issues: list[IssueRecord]
) -> None:
    await repository.insert_audit(db, AuditRecord(audit_id, URLS[0], NOW))
    await repository.write_crawled_pages(db, pages, issues)


@settings(max_examples=80, deadline=None)
@given(pages=pages, issues=issues)
def test_the_tally_follows_the_verdicts_definition(
    migrated_d1: LocalD1Database,
    pages: dict[str, tuple[FetchClass, int, bool, int | None, bool, bool]],
    issues: list[tuple[str, IssueType, Severity, int]],
) -> None:
    audit_id = f"a{next(_ids)}"
    page_rows = [
        PageRecord(
            f"{audit_id}-p{n}",
            audit_id,
            url,
            NOW,
            status,
            str(fetch),
            is_html=html,
            crawl_depth=depth,
            a11y_checked=checked,
            a11y_rendered=rendered,
        )
        for n, (url, (fetch, status, html, depth, checked, rendered)) in enumerate(pages.items())
    ]
    issue_rows = [
        IssueRecord(
            f"{audit_id}-i{n}",
            audit_id,
            url,
            str(type_),
            str(severity),
            details={"scoreModifier": modifier},
            dedupe_key=str(n),
        )
        for n, (url, type_, severity, modifier) in enumerate(issues)
    ]
    asyncio.run(seed_audit(as_d1(migrated_d1), audit_id, page_rows, issue_rows))

    tally = asyncio.run(verdict.tally(as_d1(migrated_d1), audit_id, 42))

    expected = expected_tally(page_rows, issue_rows)
    assert_same_types(tally, expected)
    assert (tally.scored_pages, tally.html_pages) == (expected.scored_pages, expected.html_pages)
    assert tally.scored_weight == expected.scored_weight
    assert tally.accessibility_checked is expected.accessibility_checked


def assert_same_types(got: Tally, want: Tally) -> None:
    assert [t.issue_type for t in got.types] == [t.issue_type for t in want.types]
    for a, b in zip(got.types, want.types, strict=True):
        assert (a.issue_type, a.severity, a.rows, a.pages, a.score_modifier) == (
            b.issue_type,
            b.severity,
            b.rows,
            b.pages,
            b.score_modifier,
        )
        assert a.weight == b.weight  # whole sixtieths: exact


def test_the_stored_tally_reads_back_and_a_missing_one_reads_as_none(
    migrated_d1: LocalD1Database,
) -> None:
    audit_id = f"a{next(_ids)}"
    asyncio.run(seed_audit(as_d1(migrated_d1), audit_id, [], []))
    assert asyncio.run(verdict.tally_of_audit(as_d1(migrated_d1), audit_id)) is None
    stored = Tally(3, 2, 90, None, (TypeTally("missing-h1", Severity.WARNING, 2, 2, 60),))

    async def store() -> None:
        await (
            migrated_d1.prepare("UPDATE audits SET verdict = ? WHERE id = ?")
            .bind(verdict.to_column(stored), audit_id)
            .run()
        )

    asyncio.run(store())
    assert asyncio.run(verdict.tally_of_audit(as_d1(migrated_d1), audit_id)) == stored
