"""The watchdog and the lazy status read, against real workflow instances on the local platform."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from auditdb import repository
from auditdb.records import AuditRecord
from local_platform.clock import ManualClock
from maintenance.scheduled import CLEANUP_CRON, WATCHDOG_CRON
from tests.support.manual_platform import ManualPlatform

MINUTE_S = 60


@pytest.fixture
async def clocked(tmp_path: Path) -> AsyncIterator[ManualPlatform]:
    clock = ManualClock(start_ms=1_795_000_000_000)
    local = ManualPlatform(
        tmp_path / "state", clock=clock, var_overrides={"ALLOW_PRIVATE_HOSTS": "loopback"}
    )
    yield local
    await local.close()


async def running_audit(local: ManualPlatform, audit_id: str) -> AuditRecord:
    from common import ports

    record = AuditRecord(
        id=audit_id,
        start_url="https://a.test/",
        created_at=ports.iso_now(),
        started_at=ports.iso_now(),
        workflow_instance_id=audit_id,
    )
    await repository.insert_audit(local.env.DB, record)
    return record


async def status_of(local: ManualPlatform, audit_id: str) -> dict[str, Any]:
    return (await repository.get_audit(local.env.DB, audit_id)).to_dict()  # type: ignore[union-attr]


async def test_the_sweep_fails_audits_whose_instance_was_killed(
    clocked: ManualPlatform, caplog: pytest.LogCaptureFixture
) -> None:
    await running_audit(clocked, "killed")
    await clocked.env.SITE_AUDIT_WORKFLOW.create(
        id="killed", params={"audit_id": "killed", "start_url": "https://a.test/"}
    )
    clocked.engine.faults.kill("killed", "oom")
    await clocked.wait_for_workflow("killed", timeout_s=10)
    clocked.clock.advance(16 * MINUTE_S)

    with caplog.at_level(logging.INFO, logger="siteaudit.events"):
        await clocked.scheduled(WATCHDOG_CRON)

    audit = await status_of(clocked, "killed")
    assert (audit["status"], audit["error_code"]) == ("failed", "oom")
    assert "exceeded memory limit" in audit["error_detail"]
    [line] = [json.loads(r.getMessage()) for r in caplog.records if r.name == "siteaudit.events"]
    assert line == {
        "event": "audit_terminal",
        "audit_id": "killed",
        "status": "failed",
        "error_code": "oom",
        "failed_phase": "discovery",
        "pages": 0,
        "reconciled_by": "watchdog",
    }


async def test_a_lost_instance_fails_only_after_the_grace_period(clocked: ManualPlatform) -> None:
    await running_audit(clocked, "lost")

    clocked.clock.advance(9 * MINUTE_S)
    await clocked.request("GET", "/api/audits/lost")
    assert (await status_of(clocked, "lost"))["status"] == "running"

    clocked.clock.advance(2 * MINUTE_S)
    _, body = await clocked.request("GET", "/api/audits/lost")
    assert (body["audit"]["status"], body["audit"]["error_code"]) == ("failed", "instance_lost")


async def test_a_transient_binding_error_never_fails_a_live_audit(
    clocked: ManualPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    await running_audit(clocked, "live")
    clocked.clock.advance(60 * MINUTE_S)

    async def broken_get(instance_id: str) -> Any:
        raise RuntimeError("Error: internal error; reference = abc")

    monkeypatch.setattr(clocked.env.SITE_AUDIT_WORKFLOW, "get", broken_get)
    await clocked.scheduled(WATCHDOG_CRON)

    assert (await status_of(clocked, "live"))["status"] == "running"


async def test_one_bad_audit_never_stops_the_sweep(
    clocked: ManualPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    for audit_id in ("first", "second"):
        await running_audit(clocked, audit_id)
        clocked.clock.advance(1)
    clocked.clock.advance(60 * MINUTE_S)
    real_fail = repository.fail_audit

    async def flaky_fail(db: Any, audit_id: str, **kwargs: Any) -> bool:
        if audit_id == "first":
            raise RuntimeError("D1_ERROR: database is locked: SQLITE_BUSY")
        return await real_fail(db, audit_id, **kwargs)

    monkeypatch.setattr(repository, "fail_audit", flaky_fail)
    await clocked.scheduled(WATCHDOG_CRON)  # must not raise

    assert (await status_of(clocked, "first"))["status"] == "running"
    assert (await status_of(clocked, "second"))["error_code"] == "instance_lost"


async def test_daily_cleanup_deletes_only_expired_finished_audits(clocked: ManualPlatform) -> None:
    old = await running_audit(clocked, "old")
    await repository.fail_audit(
        clocked.env.DB,
        old.id,
        error_code="unknown",
        error_detail=None,
        failed_phase=None,
        finished_at="2020-01-01T00:00:00.000Z",
    )
    await running_audit(clocked, "current")

    await clocked.scheduled(CLEANUP_CRON)

    assert await repository.get_audit(clocked.env.DB, "old") is None
    assert await repository.get_audit(clocked.env.DB, "current") is not None


async def test_the_platform_tick_fires_the_watchdog_cron(clocked: ManualPlatform) -> None:
    await running_audit(clocked, "zombie")
    await clocked.tick()  # arms the cron schedule at the current time
    clocked.clock.advance(30 * MINUTE_S)

    await clocked.tick()

    assert (await status_of(clocked, "zombie"))["error_code"] == "instance_lost"


async def test_the_sweep_and_the_status_read_leave_a_cancelled_audit_alone(
    clocked: ManualPlatform,
) -> None:
    from service.audits import cancel_audit, read_audit

    # No instance behind either audit: past the grace period, a running one is instance_lost.
    await running_audit(clocked, "stopped")
    await running_audit(clocked, "lost")
    await cancel_audit(clocked.env, "local", "stopped")
    clocked.clock.advance(30 * MINUTE_S)

    await clocked.scheduled(WATCHDOG_CRON)
    await read_audit(clocked.env, "local", "stopped")

    assert (await status_of(clocked, "lost"))["error_code"] == "instance_lost"
    stopped = await status_of(clocked, "stopped")
    assert (stopped["status"], stopped["error_code"]) == ("cancelled", None)


async def expired_with_a_payload(local: ManualPlatform, audit_id: str) -> str:
    """A finished, expired audit with one page and one stored Lighthouse payload; its key."""
    from auditdb import lighthouse
    from lighthouse.records import LighthouseRun, Strategy
    from lighthouse.sample import SampledPage

    await running_audit(local, audit_id)
    await (
        local.env.DB.prepare(
            "INSERT INTO audit_pages (id, audit_id, url, crawled_at) VALUES (?, ?, ?, 't')"
        )
        .bind(f"{audit_id}-p", audit_id, "https://a.test/")
        .run()
    )
    key = lighthouse.payload_key(audit_id, f"{audit_id}-p", Strategy.MOBILE)
    await local.env.REPORTS.put(key, b"gzip bytes")
    page = SampledPage(f"{audit_id}-p", "https://a.test/")
    stored = lighthouse.StoredPayload(key, 10)
    row = lighthouse.LighthouseRow.of(audit_id, page, LighthouseRun(Strategy.MOBILE), stored)
    await lighthouse.record_group(local.env.DB, audit_id, [row], [], last=True)
    await repository.fail_audit(
        local.env.DB,
        audit_id,
        error_code="unknown",
        error_detail=None,
        failed_phase=None,
        finished_at="2020-01-01T00:00:00.000Z",
    )
    return key


async def test_daily_cleanup_deletes_expired_audits_lighthouse_payloads_first(
    clocked: ManualPlatform,
) -> None:
    key = await expired_with_a_payload(clocked, "old")

    clocked.env.REPORTS.faults.fail_next("delete")
    await clocked.scheduled(CLEANUP_CRON)
    # R2 refused: the audit stays, its rows still name the object, tomorrow retries
    assert await repository.get_audit(clocked.env.DB, "old") is not None
    assert await clocked.env.REPORTS.get(key) is not None

    await clocked.scheduled(CLEANUP_CRON)
    assert await repository.get_audit(clocked.env.DB, "old") is None
    assert await clocked.env.REPORTS.get(key) is None
