"""The full report: one gzip JSON document in R2, rebuilt from D1 when R2 is missing or failing."""

from __future__ import annotations

import gzip
import json
import logging
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.link_graph import AnchorKind, PageLink, PageLinkLists, to_row
from auditdb import page_links, repository, structured_data
from auditdb.records import AuditRecord, AuditStatus, IssueRecord, PageRecord
from auditdb.structured_data import TypePages
from common.bindings import Env
from local_platform.runtime import LocalPlatform
from service.errors import AuditNotFound
from service.lists import EXPORT_PAGE_SIZE
from service.page_links import VIEW_LINKS, cut
from service.report_keys import owner_prefix, report_key
from service.reports import (
    FORMAT,
    ReportBody,
    ReportSource,
    StoredReport,
    build_report,
    links_in,
    read_report,
    store_report,
)

PAGES = 3
ISSUES_PER_PAGE = EXPORT_PAGE_SIZE // 2 + 7  # more issues than one keyset page holds


async def seed(
    env: Env,
    audit_id: str = "a-1",
    owner: str = "alpha",
    pages: int = PAGES,
    issues_per_page: int = ISSUES_PER_PAGE,
) -> AuditRecord:
    """A finished audit whose issues span several keyset pages of the walk (bench/report_bench.py
    seeds larger ones with it)."""
    audit = AuditRecord(audit_id, "https://a.test/", "2026-12-01T00:00:00.000Z", owner=owner)
    await repository.insert_audit(env.DB, audit)
    sql = "UPDATE audits SET status = 'completed', health_score = 71.5 WHERE id = ?"
    await env.DB.prepare(sql).bind(audit_id).run()
    for n in range(pages):
        url = f"https://a.test/p{n}"
        page = PageRecord(f"{audit_id}-p{n}", audit_id, url, "2026-12-01T00:00:01.000Z", 200)
        issues = [
            IssueRecord(
                f"{audit_id}-p{n}-i{k}",
                audit_id,
                url,
                "broken-internal-link",
                "critical",
                page_id=page.id,
                details={"targetUrl": f"https://a.test/gone/{k}", "targetStatus": 404},
                dedupe_key=f"https://a.test/gone/{k}",
            )
            for k in range(issues_per_page)
        ]
        await repository.write_crawled_pages(env.DB, [page], issues)
    await page_links.write_page_links(
        env.DB, audit_id, [to_row(kept_links(n)) for n in range(pages)]
    )
    found = await repository.get_audit(env.DB, audit_id)
    assert found is not None and found.status is AuditStatus.COMPLETED
    return found


def kept_links(n: int) -> PageLinkLists:
    """Page n's kept lists: more inlinks than the view lists, one outlink."""
    inlinks = tuple(
        PageLink(f"https://a.test/from-{k}", f"to p{n}", AnchorKind.TEXT) for k in range(15)
    )
    outlinks = (PageLink("https://b.test/", None, AnchorKind.NONE, external=True),)
    return PageLinkLists(f"https://a.test/p{n}", 1_234, 1, inlinks, outlinks)


async def stored_and_read(env: Env) -> tuple[AuditRecord, StoredReport, ReportBody]:
    """A seeded audit, its stored report, and the report as read back from R2."""
    audit = await seed(env)
    stored = await store_report(env, audit)
    assert stored is not None
    read = await read_report(env, "alpha", audit.id)
    assert read.source is ReportSource.R2
    return audit, stored, read


def document(body: bytes) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(gzip.decompress(body))
    return loaded


async def test_the_document_holds_the_audit_its_summary_and_every_row(
    platform: LocalPlatform,
) -> None:
    audit = await seed(platform.env)

    got = document(await build_report(platform.env, audit))

    assert (got["format"], got["audit"]) == (FORMAT, audit.to_dict())
    total = PAGES * ISSUES_PER_PAGE
    assert got["summary"] == {
        "issues_total": total,
        "issues_by_severity": {"critical": total, "warning": 0, "info": 0},
        "issues_by_type": {"broken-internal-link": total},
    }
    assert len({issue["id"] for issue in got["issues"]}) == total
    assert [page["url"] for page in got["pages"]] == [f"https://a.test/p{n}" for n in range(PAGES)]
    assert got["issues"][0]["dedupe_key"].startswith("https://a.test/gone/")
    assert got["structured_data"] is None  # finalize stored no summary


async def test_the_document_holds_the_structured_data_summary_finalize_stored(
    platform: LocalPlatform,
) -> None:
    audit = AuditRecord("sd", "https://a.test/", "2026-12-01T00:00:00.000Z", owner="alpha")
    await repository.insert_audit(platform.env.DB, audit)
    page = PageRecord("sd-p", "sd", "https://a.test/", "t", 200, structured_types=["Recipe"])
    await repository.write_crawled_pages(platform.env.DB, [page], [])
    stored = await structured_data.record_summary(platform.env.DB, audit.id)

    got = document(await build_report(platform.env, audit))

    assert got["structured_data"] == stored.to_dict()
    assert stored.types == (TypePages("Recipe", 1),)


async def test_the_document_holds_the_link_lists_of_the_pages_in_view_as_the_view_lists_them(
    platform: LocalPlatform,
) -> None:
    audit = await seed(platform.env)

    got = document(await build_report(platform.env, audit))

    assert got["format"] == FORMAT == "siteaudit-report/3"
    assert (got["links"]["kept"], got["links"]["listed"]) == (True, VIEW_LINKS)
    expected = [cut(kept_links(n)).to_dict() for n in range(PAGES)]
    assert got["links"]["pages"] == expected
    assert len(got["links"]["pages"][0]["inlinks"]) == VIEW_LINKS < 15
    assert links_in(got) == {page.url: page for page in map(PageLinkLists.from_dict, expected)}


