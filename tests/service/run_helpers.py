"""Shared pieces of the run-finishing and alert tests: a platform on a hand-moved clock, a
monitor with a run row, and reads of what finishing wrote."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from auditdb import monitors as table
from auditdb import repository, run_finish
from auditdb.alerts import AlertRecord, get_alert
from auditdb.monitors import MonitorRecord, MonitorRunRecord
from auditdb.records import AuditRecord, IssueRecord
from common.bindings import Env
from local_platform.clock import ManualClock
from service import audits
from service.monitor_runs import run_audit_id
from service.monitors import CreateMonitor, audit_request, create_monitor
from service.run_finish import finish_run_for_audit
from tests.support.manual_platform import ManualPlatform
from tests.support.platform_vars import TEST_VARS

QUEUE = "siteaudit-monitor"
DLQ = "siteaudit-monitor-dlq"
OWNER = "owner-1"
MONDAY_10 = dt.datetime(2026, 12, 7, 10, tzinfo=dt.UTC).timestamp() * 1000


async def manual_platform(tmp_path: Path) -> AsyncIterator[ManualPlatform]:
    platform = ManualPlatform(
        tmp_path / "state", clock=ManualClock(MONDAY_10), var_overrides=TEST_VARS
    )
    try:
        yield platform
    finally:
        await platform.close()


async def new_monitor(
    env: Env, url: str, webhook_url: str | None = None
) -> tuple[MonitorRecord, str]:
    created = await create_monitor(env, OWNER, CreateMonitor(url, hour=10, webhook_url=webhook_url))
    return created.monitor, created.webhook_secret


async def record_run(env: Env, monitor: MonitorRecord, n: int, due_at: str) -> MonitorRunRecord:
    """The run row of slot `due_at`, as the consumer records it (status running)."""
    run = MonitorRunRecord(
        f"run-{n}", monitor.id, due_at, due_at, audit_id=run_audit_id(monitor.id, due_at)
    )
    await table.record_run_start(env.DB, run, due_at)
    return run


def audit_of(run: MonitorRunRecord) -> str:
    """The run's audit id: every run these tests record has one (`run_audit_id`)."""
    assert run.audit_id is not None
    return run.audit_id


async def start_run(
    local: ManualPlatform, monitor: MonitorRecord, n: int, due_at: str
) -> MonitorRunRecord:
    """Record the run, then start its audit through the real workflow: the order in which the
    workflow's own ending is what finishes the run."""
    run = await record_run(local.env, monitor, n, due_at)
    await audits.create_audit(local.env, OWNER, audit_request(monitor), audit_id=audit_of(run))
    return run


async def seed_running_audit(env: Env, audit_id: str, started_at: str) -> AuditRecord:
    """An audit row with no workflow instance behind it (the watchdog and cancel tests)."""
    audit = AuditRecord(
        audit_id, "https://site.test/", started_at, owner=OWNER, started_at=started_at
    )
    await repository.insert_audit(env.DB, audit)
    return audit


async def run_row(env: Env, run_id: str) -> MonitorRunRecord:
    run = await run_finish.get_run(env.DB, run_id)
    assert run is not None
    return run


async def alert_row(env: Env, run_id: str) -> AlertRecord | None:
    return await get_alert(env.DB, run_id)


async def count(env: Env, sql: str, *params: Any) -> int:
    """`sql`'s `COUNT(*) AS n`."""
    row = await env.DB.prepare(sql).bind(*params).first()
    assert row is not None and isinstance(row["n"], int)
    return row["n"]


DAY_S = 24 * 3600


def run_day(n: int) -> str:
    """The slot of run n of a daily monitor created on MONDAY_10: one day apart."""
    return f"2026-12-{7 + n:02d}T10:00:00.000Z"


async def completed_run(
    local: ManualPlatform, monitor: MonitorRecord, n: int, score: float, critical_pages: list[str]
) -> MonitorRunRecord:
    """Run n of the monitor, a day after the clock: its audit completed with `score` and one
    critical issue per page, and the run finished."""
    local.clock.advance(DAY_S)
    due = run_day(n)
    run = await record_run(local.env, monitor, n, due)
    assert run.audit_id is not None
    await seed_running_audit(local.env, run.audit_id, due)
    issues = [
        IssueRecord(f"{run.audit_id}-{k}", run.audit_id, url, "missing-title", "critical")
        for k, url in enumerate(critical_pages)
    ]
    await repository.insert_issues(local.env.DB, issues)
    counts = {"total": len(issues), "critical": len(issues)}
    await repository.complete_audit(
        local.env.DB, run.audit_id, finished_at=due, pages_crawled=3, counts=counts,
        health_score=score,
    )  # fmt: skip
    await finish_run_for_audit(local.env, run.audit_id)
    return run
