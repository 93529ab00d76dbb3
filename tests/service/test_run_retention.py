"""Monitor-run retention: the daily cleanup keeps monitor_runs, their audits and their R2 reports
a bounded size, deletes R2 objects before rows, and never touches an ad-hoc audit."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from auditdb import repository
from auditdb.monitors import MonitorRunRecord, MonitorRunStatus
from auditdb.records import AuditRecord
from common import ports
from local_platform.clock import ManualClock
from maintenance.scheduled import CLEANUP_CRON
from service.monitors import CreateMonitor, create_monitor
from service.report_keys import REPORTS_PREFIX, report_key
from service.run_retention import (
    BATCH_SIZE,
    RetentionOutcome,
    expire_monitor_runs,
)
from tests.support.manual_platform import ManualPlatform
from tests.support.monitor_runs import insert_runs

DAY_S = 24 * 3600
OWNER = "alpha"


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[ManualPlatform]:
    platform = ManualPlatform(tmp_path / "state", clock=ManualClock(start_ms=1_795_000_000_000))
    yield platform
    await platform.close()


async def new_monitor(local: ManualPlatform) -> str:
    created = await create_monitor(local.env, OWNER, CreateMonitor("https://a.example/"))
    return created.monitor.id


async def finished_audit(local: ManualPlatform, audit_id: str, finished_at: str) -> None:
    audit = AuditRecord(id=audit_id, owner=OWNER, start_url="https://a.example/",
                        created_at=finished_at)  # fmt: skip
    await repository.insert_audit(local.env.DB, audit)
    await (
        local.env.DB.prepare("UPDATE audits SET status = 'completed', finished_at = ? WHERE id = ?")
        .bind(finished_at, audit_id)
        .run()
    )
    await (
        local.env.DB.prepare(
            "INSERT INTO audit_pages (id, audit_id, url, crawled_at) VALUES (?, ?, ?, ?)"
        )
        .bind(f"{audit_id}-page", audit_id, "https://a.example/", finished_at)
        .run()
    )


async def runs_days_ago(
    local: ManualPlatform,
    monitor_id: str,
    days: float,
    count: int,
    *,
    prefix: str = "",
    report: bool = True,
) -> list[str]:
    """`count` finished runs that started `days` ago, each with an audit (one page) and, when
    `report`, its R2 object; returns the audit ids."""
    started = ports.iso_from_ms(ports.now_ms() - days * DAY_S * 1000)
    audit_ids = []
    for n in range(count):
        audit_id = f"{prefix}{monitor_id}-{days:g}d-{n:04}"
        await finished_audit(local, audit_id, started)
        if report:
            await local.env.REPORTS.put(report_key(OWNER, audit_id), b"gzip bytes")
        run = MonitorRunRecord(
            id=f"run-{audit_id}", monitor_id=monitor_id, due_at=f"{started}#{n}",
            started_at=started, status=MonitorRunStatus.COMPLETED, audit_id=audit_id,
            finished_at=started, r2_key=report_key(OWNER, audit_id) if report else None,
        )  # fmt: skip
        await insert_runs(local.env, [run])
        audit_ids.append(audit_id)
    return audit_ids


async def count(local: ManualPlatform, table: str) -> int:
    row = await local.env.DB.prepare(f"SELECT COUNT(*) AS n FROM {table}").first()
    return int(row["n"])


async def stored_reports(local: ManualPlatform) -> set[str]:
    listed = await local.env.REPORTS.list(prefix=REPORTS_PREFIX)
    assert not listed["truncated"]
    return {obj.key for obj in listed["objects"]}


def keys_of(audit_ids: list[str]) -> set[str]:
    return {report_key(OWNER, audit_id) for audit_id in audit_ids}


async def test_runs_past_retention_go_with_their_audits_and_reports(local: ManualPlatform) -> None:
    monitor = await new_monitor(local)
    old = await runs_days_ago(local, monitor, 400, 3)
    kept = await runs_days_ago(local, monitor, 10, 2)
    await finished_audit(local, "ad-hoc", ports.iso_from_ms(ports.now_ms() - 400 * DAY_S * 1000))

    summary = await expire_monitor_runs(local.env)

    assert (summary.outcome, summary.runs_deleted, summary.audits_deleted) == ("done", 3, 3)
    assert summary.reports_deleted == 3
    for audit_id in old:
        assert await repository.get_audit(local.env.DB, audit_id) is None
    assert await stored_reports(local) == keys_of(kept)
    assert await count(local, "monitor_runs") == 2
    # The ad-hoc audit is older than every run, and no run names it: it stays.
    assert await count(local, "audits") == 3
    assert await count(local, "audit_pages") == 3  # the deleted audits' pages cascaded


async def test_a_pass_stops_at_its_cap_and_the_next_one_goes_on(local: ManualPlatform) -> None:
    local.env.MONITOR_RUN_CLEANUP_MAX_RUNS = str(BATCH_SIZE + 50)
    monitor = await new_monitor(local)
    await runs_days_ago(local, monitor, 400, BATCH_SIZE * 2 + 10)

    passes = [await expire_monitor_runs(local.env) for _ in range(3)]

    assert [(p.outcome, p.runs_deleted) for p in passes] == [
        (RetentionOutcome.CAPPED, BATCH_SIZE + 50),
        (RetentionOutcome.DONE, BATCH_SIZE - 40),
        (RetentionOutcome.DONE, 0),
    ]
    assert await count(local, "monitor_runs") == await count(local, "audits") == 0
    assert await stored_reports(local) == set()


async def test_r2_refusing_leaves_the_rows_for_the_next_day(local: ManualPlatform) -> None:
    monitor = await new_monitor(local)
    old = await runs_days_ago(local, monitor, 400, 3)
    local.env.REPORTS.faults.fail_next("delete")

    refused = await expire_monitor_runs(local.env)

    assert (refused.outcome, refused.runs_deleted) == (RetentionOutcome.STORAGE_FAILED, 0)
    assert await count(local, "monitor_runs") == 3  # every object is still named by its run
    assert await stored_reports(local) == keys_of(old)
    retried = await expire_monitor_runs(local.env)
    assert (retried.outcome, retried.runs_deleted) == (RetentionOutcome.DONE, 3)
    assert await stored_reports(local) == set()


async def test_runs_without_an_audit_or_a_report_are_deleted_too(local: ManualPlatform) -> None:
    monitor = await new_monitor(local)
    await runs_days_ago(local, monitor, 400, 2, report=False)
    started = ports.iso_from_ms(ports.now_ms() - 400 * DAY_S * 1000)
    never = MonitorRunRecord(id="never", monitor_id=monitor, due_at="slot", started_at=started,
                             status=MonitorRunStatus.FAILED, error_detail="audit refused")  # fmt: skip
    await insert_runs(local.env, [never])

    summary = await expire_monitor_runs(local.env)

    assert (summary.runs_deleted, summary.audits_deleted, summary.reports_deleted) == (3, 2, 2)
    assert await count(local, "monitor_runs") == 0


@pytest.mark.parametrize(
    ("days", "max_runs"), [("0", "1000"), ("365", "0")], ids=["no retention", "no cleanup"]
)
async def test_a_zero_setting_turns_retention_off(
    local: ManualPlatform, days: str, max_runs: str
) -> None:
    local.env.MONITOR_RUN_RETENTION_DAYS, local.env.MONITOR_RUN_CLEANUP_MAX_RUNS = days, max_runs
    await runs_days_ago(local, await new_monitor(local), 4000, 2)

    assert (await expire_monitor_runs(local.env)).outcome is RetentionOutcome.OFF
    assert await count(local, "monitor_runs") == 2


async def test_daily_runs_and_cleanups_keep_every_table_bounded(
    local: ManualPlatform, caplog: pytest.LogCaptureFixture
) -> None:
    local.env.MONITOR_RUN_RETENTION_DAYS = "3"
    monitors = [await new_monitor(local) for _ in range(2)]
    sizes = []
    with caplog.at_level(logging.INFO, logger="siteaudit.retention"):
        for day in range(8):
            for monitor in monitors:
                await runs_days_ago(local, monitor, 0, 1, prefix=f"day{day}-")
            local.clock.advance(DAY_S)
            await local.scheduled(CLEANUP_CRON)
            sizes.append((await count(local, "monitor_runs"), len(await stored_reports(local))))

    # Retention 3 days: a run lives through three cleanups and goes on the fourth.
    assert sizes == [(2, 2), (4, 4), (6, 6), *[(6, 6)] * 5]
    assert await count(local, "audits") == await count(local, "audit_pages") == 6
    assert sum('"event": "monitor_run_retention"' in r.message for r in caplog.records) == 8


async def test_the_ad_hoc_cleanup_leaves_a_runs_audit_to_run_retention(
    local: ManualPlatform,
) -> None:
    monitor = await new_monitor(local)
    kept = await runs_days_ago(local, monitor, 200, 1)  # past AUDIT_RETENTION_DAYS, not 365
    await finished_audit(local, "ad-hoc", ports.iso_from_ms(ports.now_ms() - 200 * DAY_S * 1000))

    await local.scheduled(CLEANUP_CRON)

    assert await repository.get_audit(local.env.DB, "ad-hoc") is None
    assert await repository.get_audit(local.env.DB, kept[0]) is not None
    assert await stored_reports(local) == keys_of(kept)


async def test_expired_runs_take_their_audits_lighthouse_payloads(local: ManualPlatform) -> None:
    from auditdb import lighthouse
    from lighthouse.records import LighthouseRun, Strategy
    from lighthouse.sample import SampledPage

    monitor = await new_monitor(local)
    old = await runs_days_ago(local, monitor, 400, 2)
    kept = await runs_days_ago(local, monitor, 10, 1)
    payloads = {}
    for audit_id in [*old, *kept]:
        page = SampledPage(f"{audit_id}-page", "https://a.example/")
        key = lighthouse.payload_key(audit_id, page.page_id, Strategy.DESKTOP)
        await local.env.REPORTS.put(key, b"gzip bytes")
        stored = lighthouse.StoredPayload(key, 10)
        row = lighthouse.LighthouseRow.of(audit_id, page, LighthouseRun(Strategy.DESKTOP), stored)
        await lighthouse.record_group(local.env.DB, audit_id, [row], [], last=True)
        payloads[audit_id] = key

    await expire_monitor_runs(local.env)

    listed = await local.env.REPORTS.list(prefix=lighthouse.PAYLOAD_PREFIX)
    assert {obj.key for obj in listed["objects"]} == {payloads[a] for a in kept}
