"""The Lighthouse phase inside whole audits, against the local PSI double: rows and payloads for
the sample, provider errors as rows, no repeated call on replay, and audits without a key."""

from __future__ import annotations

import csv
import gzip
import io
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import workflow.site_audit as site_audit
from auditdb import repository
from cli.report import format_summary, full_report
from common import ports
from local_platform.runtime import LocalPlatform
from service import exports, html_report
from tests.crawl_flow.test_audit_crawl import audit_site, page
from tests.support.platform_vars import TEST_VARS
from tests.support.psi_double import Behaviour, Field, Lab, PsiDouble, serve_psi
from tests.support.site_server import Site, serve_site
from workflow.audit_run import AuditRun


@pytest.fixture
def psi() -> Iterator[PsiDouble]:
    with serve_psi() as double:
        yield double


@pytest.fixture
async def keyed(tmp_path: Path, psi: PsiDouble) -> AsyncIterator[LocalPlatform]:
    """A platform whose deployment has a PSI key, pointed at the double."""
    variables = {**TEST_VARS, "PSI_API_KEY": "test-key", "PSI_ENDPOINT": psi.endpoint}
    local = LocalPlatform(tmp_path / "state", var_overrides=variables)
    try:
        yield local
    finally:
        await local.close()


@pytest.fixture
def site() -> Iterator[Site]:
    routes = {
        "/": page("Home page", "/products/1", "/products/2", "/about", "/blog/a-long-post"),
        "/products/1": page("Product one", "/"),
        "/products/2": page("Product two", "/"),
        "/about": page("About us", "/"),
        "/blog/a-long-post": page("A long post", "/"),
    }
    with serve_site(routes) as served:
        yield served


async def lighthouse_rows(platform: LocalPlatform, audit_id: str) -> list[dict[str, Any]]:
    status, body = await platform.request("GET", f"/api/audits/{audit_id}/lighthouse?limit=100")
    assert status == 200, body
    return body["lighthouse"]


async def test_an_audit_runs_the_sample_and_stores_rows_and_payloads(
    keyed: LocalPlatform, psi: PsiDouble, site: Site
) -> None:
    psi.behaviours["/about"] = Behaviour(kind="unreachable")
    psi.behaviours["/blog/a-long-post"] = Behaviour(
        lab=Lab(performance=0.31, lcp_ms=5200.0, cls=0.4),
        field_url=Field(lcp_ms=4500, inp_ms=620, cls=0.3),
    )
    report = await audit_site(keyed, site.url("/"))
    audit = report["audit"]
    assert audit["status"] == "completed"
    # the start page plus one per template: /products/2 shares /products/:id with /products/1
    sampled = {call.url for call in psi.calls}
    assert sampled == {site.url(p) for p in ("/", "/products/1", "/about", "/blog/a-long-post")}
    assert len(psi.calls) == 8 and {c.categories for c in psi.calls} == {
        ("PERFORMANCE", "ACCESSIBILITY", "BEST_PRACTICES", "SEO")
    }
    assert (audit["lighthouse_status"], audit["lighthouse_total"]) == ("completed", 8)
    assert (audit["lighthouse_completed"], audit["lighthouse_failed"]) == (6, 2)

    rows = await lighthouse_rows(keyed, audit["id"])
    assert len(rows) == 8
    by_url = {(r["page_url"], r["run"]["strategy"]): {**r, **r["run"]} for r in rows}
    about = by_url[(site.url("/about"), "mobile")]
    assert about["error_message"].startswith("HTTP 400: Lighthouse returned error")
    assert (about["performance_score"], about["lcp_ms"], about["r2_key"]) == (None, None, None)
    home = by_url[(site.url("/"), "desktop")]
    assert (home["performance_score"], home["lcp_ms"], home["cls"]) == (93, 1834.5, 0.02)
    assert home["r2_key"] == f"lighthouse/{audit['id']}/{home['page_id']}-desktop.json"
    stored = await keyed.env.REPORTS.get(home["r2_key"])
    payload = bytes(await stored.arrayBuffer())
    assert len(payload) == home["payload_size_bytes"]
    assert json.loads(gzip.decompress(payload))["lighthouseResult"]["finalUrl"] == site.url("/")

    # the report's section and the CSV export carry the same rows
    section = report["lighthouse"]
    assert (section["status"], section["total"], section["failed"]) == ("completed", 8, 2)
    assert sorted(r["id"] for r in section["results"]) == sorted(r["id"] for r in rows)
    export = await exports.export_lighthouse(keyed.core_env, "local", audit["id"])
    text = b"".join([chunk async for chunk in export.chunks]).decode()
    table = list(csv.DictReader(io.StringIO(text)))
    assert export.file_name == f"siteaudit-{audit['id']}-lighthouse.csv" and len(table) == 8
    line = next(
        r
        for r in table
        if r["page_url"] == site.url("/blog/a-long-post") and r["strategy"] == "mobile"
    )
    assert (
        line["performance_score"],
        line["lcp_ms"],
        line["field_scope"],
        line["field_inp_ms"],
    ) == (
        "31",
        "5200.0",
        "url",
        "620.0",
    )

    html = await html_report.export_html(keyed.core_env, "local", audit["id"])
    document = b"".join([chunk async for chunk in html.chunks]).decode()
    assert "Lighthouse and Core Web Vitals" in document and "8 runs planned, 2 failed" in document
    assert "<td>31 / 31</td><td>5200 / 5200</td><td>0.4 / 0.4</td>" in document

    issues = {
        (i["issue_type"], i["page_url"])
        for i in report["issues"]
        if i["details"].get("source") == "lighthouse"
    }
    post = site.url("/blog/a-long-post")
    assert issues == {
        (t, post)
        for t in (
            "lighthouse-poor-performance",
            "lab-poor-lcp",
            "lab-poor-cls",
            "field-poor-lcp",
            "field-poor-inp",
            "field-poor-cls",
        )
    }


