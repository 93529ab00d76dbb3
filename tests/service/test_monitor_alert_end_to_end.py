"""Done when (issue 11): a monitor of a local site runs, the site gets worse, and the next run
alerts a local webhook receiver exactly once, with a valid signature, naming the new issues.

Everything is the real path: the consumer claims the monitor and starts its audit through the
local workflow engine, the audit's end is announced on the queue, the run is finished (D1 row,
R2 report, alert row) and the alert is delivered over HTTP, with every queue message delivered
twice.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from auditdb import monitors as table
from auditdb.alerts import AlertStatus
from auditdb.monitors import MonitorRunStatus
from maintenance.monitor_producer import MonitorDue
from service import alerts
from service.monitor_runs import RunOutcome, run_monitor
from tests.service.run_helpers import QUEUE, alert_row, count, manual_platform, new_monitor
from tests.support.manual_platform import ManualPlatform
from tests.support.site_server import Reply, html_page, serve_site
from tests.support.webhook_receiver import serve_receiver

DAY_S = 24 * 3600


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[ManualPlatform]:
    async for platform in manual_platform(tmp_path):
        yield platform


def healthy_site() -> dict[str, Any]:
    links = "<a href='/a'>A</a> <a href='/b'>B</a>"
    return {
        "/": Reply(body=html_page("Home of the monitored site", f"<h1>Home</h1>{links}")),
        "/a": Reply(body=html_page("Page A of the monitored site", "<h1>A</h1><a href='/'>Home</a>")),
        "/b": Reply(body=html_page("Page B of the monitored site", "<h1>B</h1><a href='/'>Home</a>")),
    }  # fmt: skip


async def run_once(local: ManualPlatform, monitor_id: str) -> str:
    """One scheduled run, every queue message delivered twice; returns the run's audit id."""
    monitor = await table.get_monitor(local.env.DB, monitor_id)
    assert monitor is not None
    result = await run_monitor(local.env, MonitorDue(monitor.id, monitor.next_due_at))
    assert result.outcome is RunOutcome.STARTED and result.audit_id is not None
    await local.wait_for_workflow(result.audit_id, timeout_s=60)
    local.broker.faults.duplicate_next(QUEUE, 10)
    await local.drain_queue(QUEUE)
    return result.audit_id


async def test_a_site_that_gets_worse_alerts_the_webhook_once(local: ManualPlatform) -> None:
    routes = healthy_site()
    with serve_site(routes) as site, serve_receiver() as receiver:
        monitor, secret = await new_monitor(local.env, site.url("/"), receiver.url)
        await run_once(local, monitor.id)
        assert receiver.deliveries == []  # a first run has nothing to get worse than

        routes["/a"] = Reply(500, html_page("Error", "<h1>Internal error</h1>"))
        routes["/b"] = Reply(body=b"<!doctype html><html><body><h1>B</h1></body></html>")
        local.clock.advance(DAY_S)
        second = await run_once(local, monitor.id)

    [delivery] = receiver.deliveries
    alerts.verify(secret, delivery.headers, delivery.body, now=local.clock.now_ms() / 1000)
    payload = json.loads(delivery.body)
    assert payload["audit_id"] == second and payload["site"] == site.url("/")
    assert alerts.AlertReason.NEW_CRITICAL_ISSUES in payload["reasons"]
    named = {(i["issue_type"], i["page_url"]) for i in payload["new_critical_issues"]}
    assert {("server-error", site.url("/a")), ("missing-title", site.url("/b"))} <= named
    assert delivery.headers["webhook-id"] == payload["delivery_id"]

    runs = await count(
        local.env,
        "SELECT COUNT(*) AS n FROM monitor_runs WHERE monitor_id = ? AND status = ? "
        "AND new_issues > 0 AND r2_key IS NOT NULL",
        monitor.id,
        str(MonitorRunStatus.COMPLETED),
    )
    assert runs == 1
    alert = await alert_row(local.env, payload["run_id"])
    assert alert is not None and (alert.status, alert.attempts) == (AlertStatus.DELIVERED, 1)
