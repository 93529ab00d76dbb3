"""Done when (issue 24 item 1): a monitor whose site goes down between two runs records a
`failed` run and posts exactly one signed `site_unreachable` alert to a local receiver, and one
recovery notice when the site is back.

The real path, as in tests/service/test_monitor_alert_end_to_end.py: the consumer claims the
monitor and starts its audit through the local workflow engine, the audit's end is announced on
the queue, the run is finished and its alert delivered over HTTP, every queue message delivered
twice. The site is served on 127.0.0.1, stopped (nothing listens on its port), then served again
on the same port.

Two versions of the middle run. `test_a_site_that_goes_down_*` lets the audit of the closed port
run: discovery finds no answer at the start URL and the audit ends `failed` with
`site_connection_failed` (crawl.start_verdict). `test_an_audit_failed_by_the_site_*` stops the
middle run's audit at its first step and writes what the workflow's failure path writes (the
guarded fail with the site's code and sentence, then the announcement), so the path after the
audit's end is also tested apart from discovery.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from auditdb import monitors as table
from auditdb import repository, run_finish
from auditdb.monitors import MonitorRunStatus
from auditdb.queue_messages import announce_audit_end
from common import ports
from common.failures import ErrorCode
from service import alerts
from service.monitor_runs import run_audit_id
from tests.service.run_helpers import DAY_S, QUEUE, manual_platform, new_monitor
from tests.service.test_monitor_alert_end_to_end import healthy_site, run_once
from tests.support.manual_platform import ManualPlatform
from tests.support.site_server import serve_site
from tests.support.webhook_receiver import serve_receiver

REFUSED = (
    "The site did not answer: the connection was refused. Check that the web server is running."
)


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[ManualPlatform]:
    async for platform in manual_platform(tmp_path):
        yield platform


type MiddleRun = Callable[[Any, str], Awaitable[str]]


async def audit_the_closed_port(local: ManualPlatform, monitor_id: str) -> str:
    return await run_once(local, monitor_id)


async def fail_the_audit_as_the_site(local: ManualPlatform, monitor_id: str) -> str:
    """Run the monitor, its audit stopped before its first step, then failed as the start-URL
    work fails an audit whose site does not answer."""
    monitor = await table.get_monitor(local.env.DB, monitor_id)
    assert monitor is not None
    audit_id = run_audit_id(monitor.id, monitor.next_due_at)
    local.engine.faults.interrupt(audit_id, "validate-context")
    assert await run_once(local, monitor_id) == audit_id  # the run recorded, its audit running
    assert await repository.fail_audit(
        local.env.DB,
        audit_id,
        error_code=str(ErrorCode.SITE_CONNECTION_FAILED),
        error_detail=REFUSED,
        failed_phase="discovering",
        finished_at=ports.iso_now(),
    )
    await announce_audit_end(local.env, audit_id)
    local.broker.faults.duplicate_next(QUEUE, 10)
    await local.drain_queue(QUEUE)
    return audit_id


async def down_and_back(
    local: ManualPlatform, middle: MiddleRun
) -> tuple[list[str], list[dict[str, Any]]]:
    """Three daily runs: the site up, down (nothing listens on its port), up again on the same
    port. Returns the runs' audit ids and the payloads received, each signature verified."""
    routes = healthy_site()
    with serve_receiver() as receiver:
        with serve_site(routes) as site:
            monitor, secret = await new_monitor(local.env, site.url("/"), receiver.url)
            port = site.server.server_address[1]
            audits = [await run_once(local, monitor.id)]
        local.clock.advance(DAY_S)
        audits.append(await middle(local, monitor.id))
        with serve_site(routes, port=port):
            local.clock.advance(DAY_S)
            audits.append(await run_once(local, monitor.id))
    for delivery in receiver.deliveries:
        arrived = int(delivery.headers["webhook-timestamp"])
        alerts.verify(secret, delivery.headers, delivery.body, now=arrived)
        assert delivery.headers["webhook-id"] == json.loads(delivery.body)["delivery_id"]
    return audits, [json.loads(delivery.body) for delivery in receiver.deliveries]


async def assert_down_then_recovered(
    local: ManualPlatform, audits: list[str], payloads: list[dict[str, Any]]
) -> None:
    runs = [await run_finish.run_of_audit(local.env.DB, audit_id) for audit_id in audits]
    assert all(run is not None for run in runs)
    first, down, back = [run for run in runs if run is not None]
    assert [run.status for run in (first, down, back)] == [
        MonitorRunStatus.COMPLETED,
        MonitorRunStatus.FAILED,
        MonitorRunStatus.COMPLETED,
    ]
    assert down.error_code is not None and down.error_code.is_site_failure
    assert (down.new_issues, down.fixed_issues) == (None, None)  # never "all fixed"
    assert (back.new_issues, back.fixed_issues) == (0, 0)  # compared with the first run

    unreachable, recovered = payloads  # exactly one alert each way, nothing else
    assert (unreachable["run_id"], unreachable["reasons"]) == (down.id, ["site_unreachable"])
    assert unreachable["blame"] == "site"
    assert unreachable["failure"]["url"] == unreachable["site"]
    assert unreachable["outage"]["failed_runs"] == 1
    assert (recovered["run_id"], recovered["reasons"]) == (back.id, ["site_recovered"])
    assert recovered["outage"] == unreachable["outage"]
    assert recovered["previous_run_id"] == first.id


async def test_a_site_that_goes_down_and_comes_back_alerts_once_each_way(
    local: ManualPlatform,
) -> None:
    audits, payloads = await down_and_back(local, audit_the_closed_port)

    await assert_down_then_recovered(local, audits, payloads)


async def test_an_audit_failed_by_the_site_alerts_once_and_the_next_good_run_recovers(
    local: ManualPlatform,
) -> None:
    audits, payloads = await down_and_back(local, fail_the_audit_as_the_site)

    await assert_down_then_recovered(local, audits, payloads)
    assert payloads[0]["failure"]["detail"] == REFUSED
    assert payloads[0]["failure"]["error_code"] == "site_connection_failed"