async def test_without_a_key_the_audit_completes_as_before_and_says_skipped(
    platform: LocalPlatform, site: Site
) -> None:
    report = await audit_site(platform, site.url("/"))
    audit = report["audit"]
    assert audit["status"] == "completed"
    assert (audit["lighthouse_status"], audit["lighthouse_total"]) == ("skipped_no_key", 0)
    assert await lighthouse_rows(platform, audit["id"]) == []
    assert not any(i["details"].get("source") == "lighthouse" for i in report["issues"])
    assert report["lighthouse"] == {
        "status": "skipped_no_key",
        "total": 0,
        "completed": 0,
        "failed": 0,
        "results": [],
    }
    summary = format_summary(report).splitlines()
    assert "lighthouse: skipped (no PSI_API_KEY configured)" in summary


async def test_lighthouse_none_runs_no_call(
    keyed: LocalPlatform, psi: PsiDouble, site: Site
) -> None:
    report = await audit_site(keyed, site.url("/"), lighthouse="none")
    assert report["audit"]["lighthouse_status"] == "disabled"
    assert report["audit"]["options"]["lighthouse"] == "none"
    assert psi.calls == []


SECTIONS = ("/", "/a", "/b", "/c", "/d", "/e", "/f")  # seven templates: two groups (5 + 2)


async def test_a_process_killed_mid_phase_replays_without_calling_the_provider_again(
    tmp_path: Path, psi: PsiDouble
) -> None:
    routes = {path: page(f"Section {path}", *SECTIONS) for path in SECTIONS}
    variables = {**TEST_VARS, "PSI_API_KEY": "test-key", "PSI_ENDPOINT": psi.endpoint}
    with serve_site(routes) as site:
        first = LocalPlatform(tmp_path / "state", var_overrides=variables)
        status, body = await first.request("POST", "/api/audits", {"url": site.url("/")})
        assert status == 201, body
        audit_id = body["audit"]["id"]
        # the process dies after group 2's fetches, before they are persisted
        first.engine.faults.interrupt(audit_id, at_step="lighthouse-persist-2")
        await first.wait_for_workflow(audit_id, timeout_s=60)
        _, read = await first.request("GET", f"/api/audits/{audit_id}")
        partial = await lighthouse_rows(first, audit_id)
        await first.close()
        calls_before = list(psi.calls)

        second = LocalPlatform(tmp_path / "state", var_overrides=variables)
        try:
            assert await second.engine.resume_incomplete() == [audit_id]
            await second.wait_for_workflow(audit_id, timeout_s=60)
            report: dict[str, Any] = await full_report(second, audit_id)
            rows = await lighthouse_rows(second, audit_id)
        finally:
            await second.close()

    # while it was down, the first group's rows were readable and counted
    assert (read["audit"]["status"], read["audit"]["current_phase"]) == ("running", "lighthouse")
    assert (read["audit"]["lighthouse_total"], read["audit"]["lighthouse_completed"]) == (14, 10)
    assert len(partial) == 10
    # every page x strategy was called exactly once, all before the kill: the replay used the
    # stored step results
    pairs = [(call.url, call.strategy) for call in psi.calls]
    assert len(pairs) == len(set(pairs)) == 14
    assert psi.calls == calls_before
    assert report["audit"]["status"] == "completed"
    assert (report["audit"]["lighthouse_status"], report["audit"]["lighthouse_completed"]) == (
        "completed",
        14,
    )
    assert len(rows) == 14 and all(row["r2_key"] for row in rows)


