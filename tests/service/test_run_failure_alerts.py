"""Runs that did not complete, on the local platform: a failed run records its audit's error
code and posts exactly one alert, blamed on the site or on us, from every path an audit fails by
(the workflow, the watchdog, the site's own failure), whatever the repeats (duplicate
`audit_ended` deliveries, finishes called again, the watchdog's re-announcements); a cancelled run
and one whose audit was deleted post nothing; the first completed run after the site's failures
posts one recovery notice and compares with the last completed run before them.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from auditdb import repository
from auditdb.monitors import MonitorRecord, MonitorRunRecord, MonitorRunStatus
from auditdb.queue_messages import announce_audit_end
from common import ports
from common.bindings import Env
from common.failures import ErrorCode
from service import alerts, audits
from service.alerts import AlertReason
from service.errors import StillRunning
from service.run_finish import AUDIT_DELETED, finish_run_for_audit
from service.run_reasons import NOTHING_LEARNED
from tests.service.run_helpers import (
    DAY_S,
    OWNER,
    QUEUE,
    completed_run,
    count,
    manual_platform,
    new_monitor,
    record_run,
    run_day,
    run_row,
    seed_running_audit,
)
from tests.support.manual_platform import ManualPlatform
from tests.support.site_server import Site
from tests.support.webhook_receiver import Receiver, serve_receiver

WATCHDOG = "*/15 * * * *"
REFUSED = (
    "The site did not answer: the connection to site.test port 443 was refused. Check that the "
    "web server is running."
)
OOM_TEXT = "Worker exceeded memory limit."  # the platform's words, kept on the row, never shown
A, B = "https://site.test/a", "https://site.test/b"


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[ManualPlatform]:
    async for platform in manual_platform(tmp_path):
        yield platform


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with serve_receiver() as receiver:
        yield receiver


async def fail_audit(
    env: Env,
    audit_id: str,
    code: ErrorCode = ErrorCode.SITE_CONNECTION_FAILED,
    detail: str = REFUSED,
) -> None:
    """What the workflow's failure path does (for the site's codes, as the start-URL work of
    issue 24 item 1 fails an audit whose start URL got no answer): the guarded fail write with
    the code and sentence, then the announcement."""
    await repository.fail_audit(
        env.DB,
        audit_id,
        error_code=str(code),
        error_detail=detail,
        failed_phase=None,
        finished_at=ports.iso_now(),
    )
    await announce_audit_end(env, audit_id)


async def repeat_everything(local: ManualPlatform, audit_id: str) -> None:
    """Every repeat at-least-once delivery and the backstops can make: the announcement again,
    each queue message delivered twice, the finish called directly, the watchdog's sweep."""
    await announce_audit_end(local.env, audit_id)
    await announce_audit_end(local.env, audit_id)
    local.broker.faults.duplicate_next(QUEUE, 20)
    await local.drain_queue(QUEUE)
    await finish_run_for_audit(local.env, audit_id)
    await finish_run_for_audit(local.env, audit_id)
    local.clock.advance(20 * 60)
    await local.scheduled(WATCHDOG)
    local.broker.faults.duplicate_next(QUEUE, 20)
    await local.drain_queue(QUEUE)


def delivered(local: ManualPlatform, receiver: Receiver, secret: str) -> list[dict[str, Any]]:
    """The payloads the receiver got, each checked as docs/alerts.md tells receivers to, at the
    moment it arrived (the platform's clock moves on between runs; it stands still meanwhile)."""
    for delivery in receiver.deliveries:
        arrived = int(delivery.headers["webhook-timestamp"])
        assert arrived <= local.clock.now_ms() / 1000
        alerts.verify(secret, delivery.headers, delivery.body, now=arrived)
    return [json.loads(delivery.body) for delivery in receiver.deliveries]


async def alert_rows(local: ManualPlatform, monitor: MonitorRecord) -> int:
    return await count(
        local.env, "SELECT COUNT(*) AS n FROM alerts WHERE monitor_id = ?", monitor.id
    )


async def running_run(local: ManualPlatform, monitor: MonitorRecord, n: int) -> MonitorRunRecord:
    """Run n of the monitor, a day after the clock, its audit running with no instance."""
    local.clock.advance(DAY_S)
    run = await record_run(local.env, monitor, n, run_day(n))
    assert run.audit_id is not None
    await seed_running_audit(local.env, run.audit_id, run_day(n))
    return run


async def failed_run(
    local: ManualPlatform,
    monitor: MonitorRecord,
    n: int,
    code: ErrorCode = ErrorCode.SITE_CONNECTION_FAILED,
) -> MonitorRunRecord:
    """Run n of the monitor, its audit failed with `code` (announced, not yet delivered)."""
    run = await running_run(local, monitor, n)
    assert run.audit_id is not None
    await fail_audit(local.env, run.audit_id, code, OOM_TEXT if code is ErrorCode.OOM else REFUSED)
    return run


async def watched_monitor(local: ManualPlatform, receiver: Receiver) -> tuple[MonitorRecord, str]:
    return await new_monitor(local.env, "https://site.test/", receiver.url)


