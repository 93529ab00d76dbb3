"""Deleting an audit: its crawl state, report and rows go, a second delete is 404, and a running
audit is refused until it is cancelled."""

from __future__ import annotations

import pytest

from auditdb import repository
from auditdb.records import AuditRecord, IssueRecord, PageRecord
from durable.client import Scratchpad
from durable.records import CrawlConfig
from local_platform.runtime import LocalPlatform
from service.audits import delete_audit
from service.errors import AuditNotFound, StorageUnavailable
from service.report_keys import report_key
from tests.support.site_server import Site


async def count(platform: LocalPlatform, table: str, audit_id: str) -> int:
    sql = f"SELECT COUNT(*) AS n FROM {table} WHERE audit_id = ?"
    row = await platform.env.DB.prepare(sql).bind(audit_id).first()
    return int(row["n"])


async def test_a_finished_audit_is_deleted_with_its_rows_and_crawl_state(
    platform: LocalPlatform,
) -> None:
    env = platform.env
    audit = AuditRecord("a-1", "https://a.test/", "2026-12-01T00:00:00.000Z", owner="alpha")
    await repository.insert_audit(env.DB, audit)
    await env.DB.prepare("UPDATE audits SET status = 'failed' WHERE id = 'a-1'").run()
    page = PageRecord("p-1", "a-1", "https://a.test/", "2026-12-01T00:00:01.000Z", status_code=200)
    issue = IssueRecord("i-1", "a-1", page.url, "missing-title", "critical", page_id="p-1")
    await repository.write_crawled_pages(env.DB, [page], [issue])
    await Scratchpad.for_audit(env, "a-1").save_crawl_config(CrawlConfig("https://a.test/"))

    await delete_audit(env, "alpha", "a-1")

    assert await repository.get_audit(env.DB, "a-1") is None
    assert (
        await count(platform, "audit_pages", "a-1"),
        await count(platform, "audit_issues", "a-1"),
    ) == (0, 0)
    assert not (await Scratchpad.for_audit(env, "a-1").crawl_config()).configured
    with pytest.raises(AuditNotFound):
        await delete_audit(env, "alpha", "a-1")


async def test_the_audits_report_object_goes_too_and_a_failing_r2_keeps_the_audit(
    platform: LocalPlatform,
) -> None:
    env = platform.env
    audit = AuditRecord("a-3", "https://a.test/", "2026-12-01T00:00:00.000Z", owner="alpha")
    await repository.insert_audit(env.DB, audit)
    key = report_key("alpha", "a-3")
    await env.REPORTS.put(key, b"report")
    env.REPORTS.faults.fail_next("delete")

    with pytest.raises(StorageUnavailable):
        await delete_audit(env, "alpha", "a-3")
    assert await repository.get_audit(env.DB, "a-3") is not None
    assert await env.REPORTS.head(key) is not None

    await delete_audit(env, "alpha", "a-3")
    assert await repository.get_audit(env.DB, "a-3") is None
    assert await env.REPORTS.head(key) is None


async def test_an_audit_without_a_report_object_deletes_all_the_same(
    platform: LocalPlatform,
) -> None:
    env = platform.env
    audit = AuditRecord("a-4", "https://a.test/", "2026-12-01T00:00:00.000Z", owner="alpha")
    await repository.insert_audit(env.DB, audit)

    await delete_audit(env, "alpha", "a-4")

    assert await repository.get_audit(env.DB, "a-4") is None


async def test_another_owner_cannot_delete(platform: LocalPlatform) -> None:
    env = platform.env
    await repository.insert_audit(
        env.DB, AuditRecord("a-2", "https://a.test/", "2026-12-01T00:00:00.000Z", owner="alpha")
    )
    with pytest.raises(AuditNotFound):
        await delete_audit(env, "beta", "a-2")
    assert await repository.get_audit(env.DB, "a-2") is not None


async def test_a_running_audit_is_refused_until_it_is_cancelled(
    platform: LocalPlatform, small_site: Site
) -> None:
    status, body = await platform.request(
        "POST", "/api/audits", {"url": small_site.url("/"), "max_pages": 5}
    )
    assert status == 201
    audit_id = body["audit"]["id"]

    status, refused = await platform.request("DELETE", f"/api/audits/{audit_id}")

    assert (status, refused["error"]["code"]) == (409, "conflict")
    assert "cancel it" in refused["error"]["message"]
    assert (await platform.request("GET", f"/api/audits/{audit_id}"))[0] == 200
    assert (await platform.request("POST", f"/api/audits/{audit_id}/cancel"))[0] == 202
    assert (await platform.request("DELETE", f"/api/audits/{audit_id}"))[0] == 204
    assert (await platform.request("GET", f"/api/audits/{audit_id}"))[0] == 404
    assert (await platform.request("DELETE", f"/api/audits/{audit_id}"))[0] == 404
    assert await count(platform, "audit_pages", audit_id) == 0
