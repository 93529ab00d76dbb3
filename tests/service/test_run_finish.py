"""Finishing a monitor run when its audit ends, from every path an audit ends by.

Each test drives the real path (the local workflow engine, the */15 watchdog, the owner's
cancel), then lets the monitor queue deliver what that path announced, and checks the run row,
the report in R2 and that nothing happens twice.
"""

from __future__ import annotations

import gzip
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from auditdb import repository
from auditdb.monitors import MonitorRunStatus
from auditdb.queue_messages import AuditEnded, announce_audit_end
from maintenance.monitor_producer import MonitorDue
from service import audits
from service.monitor_runs import run_monitor
from service.report_keys import report_key
from service.run_finish import AUDIT_DELETED, FinishOutcome, finish_run_for_audit, thresholds
from tests.service.run_helpers import (
    OWNER,
    QUEUE,
    audit_of,
    completed_run,
    count,
    manual_platform,
    new_monitor,
    record_run,
    run_row,
    seed_running_audit,
    start_run,
)
from tests.support.manual_platform import ManualPlatform
from tests.support.site_server import Site

SLOT = "2026-12-07T10:00:00.000Z"
WATCHDOG = "*/15 * * * *"


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[ManualPlatform]:
    async for platform in manual_platform(tmp_path):
        yield platform


async def pending_messages(local: ManualPlatform) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []

    async def peek(batch: Any) -> None:
        seen.extend(dict(m.body) for m in batch.messages)
        for message in batch.messages:
            message.retry()

    await local.broker.deliver_due(QUEUE, peek, flush=True)
    return seen


async def test_a_completed_audit_finishes_its_run_with_counts_and_a_report(
    local: ManualPlatform, small_site: Site
) -> None:
    monitor, _ = await new_monitor(local.env, small_site.url("/"))
    run = await start_run(local, monitor, 1, SLOT)
    await local.wait_for_workflow(audit_of(run), timeout_s=60)

    assert await pending_messages(local) == [AuditEnded(audit_of(run)).to_dict()]
    await local.drain_queue(QUEUE)

    audit = await repository.get_audit(local.env.DB, audit_of(run))
    finished = await run_row(local.env, run.id)
    assert audit is not None and finished.status is MonitorRunStatus.COMPLETED
    assert (finished.finished_at, finished.health_score) == (audit.finished_at, audit.health_score)
    assert (finished.critical_count, finished.warning_count, finished.info_count) == (
        audit.critical_count,
        audit.warning_count,
        audit.info_count,
    )
    # A first run has nothing to compare with: not compared, rather than "nothing changed".
    assert (finished.new_issues, finished.fixed_issues) == (None, None)
    # The run carries its audit's security grade (a plain-http site: F here).
    assert (finished.grade, finished.security_score) == (audit.security_grade, audit.security_score)
    assert finished.grade is not None
    assert finished.r2_key == report_key(OWNER, audit_of(run))
    stored = await local.env.REPORTS.get(finished.r2_key)
    body = bytes(await stored.arrayBuffer())
    assert finished.report_bytes == len(body)
    assert json.loads(gzip.decompress(body))["audit"]["id"] == run.audit_id


async def test_an_audit_the_workflow_fails_finishes_its_run_as_failed(
    local: ManualPlatform, small_site: Site
) -> None:
    monitor, _ = await new_monitor(local.env, small_site.url("/"))
    run = await record_run(local.env, monitor, 1, SLOT)
    local.engine.faults.fail_step(run.audit_id, "discover-urls", times=10, message="boom")
    await audits.create_audit(
        local.env, OWNER, audits.CreateAudit(small_site.url("/"), 5), audit_id=run.audit_id
    )
    await local.wait_for_workflow(audit_of(run), timeout_s=60)

    await local.drain_queue(QUEUE)

    finished = await run_row(local.env, run.id)
    assert finished.status is MonitorRunStatus.FAILED
    assert "boom" in (finished.error_detail or "")
    assert finished.health_score is None and finished.new_issues is None
    assert finished.r2_key == report_key(OWNER, audit_of(run))  # the partial audit's report


async def test_an_audit_the_watchdog_fails_finishes_its_run_as_failed(
    local: ManualPlatform,
) -> None:
    monitor, _ = await new_monitor(local.env, "https://site.test/")
    run = await record_run(local.env, monitor, 1, SLOT)
    await seed_running_audit(local.env, audit_of(run), SLOT)  # its instance never existed
    local.clock.advance(20 * 60)

    await local.scheduled(WATCHDOG)
    await local.drain_queue(QUEUE)

    audit = await repository.get_audit(local.env.DB, audit_of(run))
    finished = await run_row(local.env, run.id)
    assert audit is not None and audit.error_code == "instance_lost"
    assert (finished.status, finished.error_detail) == (MonitorRunStatus.FAILED, audit.error_detail)