# -- one failed run, each terminal path ------------------------------------------------------------


async def test_a_site_failure_posts_exactly_one_signed_site_unreachable_alert(
    local: ManualPlatform, receiver: Receiver
) -> None:
    monitor, secret = await watched_monitor(local, receiver)
    first = await completed_run(local, monitor, 1, 90.0, [A])

    run = await failed_run(local, monitor, 2)
    await repeat_everything(local, run.audit_id or "")

    [payload] = delivered(local, receiver, secret)
    finished = await run_row(local.env, run.id)
    assert (finished.status, finished.error_code) == (
        MonitorRunStatus.FAILED,
        ErrorCode.SITE_CONNECTION_FAILED,
    )
    assert (finished.new_issues, finished.fixed_issues) == (None, None)  # not compared, not 0
    assert (payload["reasons"], payload["blame"]) == (["site_unreachable"], "site")
    assert payload["failure"] == {
        "error_code": "site_connection_failed",
        "detail": REFUSED,
        "url": "https://site.test/",
        "failed_at": finished.finished_at,
    }
    assert payload["outage"] == {
        "down_since": finished.finished_at,
        "failed_runs": 1,
        "error_code": "site_connection_failed",
    }
    assert (payload["previous_run_id"], payload["score_before"]) == (first.id, 90.0)
    assert (payload["new_critical_total"], payload["score_after"]) == (None, None)
    assert REFUSED in payload["summary"] and "site_connection_failed" not in payload["summary"]
    assert await alert_rows(local, monitor) == 1


async def test_a_run_the_watchdog_fails_is_blamed_on_us_once(
    local: ManualPlatform, receiver: Receiver
) -> None:
    monitor, secret = await watched_monitor(local, receiver)
    run = await running_run(local, monitor, 1)  # its instance never existed: lost
    assert run.audit_id is not None
    local.clock.advance(20 * 60)

    await local.scheduled(WATCHDOG)
    await repeat_everything(local, run.audit_id)

    [payload] = delivered(local, receiver, secret)
    finished = await run_row(local.env, run.id)
    assert (finished.status, finished.error_code) == (
        MonitorRunStatus.FAILED,
        ErrorCode.INSTANCE_LOST,
    )
    assert (payload["reasons"], payload["blame"], payload["outage"]) == (
        ["audit_failed"],
        "siteaudit",
        None,
    )
    assert payload["failure"]["error_code"] == "instance_lost"
    assert payload["failure"]["detail"].endswith(NOTHING_LEARNED)
    assert "failed on siteaudit's side, not the site's" in payload["summary"]
    # A first run: nothing before it, and it was not compared.
    assert (payload["previous_run_id"], payload["new_critical_total"]) == (None, None)


async def test_a_run_the_workflow_fails_is_blamed_on_us_without_its_internal_text(
    local: ManualPlatform, receiver: Receiver, small_site: Site
) -> None:
    monitor, secret = await new_monitor(local.env, small_site.url("/"), receiver.url)
    run = await record_run(local.env, monitor, 1, run_day(1))
    assert run.audit_id is not None
    local.engine.faults.fail_step(run.audit_id, "discover-urls", times=10, message="D1_ERROR: x")
    await audits.create_audit(
        local.env, OWNER, audits.CreateAudit(small_site.url("/"), 5), audit_id=run.audit_id
    )
    await local.wait_for_workflow(run.audit_id, timeout_s=60)

    await repeat_everything(local, run.audit_id)

    [payload] = delivered(local, receiver, secret)
    finished = await run_row(local.env, run.id)
    assert finished.error_code is ErrorCode.DB_ERROR
    assert "D1_ERROR" in (finished.error_detail or "")  # kept on the row for whoever debugs it
    assert (payload["reasons"], payload["blame"]) == (["audit_failed"], "siteaudit")
    assert "D1_ERROR" not in payload["summary"]
    assert "D1_ERROR" not in payload["failure"]["detail"]


async def test_a_cancelled_run_posts_nothing(local: ManualPlatform, receiver: Receiver) -> None:
    monitor, _ = await watched_monitor(local, receiver)
    run = await running_run(local, monitor, 1)
    assert run.audit_id is not None

    await audits.cancel_audit(local.env, OWNER, run.audit_id)
    await repeat_everything(local, run.audit_id)

    finished = await run_row(local.env, run.id)
    assert (finished.status, finished.error_code) == (MonitorRunStatus.CANCELLED, None)
    assert receiver.deliveries == [] and await alert_rows(local, monitor) == 0


async def test_a_run_whose_audit_is_deleted_fails_without_an_alert(
    local: ManualPlatform, receiver: Receiver
) -> None:
    monitor, _ = await watched_monitor(local, receiver)
    run = await running_run(local, monitor, 1)
    assert run.audit_id is not None
    # The owner cannot delete a running audit (StillRunning: cancel it first), so a running
    # run's audit vanishes only without a word: the watchdog's backstop finds the run.
    with pytest.raises(StillRunning):
        await audits.delete_audit(local.env, OWNER, run.audit_id)
    await repository.delete_audit(local.env.DB, run.audit_id)
    await local.scheduled(WATCHDOG)
    await local.drain_queue(QUEUE)

    finished = await run_row(local.env, run.id)
    assert (finished.status, finished.error_detail) == (MonitorRunStatus.FAILED, AUDIT_DELETED)
    assert finished.error_code is None
    assert receiver.deliveries == [] and await alert_rows(local, monitor) == 0