async def test_an_audit_without_rows_is_a_document_with_empty_lists(
    platform: LocalPlatform,
) -> None:
    audit = AuditRecord("empty", "https://a.test/", "2026-12-01T00:00:00.000Z", owner="alpha")
    await repository.insert_audit(platform.env.DB, audit)

    got = document(await build_report(platform.env, audit))

    assert (got["issues"], got["pages"], got["summary"]["issues_total"]) == ([], [], 0)
    assert got["links"] == {"kept": False, "listed": VIEW_LINKS, "pages": []}
    assert links_in(got) is None


async def test_a_version_1_document_in_r2_is_read_as_it_was_stored_and_holds_no_links(
    platform: LocalPlatform,
) -> None:
    env = platform.env
    audit = await seed(env)
    old = {"format": "siteaudit-report/1", "audit": audit.to_dict(), "issues": [], "pages": []}
    await env.REPORTS.put(report_key("alpha", audit.id), gzip.compress(json.dumps(old).encode()))

    read = await read_report(env, "alpha", audit.id)

    assert (read.source, document(read.body)) == (ReportSource.R2, old)
    assert links_in(document(read.body)) is None


async def test_a_stored_report_is_read_back_from_r2(platform: LocalPlatform) -> None:
    env = platform.env
    audit = await seed(env)

    stored = await store_report(env, audit)
    read = await read_report(env, "alpha", audit.id)

    assert stored == StoredReport(report_key("alpha", audit.id), len(read.body))
    assert read.source is ReportSource.R2
    assert document(read.body)["audit"]["id"] == audit.id
    obj = await env.REPORTS.head(stored.key)
    assert (obj.size, obj.httpMetadata["contentEncoding"]) == (stored.size, "gzip")


async def test_without_an_object_the_report_is_rebuilt_from_d1_and_equals_the_stored_one(
    platform: LocalPlatform,
) -> None:
    env = platform.env
    audit, stored, from_r2 = await stored_and_read(env)

    await env.REPORTS.delete(stored.key)
    from_d1 = await read_report(env, "alpha", audit.id)

    assert from_d1.source is ReportSource.D1
    assert document(from_d1.body) == document(from_r2.body)
    assert from_d1.body == from_r2.body  # gzip with a zeroed mtime: the same bytes


async def test_a_failing_put_stores_nothing_logs_and_does_not_raise(
    platform: LocalPlatform, caplog: pytest.LogCaptureFixture
) -> None:
    env = platform.env
    audit = await seed(env)
    env.REPORTS.faults.fail_next("put")

    with caplog.at_level(logging.WARNING, logger="siteaudit.reports"):
        stored = await store_report(env, audit)

    assert stored is None
    assert f"report {report_key('alpha', audit.id)} not stored" in caplog.text
    assert await env.REPORTS.head(report_key("alpha", audit.id)) is None
    read = await read_report(env, "alpha", audit.id)
    assert read.source is ReportSource.D1
    assert read.body == await build_report(env, audit)


async def test_a_failing_get_falls_back_to_d1(
    platform: LocalPlatform, caplog: pytest.LogCaptureFixture
) -> None:
    env = platform.env
    audit, _, from_r2 = await stored_and_read(env)
    env.REPORTS.faults.fail_next("get")

    with caplog.at_level(logging.WARNING, logger="siteaudit.reports"):
        read = await read_report(env, "alpha", audit.id)

    assert (read.source, read.body) == (ReportSource.D1, from_r2.body)
    assert "rebuilding it from D1" in caplog.text
    assert (await read_report(env, "alpha", audit.id)).source is ReportSource.R2


async def test_another_owner_reads_nothing_and_r2_is_not_asked(platform: LocalPlatform) -> None:
    env = platform.env
    audit = await seed(env)
    await store_report(env, audit)
    env.REPORTS.faults.fail_always("get")  # any R2 read would now log a fallback and succeed

    with pytest.raises(AuditNotFound):
        await read_report(env, "beta", audit.id)


@pytest.mark.parametrize(
    ("owner", "audit_id", "key"),
    [
        ("alpha", "0b5c", "reports/alpha/0b5c.json.gz"),
        ("a.b@c-d_e", "x-1", "reports/a.b%40c-d_e/x-1.json.gz"),
        ("../x", "..", "reports/..%2Fx/...json.gz"),
        ("a/b", "c/d", "reports/a%2Fb/c%2Fd.json.gz"),
    ],
)
def test_report_keys(owner: str, audit_id: str, key: str) -> None:
    assert report_key(owner, audit_id) == key


@given(st.text(min_size=1, max_size=100), st.text(min_size=1, max_size=100))
def test_a_key_stays_under_its_owners_prefix_and_adds_no_level(owner: str, audit_id: str) -> None:
    key = report_key(owner, audit_id)

    assert key.startswith(owner_prefix(owner))
    assert key.count("/") == 2
    assert report_key(owner, audit_id) != report_key(owner + "x", audit_id)


# What service.keys accepts as an owner, and what the API's routes accept as an audit id.
OWNERS = st.from_regex(r"[A-Za-z0-9._@-]{1,100}", fullmatch=True)
AUDIT_IDS = st.from_regex(r"[A-Za-z0-9_-]{1,100}", fullmatch=True)


@given(OWNERS, AUDIT_IDS)
def test_keys_fit_r2s_limit(owner: str, audit_id: str) -> None:
    assert len(report_key(owner, audit_id).encode()) <= 1024