async def test_a_cancelled_audit_finishes_its_run_as_cancelled(local: ManualPlatform) -> None:
    monitor, _ = await new_monitor(local.env, "https://site.test/")
    run = await record_run(local.env, monitor, 1, SLOT)
    await seed_running_audit(local.env, audit_of(run), SLOT)

    await audits.cancel_audit(local.env, OWNER, audit_of(run))
    await local.drain_queue(QUEUE)

    finished = await run_row(local.env, run.id)
    assert finished.status is MonitorRunStatus.CANCELLED
    assert finished.r2_key == report_key(OWNER, audit_of(run))


async def test_finishing_twice_changes_nothing_the_second_time(local: ManualPlatform) -> None:
    monitor, _ = await new_monitor(local.env, "https://site.test/")
    run = await record_run(local.env, monitor, 1, SLOT)
    await seed_running_audit(local.env, audit_of(run), SLOT)
    await repository.cancel_audit(local.env.DB, audit_of(run), finished_at=SLOT)

    first = await finish_run_for_audit(local.env, audit_of(run))
    row = await run_row(local.env, run.id)
    local.clock.advance(60)
    second = await finish_run_for_audit(local.env, audit_of(run))

    assert (first.outcome, second.outcome) == (FinishOutcome.FINISHED, FinishOutcome.ALREADY)
    assert await run_row(local.env, run.id) == row


@pytest.mark.parametrize(
    ("setup", "outcome"),
    [("no run", FinishOutcome.NO_RUN), ("still running", FinishOutcome.NOT_ENDED)],
)
async def test_an_audit_without_a_run_or_still_running_is_left_alone(
    local: ManualPlatform, setup: str, outcome: FinishOutcome
) -> None:
    monitor, _ = await new_monitor(local.env, "https://site.test/")
    audit_id = "plain-audit"
    if setup == "still running":
        audit_id = audit_of(await record_run(local.env, monitor, 1, SLOT))
    await seed_running_audit(local.env, audit_id, SLOT)

    assert (await finish_run_for_audit(local.env, audit_id)).outcome is outcome
    assert await announce_audit_end(local.env, "plain-audit") is False


async def test_an_r2_put_failing_leaves_the_run_finished_without_a_report(
    local: ManualPlatform, caplog: pytest.LogCaptureFixture
) -> None:
    monitor, _ = await new_monitor(local.env, "https://site.test/")
    run = await record_run(local.env, monitor, 1, SLOT)
    await seed_running_audit(local.env, audit_of(run), SLOT)
    local.env.REPORTS.faults.fail_next("put")

    with caplog.at_level(logging.WARNING, logger="siteaudit.reports"):
        await audits.cancel_audit(local.env, OWNER, audit_of(run))
        await local.drain_queue(QUEUE)

    finished = await run_row(local.env, run.id)
    assert finished.status is MonitorRunStatus.CANCELLED
    assert (finished.r2_key, finished.report_bytes) == (None, None)
    assert "not stored" in caplog.text
    assert local.broker.pending(QUEUE) == 0  # the run succeeded: nothing is retried


async def test_a_run_recorded_after_its_audit_ended_is_finished_at_once(
    local: ManualPlatform, small_site: Site
) -> None:
    # A consumer started the audit and died before recording the run; the audit completed
    # meanwhile and announced nothing, as no run referenced it yet.
    monitor, _ = await new_monitor(local.env, small_site.url("/"))
    due = MonitorDue(monitor.id, monitor.next_due_at)
    audit_id = await _start_without_run(local, monitor, due)
    await local.wait_for_workflow(audit_id, timeout_s=60)
    assert local.broker.pending(QUEUE) == 0

    local.clock.advance(3600)
    await run_monitor(local.env, due)  # the redelivery records the run...

    finished = await count(
        local.env,
        "SELECT COUNT(*) AS n FROM monitor_runs WHERE audit_id = ? AND status = 'completed' "
        "AND r2_key IS NOT NULL",
        audit_id,
    )
    assert finished == 1  # ...and finishes it there and then