async def test_r2_refusing_a_payload_keeps_the_row_without_a_key(
    keyed: LocalPlatform, psi: PsiDouble, site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    keyed.env.REPORTS.faults.fail_always("put")
    report = await audit_site(keyed, site.url("/"), lighthouse_pages=1)
    keyed.env.REPORTS.faults.clear()
    audit = report["audit"]
    assert (audit["status"], audit["lighthouse_completed"], audit["lighthouse_failed"]) == (
        "completed",
        2,
        0,
    )
    rows = await lighthouse_rows(keyed, audit["id"])
    assert [(r["page_url"], r["run"]["performance_score"]) for r in rows] == [
        (site.url("/"), 93)
    ] * 2
    assert {(r["r2_key"], r["payload_size_bytes"]) for r in rows} == {(None, None)}
    assert "lighthouse payload lighthouse/" in caplog.text and "not stored" in caplog.text


async def test_deleting_the_audit_deletes_its_payloads(
    keyed: LocalPlatform, psi: PsiDouble, site: Site
) -> None:
    report = await audit_site(keyed, site.url("/"), lighthouse_pages=2)
    audit_id = report["audit"]["id"]
    keys = [row["r2_key"] for row in await lighthouse_rows(keyed, audit_id)]
    assert len(keys) == 4 and all(keys)
    assert all([await keyed.env.REPORTS.get(key) is not None for key in keys])

    status, _ = await keyed.request("DELETE", f"/api/audits/{audit_id}")
    assert status == 204
    assert [await keyed.env.REPORTS.get(key) for key in keys] == [None] * 4


async def test_an_audit_cancelled_before_the_phase_calls_no_provider(
    keyed: LocalPlatform, psi: PsiDouble, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = site_audit.grade_start_url  # type: ignore[attr-defined]  # the name where the workflow looks it up and the test patches it

    async def grade_then_cancel(run: AuditRun) -> Any:
        # the owner's cancel lands, but its terminate never reaches the instance
        await repository.cancel_audit(run.env.DB, run.audit_id, finished_at=ports.iso_now())
        return await real(run)

    monkeypatch.setattr(site_audit, "grade_start_url", grade_then_cancel)
    status, body = await keyed.request("POST", "/api/audits", {"url": site.url("/")})
    assert status == 201, body
    await keyed.wait_for_workflow(body["audit"]["id"], timeout_s=60)
    _, read = await keyed.request("GET", f"/api/audits/{body['audit']['id']}")
    assert (read["audit"]["status"], read["audit"]["lighthouse_status"]) == ("cancelled", None)
    assert psi.calls == []


async def test_a_resumed_audit_runs_only_the_pages_without_rows(
    keyed: LocalPlatform, psi: PsiDouble
) -> None:
    routes = {path: page(f"Section {path}", *SECTIONS) for path in SECTIONS}
    with serve_site(routes) as site:
        status, body = await keyed.request("POST", "/api/audits", {"url": site.url("/")})
        assert status == 201, body
        audit_id = body["audit"]["id"]
        keyed.engine.faults.kill(audit_id, "oom", at_step="lighthouse-persist-2")
        await keyed.wait_for_workflow(audit_id, timeout_s=60)
        _, read = await keyed.request("GET", f"/api/audits/{audit_id}")  # reconciles the kill
        assert (read["audit"]["status"], read["audit"]["failed_phase"]) == ("failed", "lighthouse")
        first_group = {call.url for call in psi.calls[:10]}
        assert len(await lighthouse_rows(keyed, audit_id)) == 10  # kept after the failure

        status, _ = await keyed.request("POST", f"/api/audits/{audit_id}/resume")
        assert status == 202
        await keyed.wait_for_workflow(f"{audit_id}-r1", timeout_s=60)
        _, read = await keyed.request("GET", f"/api/audits/{audit_id}")

    assert read["audit"]["status"] == "completed"
    assert (read["audit"]["lighthouse_total"], read["audit"]["lighthouse_completed"]) == (14, 14)
    again = [call.url for call in psi.calls[14:]]
    # only the two pages whose rows were never persisted ran again, once per strategy
    assert len(again) == 4 and not set(again) & first_group


@pytest.mark.parametrize(("send", "status"), [(True, "skipped_credentials"), (False, "completed")])
async def test_credentials_meant_for_lighthouse_skip_it_as_psi_cannot_send_them(
    keyed: LocalPlatform, psi: PsiDouble, site: Site, send: bool, status: str
) -> None:
    credentials = {"cookies": {"session": "lh-c00kie"}, "send_to_lighthouse": send}
    report = await audit_site(keyed, site.url("/"), credentials=credentials)

    audit = report["audit"]
    assert (audit["status"], audit["lighthouse_status"]) == ("completed", status)
    assert bool(psi.calls) is not send  # without the wish, PSI runs as for any audit
    if send:
        assert "lighthouse: skipped (PageSpeed Insights cannot send the audit's credentials)" in (
            format_summary(report).splitlines()
        )
    assert "lh-c00kie" not in json.dumps(report) + json.dumps([c.url for c in psi.calls])
