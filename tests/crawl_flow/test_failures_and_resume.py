"""Failures are never invisible: every platform failure ends in `failed` with a classified code,
the pages crawled before it stay visible, and a failed audit can be finished by resume."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

import crawl.chunk
import workflow.site_audit as site_audit
from cli.report import full_report
from common import settings
from local_platform.runtime import LocalPlatform
from local_platform.workflow_faults import KillKind
from tests.support.loop_clock import loop_clock
from tests.support.loopback_http import LoopbackOnlyHttp
from tests.support.site_server import Reply, Site, html_page, serve_site
from workflow import step_configs

PAGES = 24
TIMING = {"crawled_at", "response_time_ms"}


@pytest.fixture
def site() -> Iterator[Site]:
    routes = {
        f"/p{i}": Reply(body=html_page(f"Page {i} of the site", f"<a href='/p{i + 1}'>next</a>"))
        for i in range(PAGES)
    }
    routes["/"] = Reply(body=html_page("Home of the failing site", "<a href='/p0'>start</a>"))
    with serve_site(routes) as served:
        yield served


@pytest.fixture(autouse=True)
def small_chunks_fast_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        settings, "CRAWL", replace(settings.CRAWL, chunk_target_pages=5)
    )  # several chunks on a small site
    for name in ("DB_STEP", "DISCOVERY_STEP", "CRAWL_CHUNK_STEP", "FINALIZE_STEP"):
        config = getattr(step_configs, name)
        monkeypatch.setattr(
            step_configs, name, {**config, "retries": {**config["retries"], "delay": 0}}
        )


async def start(platform: LocalPlatform, site: Site) -> str:
    status, body = await platform.request("POST", "/api/audits", {"url": site.url("/")})
    assert status == 201
    return body["audit"]["id"]


async def report_of(platform: LocalPlatform, audit_id: str) -> dict[str, Any]:
    return await full_report(platform, audit_id)


def comparable(report: dict[str, Any]) -> tuple[Any, ...]:
    pages = sorted(
        tuple(sorted((k, str(v)) for k, v in p.items() if k not in TIMING | {"id", "audit_id"}))
        for p in report["pages"]
    )
    issues = sorted(
        (i["issue_type"], i["page_url"], str(sorted(i["details"].items())))
        for i in report["issues"]
    )
    return pages, issues


async def test_an_oom_kill_mid_chunk_is_classified_and_a_resume_finishes_the_audit(
    platform: LocalPlatform, site: Site, outbound_http: LoopbackOnlyHttp
) -> None:
    baseline_id = await start(platform, site)
    await platform.wait_for_workflow(baseline_id, timeout_s=60)
    baseline = await report_of(platform, baseline_id)

    audit_id = await start(platform, site)
    kill_after = len(outbound_http.urls) + 12  # the start probe, robots, sitemap, then pages
    real_fetch = outbound_http.fetch

    async def fetch_then_kill(request: Any) -> Any:
        if len(outbound_http.urls) == kill_after:
            platform.engine.faults.kill(audit_id, "oom")
        return await real_fetch(request)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(outbound_http, "fetch", fetch_then_kill)
        await platform.wait_for_workflow(audit_id, timeout_s=60)

    _, body = await platform.request("GET", f"/api/audits/{audit_id}")  # lazy reconcile
    audit = body["audit"]
    assert (audit["status"], audit["error_code"], audit["failed_phase"]) == (
        "failed",
        "oom",
        "crawling",
    )
    partial = await report_of(platform, audit_id)
    assert 0 < len(partial["pages"]) < len(baseline["pages"])
    assert partial["audit"]["stopped_early"] is True

    status, body = await platform.request("POST", f"/api/audits/{audit_id}/resume")
    assert status == 202 and body["audit"]["status"] == "running"
    await platform.wait_for_workflow(f"{audit_id}-r1", timeout_s=60)
    resumed = await report_of(platform, audit_id)
    assert resumed["audit"]["status"] == "completed" and resumed["audit"]["resume_count"] == 1
    assert comparable(resumed) == comparable(baseline)
    fetched = [u for u in outbound_http.urls if "/p" in u]
    assert len(fetched) <= 2 * PAGES + 5  # the resume crawled what was left, not everything again


@pytest.mark.parametrize(
    ("kind", "code"),
    [("oom", "oom"), ("cpu", "cpu_limit")],
)
async def test_platform_kills_are_classified_and_keep_partial_results(
    platform: LocalPlatform, site: Site, kind: KillKind, code: str
) -> None:
    audit_id = await start(platform, site)
    platform.engine.faults.kill(audit_id, kind, at_step="crawl-chunk-3")
    await platform.wait_for_workflow(audit_id, timeout_s=60)

    # The kill skipped the workflow's own error handling: the status read reconciles it.
    report = await report_of(platform, audit_id)
    assert report["audit"]["status"] == "running"
    audit = (await platform.request("GET", f"/api/audits/{audit_id}"))[1]["audit"]
    assert (audit["status"], audit["error_code"], audit["failed_phase"]) == (
        "failed",
        code,
        "crawling",
    )
    assert audit["pages_crawled"] == len((await report_of(platform, audit_id))["pages"]) > 1


async def test_a_step_that_keeps_timing_out_fails_the_audit_as_step_timeout(
    platform: LocalPlatform, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        step_configs,
        "CRAWL_CHUNK_STEP",
        {"retries": {"limit": 1, "delay": 0, "backoff": "constant"}, "timeout": "1 second"},
    )
    clock = loop_clock(monkeypatch)

    async def stuck(*args: Any) -> Any:
        # The chunk outlasts its step: the step's second passes on the loop's clock, which its
        # timeout reads, and the chunk never ends.
        clock.advance(1.0)
        await asyncio.Event().wait()

    monkeypatch.setattr(site_audit, "run_chunk", stuck)
    audit_id = await start(platform, site)
    await platform.wait_for_workflow(audit_id, timeout_s=60)

    audit = (await platform.request("GET", f"/api/audits/{audit_id}"))[1]["audit"]
    assert (audit["status"], audit["error_code"], audit["failed_phase"]) == (
        "failed",
        "step_timeout",
        "crawling",
    )


async def test_an_oversized_step_output_fails_as_step_output_too_large(
    platform: LocalPlatform, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_to_dict = crawl.chunk.ChunkReport.to_dict
    monkeypatch.setattr(
        crawl.chunk.ChunkReport,
        "to_dict",
        lambda self: {**real_to_dict(self), "junk": "x" * (2 << 20)},
    )
    audit_id = await start(platform, site)
    await platform.wait_for_workflow(audit_id, timeout_s=60)

    audit = (await platform.request("GET", f"/api/audits/{audit_id}"))[1]["audit"]
    assert (audit["status"], audit["error_code"]) == ("failed", "step_output_too_large")


async def test_a_persistent_d1_error_fails_as_db_error_and_keeps_partial_results(
    platform: LocalPlatform, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_run_chunk = site_audit.run_chunk  # type: ignore[attr-defined]  # the name where the workflow looks it up and the test patches it

    async def run_chunk(scope: Any, plan: Any, io: Any) -> Any:
        if plan.chunk_no == 3:
            platform.env.DB.faults.fail_next(
                2, "D1_ERROR: database disk image is malformed: SQLITE_CORRUPT"
            )
        return await real_run_chunk(scope, plan, io)

    monkeypatch.setattr(site_audit, "run_chunk", run_chunk)
    audit_id = await start(platform, site)
    await platform.wait_for_workflow(audit_id, timeout_s=60)

    report = await report_of(platform, audit_id)
    audit = report["audit"]
    assert (audit["status"], audit["error_code"], audit["failed_phase"]) == (
        "failed",
        "db_error",
        "crawling",
    )
    assert "SQLITE_CORRUPT" in audit["error_detail"]
    # Chunks 1 and 2 crawled five pages each: a chain of pages unrolls inside a chunk, which
    # leases each page's link once the page is persisted (crawl.chunk's refill).
    assert len(report["pages"]) == 10 and audit["stopped_early"] is True


@pytest.mark.parametrize("status", ["running", "completed"])
async def test_only_failed_or_cancelled_audits_can_be_resumed(
    platform: LocalPlatform, site: Site, status: str
) -> None:
    audit_id = await start(platform, site)
    if status == "completed":
        await platform.wait_for_workflow(audit_id, timeout_s=60)
    got, body = await platform.request("POST", f"/api/audits/{audit_id}/resume")
    assert (got, body["error"]["code"]) == (409, "conflict")
    await platform.wait_for_workflow(audit_id, timeout_s=60)


async def test_resuming_an_expired_audit_is_refused_clearly(
    platform: LocalPlatform, site: Site
) -> None:
    audit_id = await start(platform, site)
    await platform.wait_for_workflow(audit_id, timeout_s=60)
    from auditdb import repository

    await repository.delete_audit(platform.env.DB, "placeholder")
    await (
        platform.env.DB.prepare(
            "UPDATE audits SET status = 'failed', error_code = 'oom' WHERE id = ?"
        )
        .bind(audit_id)
        .run()
    )

    got, body = await platform.request("POST", f"/api/audits/{audit_id}/resume")

    assert (got, body["error"]["code"]) == (410, "gone")  # finalize destroyed the scratchpad
    assert "start a new audit" in body["error"]["message"]