async def _start_without_run(local: ManualPlatform, monitor: Any, due: MonitorDue) -> str:
    from service.monitor_runs import run_audit_id
    from service.monitors import audit_request

    audit_id = run_audit_id(monitor.id, due.due_at)
    await audits.create_audit(local.env, OWNER, audit_request(monitor), audit_id=audit_id)
    return audit_id


async def test_the_watchdog_announces_a_run_whose_announcement_was_lost(
    local: ManualPlatform,
) -> None:
    monitor, _ = await new_monitor(local.env, "https://site.test/")
    run = await record_run(local.env, monitor, 1, SLOT)
    await seed_running_audit(local.env, audit_of(run), SLOT)
    await repository.cancel_audit(local.env.DB, audit_of(run), finished_at=SLOT)  # no announce

    await local.scheduled(WATCHDOG)
    await local.drain_queue(QUEUE)

    assert (await run_row(local.env, run.id)).status is MonitorRunStatus.CANCELLED


async def test_a_run_whose_audit_was_deleted_is_finished_as_failed(local: ManualPlatform) -> None:
    monitor, _ = await new_monitor(local.env, "https://site.test/")
    run = await record_run(local.env, monitor, 1, SLOT)

    result = await finish_run_for_audit(local.env, audit_of(run))

    finished = await run_row(local.env, run.id)
    assert result.outcome is FinishOutcome.FINISHED
    assert (finished.status, finished.error_detail) == (MonitorRunStatus.FAILED, AUDIT_DELETED)


@pytest.mark.parametrize(
    ("score_drop", "new_critical", "expected"),
    [(5.0, True, (5.0, True)), (0.0, True, (None, True)), (12.5, False, (12.5, False))],
)
def test_a_monitors_settings_become_the_alert_thresholds(
    score_drop: float, new_critical: bool, expected: tuple[float | None, bool]
) -> None:
    from auditdb.frequency import Frequency
    from auditdb.monitors import MonitorRecord

    monitor = MonitorRecord(
        "m", "o", "https://a.test/", Frequency.DAILY, 10, 5, SLOT, SLOT,
        alert_score_drop=score_drop, alert_on_new_critical=new_critical,
    )  # fmt: skip

    found = thresholds(monitor)

    assert (found.score_drop, found.new_critical_issues) == expected


# -- the alert decision, wired to the monitor's settings ------------------------------------------


A, B = "https://site.test/a", "https://site.test/b"


@pytest.mark.parametrize(
    ("settings", "before", "after", "reasons"),
    [
        ({}, (90.0, [A]), (85.0, [A]), ["score_drop"]),  # the default 5-point threshold
        ({}, (90.0, [A]), (85.1, [A]), None),
        ({"alert_score_drop": 0}, (90.0, [A]), (10.0, [A]), None),  # 0: score alerts off
        ({}, (90.0, [A]), (90.0, [A, B]), ["new_critical_issues"]),
        ({"alert_on_new_critical": False}, (90.0, [A]), (90.0, [A, B]), None),
        ({}, (90.0, [A]), (70.0, [B]), ["score_drop", "new_critical_issues"]),
        ({"webhook_url": None}, (90.0, [A]), (10.0, [A, B]), None),  # nowhere to send it
    ],
)
async def test_a_completed_run_alerts_as_the_monitors_settings_say(
    local: ManualPlatform,
    settings: dict[str, Any],
    before: tuple[float, list[str]],
    after: tuple[float, list[str]],
    reasons: list[str] | None,
) -> None:
    from auditdb.alerts import get_alert
    from service.monitors import CreateMonitor, create_monitor

    fields = {"webhook_url": "http://127.0.0.1:9/hook", **settings}
    monitor = (
        await create_monitor(local.env, OWNER, CreateMonitor("https://site.test/", **fields))
    ).monitor
    await completed_run(local, monitor, 1, *before)
    run = await completed_run(local, monitor, 2, *after)

    alert = await get_alert(local.env.DB, run.id)
    finished = await run_row(local.env, run.id)
    assert (finished.new_issues, finished.fixed_issues) == (
        len(set(after[1]) - set(before[1])),
        len(set(before[1]) - set(after[1])),
    )
    if reasons is None:
        assert alert is None
        return
    assert alert is not None
    payload = json.loads(alert.payload)
    assert payload["reasons"] == reasons
    assert (payload["score_before"], payload["score_after"]) == (before[0], after[0])
    assert [i["page_url"] for i in payload["new_critical_issues"]] == sorted(
        set(after[1]) - set(before[1])
    )