# -- an outage and the recovery --------------------------------------------------------------------


async def test_an_outage_alerts_each_failed_run_then_one_recovery_compared_with_before_it(
    local: ManualPlatform, receiver: Receiver
) -> None:
    monitor, secret = await watched_monitor(local, receiver)
    first = await completed_run(local, monitor, 1, 90.0, [A, B])
    down = []
    for n, code in [(2, ErrorCode.SITE_TIMEOUT), (3, ErrorCode.SITE_DNS_ERROR)]:
        down.append(await failed_run(local, monitor, n, code))
        await repeat_everything(local, down[-1].audit_id or "")
    back = await completed_run(local, monitor, 4, 90.0, [A, B])
    assert back.audit_id is not None
    await repeat_everything(local, back.audit_id)
    after = await completed_run(local, monitor, 5, 90.0, [A, B])  # a steady site: nothing to say

    payloads = delivered(local, receiver, secret)
    assert [p["run_id"] for p in payloads] == [down[0].id, down[1].id, back.id]
    since = (await run_row(local.env, down[0].id)).finished_at
    assert [p["outage"] for p in payloads] == [
        {"down_since": since, "failed_runs": 1, "error_code": "site_timeout"},
        {"down_since": since, "failed_runs": 2, "error_code": "site_dns_error"},
        {"down_since": since, "failed_runs": 2, "error_code": "site_dns_error"},
    ]
    recovery = payloads[-1]
    assert recovery["reasons"] == [AlertReason.SITE_RECOVERED] and recovery["blame"] is None
    assert (
        "It was unreachable from" in recovery["summary"] and "2 runs failed" in recovery["summary"]
    )
    # The run after the outage compares with the last completed run before it: nothing fixed.
    assert (recovery["previous_run_id"], recovery["new_critical_total"]) == (first.id, 0)
    rows = [await run_row(local.env, r.id) for r in (first, *down, back, after)]
    assert [(r.status, r.new_issues, r.fixed_issues) for r in rows] == [
        (MonitorRunStatus.COMPLETED, None, None),  # the first run: nothing to compare with
        (MonitorRunStatus.FAILED, None, None),
        (MonitorRunStatus.FAILED, None, None),
        (MonitorRunStatus.COMPLETED, 0, 0),
        (MonitorRunStatus.COMPLETED, 0, 0),
    ]
    assert await alert_rows(local, monitor) == 3


SITE_DOWN, OURS = ErrorCode.SITE_CONNECTION_FAILED, ErrorCode.OOM


@pytest.mark.parametrize(
    ("failures", "back", "alerted", "failed_runs"),
    [
        # Our failure inside an outage neither ends it nor counts in it.
        ([SITE_DOWN, OURS], (90.0, [A]),
         [["site_unreachable"], ["audit_failed"], ["site_recovered"]], 1),
        # Back, but worse: the recovery and the comparison's reasons in the run's one alert.
        ([SITE_DOWN], (60.0, [A, B]),
         [["site_unreachable"], ["site_recovered", "score_drop", "new_critical_issues"]], 1),
        # Only our failures: the site was never down, so there is nothing to recover from.
        ([OURS, OURS], (90.0, [A]), [["audit_failed"], ["audit_failed"]], None),
    ],
)  # fmt: skip
async def test_what_the_runs_after_a_completed_one_alert(
    local: ManualPlatform,
    receiver: Receiver,
    failures: list[ErrorCode],
    back: tuple[float, list[str]],
    alerted: list[list[str]],
    failed_runs: int | None,
) -> None:
    monitor, secret = await watched_monitor(local, receiver)
    await completed_run(local, monitor, 1, 90.0, [A])
    for n, code in enumerate(failures, start=2):
        await failed_run(local, monitor, n, code)
    await local.drain_queue(QUEUE)
    await completed_run(local, monitor, len(failures) + 2, *back)
    await local.drain_queue(QUEUE)

    payloads = delivered(local, receiver, secret)
    assert [p["reasons"] for p in payloads] == alerted
    assert [p["blame"] for p in payloads] == [
        {"site_unreachable": "site", "audit_failed": "siteaudit"}.get(p["reasons"][0])
        for p in payloads
    ]
    outage = payloads[-1]["outage"]
    assert (None if outage is None else outage["failed_runs"]) == failed_runs


async def test_a_monitor_without_a_webhook_records_the_failure_and_posts_nothing(
    local: ManualPlatform,
) -> None:
    monitor, _ = await new_monitor(local.env, "https://site.test/")

    run = await failed_run(local, monitor, 1)
    await local.drain_queue(QUEUE)

    finished = await run_row(local.env, run.id)
    assert finished.error_code is ErrorCode.SITE_CONNECTION_FAILED
    assert await alert_rows(local, monitor) == 0
