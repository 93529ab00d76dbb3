"""Cancelling real audits on the local platform: the workflow instance stops, the pages crawled so
far stay readable under `cancelled`, and a resume finishes the audit from the kept crawl state.
A cancel that lands while the workflow finishes never ends in a mixed state."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

import workflow.site_audit as site_audit
from auditdb import repository
from common import ports, settings
from durable.client import Scratchpad
from local_platform.runtime import LocalPlatform
from maintenance.scheduled import WATCHDOG_CRON
from tests.support.site_server import Reply, Site, html_page, serve_site
from workflow import step_configs

LINKED = 15  # pages the home page links to: 16 pages in all


@pytest.fixture
def hub_site() -> Iterator[Site]:
    links = "".join(f"<a href='/p{i}'>page {i}</a>" for i in range(LINKED))
    routes = {
        f"/p{i}": Reply(body=html_page(f"Page {i} of the hub", "<p>x</p>")) for i in range(LINKED)
    }
    routes["/"] = Reply(body=html_page("Home of the hub site", links))
    with serve_site(routes) as served:
        yield served


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "CRAWL", replace(settings.CRAWL, chunk_target_pages=4))


async def start(platform: LocalPlatform, site: Site) -> str:
    status, body = await platform.request("POST", "/api/audits", {"url": site.url("/")})
    assert status == 201
    return str(body["audit"]["id"])


async def page_count(platform: LocalPlatform, audit_id: str) -> int:
    return await repository.count_crawled_pages(platform.env.DB, audit_id)


async def crawl_state_kept(platform: LocalPlatform, audit_id: str) -> bool:
    return (await Scratchpad.for_audit(platform.env, audit_id).crawl_config()).configured


async def resume_to_the_end(platform: LocalPlatform, audit_id: str) -> dict[str, Any]:
    status, body = await platform.request("POST", f"/api/audits/{audit_id}/resume")
    assert (status, body["audit"]["status"]) == (202, "running")
    await platform.wait_for_workflow(f"{audit_id}-r1", timeout_s=60)
    return dict((await platform.request("GET", f"/api/audits/{audit_id}"))[1]["audit"])


async def test_a_cancel_mid_crawl_stops_the_workflow_keeps_the_pages_and_resumes(
    platform: LocalPlatform, hub_site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    reached, hold = asyncio.Event(), asyncio.Event()
    real_run_chunk = site_audit.run_chunk  # type: ignore[attr-defined]  # the name where the workflow looks it up and the test patches it

    async def run_chunk(scope: Any, plan: Any, io: Any) -> Any:
        if plan.chunk_no == 3 and not hold.is_set():
            reached.set()
            await hold.wait()  # stays here until the cancel terminates the instance
        return await real_run_chunk(scope, plan, io)

    monkeypatch.setattr(site_audit, "run_chunk", run_chunk)
    audit_id = await start(platform, hub_site)
    await asyncio.wait_for(reached.wait(), timeout=60)
    crawled = await page_count(platform, audit_id)

    status, body = await platform.request("POST", f"/api/audits/{audit_id}/cancel")

    audit = body["audit"]
    assert (status, audit["status"], audit["current_phase"], audit["error_code"]) == (
        202,
        "cancelled",
        "cancelled",
        None,
    )
    assert audit["finished_at"] is not None and audit["stopped_early"] is True
    assert 0 < audit["pages_crawled"] == crawled < LINKED + 1  # chunks 1 and 2 only
    instance = await platform.env.SITE_AUDIT_WORKFLOW.get(audit_id)
    assert (await instance.status())["status"] == "terminated"
    assert await crawl_state_kept(platform, audit_id)
    assert (await platform.request("GET", f"/api/audits/{audit_id}"))[1]["audit"] == audit
    listed = (await platform.request("GET", "/api/audits?status=cancelled"))[1]["audits"]
    assert [a["id"] for a in listed] == [audit_id]
    assert (await platform.request("GET", "/api/audits?status=failed"))[1]["audits"] == []
    again = await platform.request("POST", f"/api/audits/{audit_id}/cancel")
    assert (again[0], again[1]["error"]["code"]) == (409, "conflict")

    hold.set()
    resumed = await resume_to_the_end(platform, audit_id)

    assert (resumed["status"], resumed["resume_count"]) == ("completed", 1)
    assert resumed["pages_crawled"] == await page_count(platform, audit_id) == LINKED + 1


async def test_a_cancel_that_lands_during_finalize_stands_and_the_crawl_state_stays(
    platform: LocalPlatform, hub_site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_finalize = site_audit.finalize_audit  # type: ignore[attr-defined]  # the name where the workflow looks it up and the test patches it
    cancel_first = True

    async def finalize_after_a_cancel(env: Any, pad: Any, audit_id: str, **options: Any) -> Any:
        # The owner's cancel writes its status just as finalize starts, before the terminate
        # reaches the instance: finalize runs on, and its completion must not overwrite it.
        if cancel_first:
            assert await repository.cancel_audit(env.DB, audit_id, finished_at=ports.iso_now())
        return await real_finalize(env, pad, audit_id, **options)

    monkeypatch.setattr(site_audit, "finalize_audit", finalize_after_a_cancel)
    audit_id = await start(platform, hub_site)
    await platform.wait_for_workflow(audit_id, timeout_s=60)
    await platform.scheduled(WATCHDOG_CRON)

    audit = (await platform.request("GET", f"/api/audits/{audit_id}"))[1]["audit"]
    assert (audit["status"], audit["current_phase"], audit["error_code"]) == (
        "cancelled",
        "cancelled",
        None,
    )
    assert await crawl_state_kept(platform, audit_id)  # finalize did not destroy it

    cancel_first = False
    resumed = await resume_to_the_end(platform, audit_id)
    assert resumed["status"] == "completed"
    assert not await crawl_state_kept(platform, audit_id)  # this finalize completed it


async def test_a_cancel_that_lands_before_the_workflow_fails_stands(
    platform: LocalPlatform, hub_site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def cancel_then_fail(env: Any, pad: Any, audit_id: str, **options: Any) -> Any:
        await repository.cancel_audit(env.DB, audit_id, finished_at=ports.iso_now())
        raise RuntimeError("Worker exceeded memory limit.")

    monkeypatch.setattr(site_audit, "finalize_audit", cancel_then_fail)
    no_retry = {**step_configs.FINALIZE_STEP, "retries": {"limit": 0, "delay": 0}}
    monkeypatch.setattr(step_configs, "FINALIZE_STEP", no_retry)
    audit_id = await start(platform, hub_site)
    await platform.wait_for_workflow(audit_id, timeout_s=60)

    instance = await platform.env.SITE_AUDIT_WORKFLOW.get(audit_id)
    assert (await instance.status())["status"] == "errored"  # its failure handler ran, and lost
    audit = (await platform.request("GET", f"/api/audits/{audit_id}"))[1]["audit"]
    assert (audit["status"], audit["error_code"], audit["failed_phase"]) == (
        "cancelled",
        None,
        None,
    )


class UnreachableInstances:
    """The Workflow binding of the platform, except that no instance can be looked up: a cancel's
    terminate never reaches the running instance."""

    def __init__(self, binding: Any) -> None:
        self._binding = binding

    async def create(self, **options: Any) -> Any:
        return await self._binding.create(**options)

    async def get(self, instance_id: str) -> Any:
        raise RuntimeError("(instance.not_found) Instance not found")


async def test_a_cancel_whose_terminate_fails_still_stands_and_the_crawl_stops_at_a_chunk(
    platform: LocalPlatform, hub_site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    reached, go_on = asyncio.Event(), asyncio.Event()
    real_run_chunk = site_audit.run_chunk  # type: ignore[attr-defined]  # the name where the workflow looks it up and the test patches it
    chunks: list[int] = []

    async def run_chunk(scope: Any, plan: Any, io: Any) -> Any:
        chunks.append(plan.chunk_no)
        if plan.chunk_no == 2:
            reached.set()
            await go_on.wait()  # the cancel lands while this chunk runs
        return await real_run_chunk(scope, plan, io)

    monkeypatch.setattr(site_audit, "run_chunk", run_chunk)
    audit_id = await start(platform, hub_site)
    await asyncio.wait_for(reached.wait(), timeout=60)
    binding = platform.env.SITE_AUDIT_WORKFLOW
    monkeypatch.setattr(platform.env, "SITE_AUDIT_WORKFLOW", UnreachableInstances(binding))

    status, body = await platform.request("POST", f"/api/audits/{audit_id}/cancel")
    go_on.set()
    await platform.wait_for_workflow(audit_id, timeout_s=60)

    assert (status, body["audit"]["status"]) == (202, "cancelled")
    assert chunks == [1, 2]  # chunk 2 finished its pages; chunk 3 refused to start
    assert (await (await binding.get(audit_id)).status())["status"] == "errored"
    audit = (await platform.request("GET", f"/api/audits/{audit_id}"))[1]["audit"]
    assert (audit["status"], audit["error_code"]) == ("cancelled", None)
    assert await crawl_state_kept(platform, audit_id)
