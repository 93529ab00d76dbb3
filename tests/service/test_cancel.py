"""Cancelling an audit: a running audit stops and keeps what it found, under a status of its own;
anything else is refused; and a cancel racing the workflow's own end leaves one consistent answer,
whichever lands first."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from auditdb import rate_limits, repository
from auditdb.records import AuditPhase, AuditRecord, AuditStatus, PageRecord
from common import ports
from common.bindings import Env
from durable.client import Scratchpad
from durable.records import CrawlConfig
from local_platform.runtime import LocalPlatform
from service.audits import cancel_audit, resume_audit
from service.errors import AuditNotFound, NotCancellable, WorkflowUnavailable

OWNER = "alpha"


async def running(env: Env, audit_id: str = "a-1", pages: int = 2) -> AuditRecord:
    """A running audit (started now: the lazy reconcile leaves it alone) with a few pages and a
    configured scratchpad, and no workflow instance behind it."""
    now = ports.iso_now()
    audit = AuditRecord(
        audit_id, "https://a.test/", now, owner=OWNER, started_at=now, pages_crawled=pages
    )
    await repository.insert_audit(env.DB, audit)
    await repository.update_progress(env.DB, audit_id, pages, 10)
    rows = [
        PageRecord(f"{audit_id}-p{n}", audit_id, f"https://a.test/{n}", now) for n in range(pages)
    ]
    await repository.write_crawled_pages(env.DB, rows, [])
    await Scratchpad.for_audit(env, audit_id).save_crawl_config(CrawlConfig("https://a.test/"))
    return audit


async def ended(env: Env, audit_id: str, status: AuditStatus) -> None:
    await env.DB.prepare("UPDATE audits SET status = ? WHERE id = ?").bind(status, audit_id).run()


async def read(env: Env, audit_id: str = "a-1") -> AuditRecord:
    audit = await repository.get_audit(env.DB, audit_id)
    assert audit is not None
    return audit


async def test_a_running_audit_is_cancelled_and_keeps_its_pages_and_crawl_state(
    platform: LocalPlatform, caplog: pytest.LogCaptureFixture
) -> None:
    env = platform.env
    await running(env)

    with caplog.at_level(logging.INFO, logger="siteaudit.events"):
        cancelled = await cancel_audit(env, OWNER, "a-1")  # no instance to stop: still cancelled

    assert (cancelled.status, cancelled.current_phase) == (
        AuditStatus.CANCELLED,
        AuditPhase.CANCELLED,
    )
    assert cancelled.finished_at is not None
    assert (cancelled.error_code, cancelled.failed_phase) == (None, None)
    assert await repository.count_crawled_pages(env.DB, "a-1") == 2
    assert (await Scratchpad.for_audit(env, "a-1").crawl_config()).configured
    lines = [
        json.loads(r.getMessage()) for r in caplog.records if "audit_terminal" in r.getMessage()
    ]
    assert [(line["status"], line["pages"]) for line in lines] == [("cancelled", 2)]


async def test_a_cancelled_audit_no_longer_counts_as_running(platform: LocalPlatform) -> None:
    env = platform.env
    await running(env, "a-1")
    await running(env, "a-2")

    await cancel_audit(env, OWNER, "a-1")

    assert await rate_limits.running_audits(env.DB, OWNER) == 1


@pytest.mark.parametrize(
    "status", [AuditStatus.COMPLETED, AuditStatus.FAILED, AuditStatus.CANCELLED]
)
async def test_only_a_running_audit_can_be_cancelled(
    platform: LocalPlatform, status: AuditStatus
) -> None:
    env = platform.env
    await running(env)
    await ended(env, "a-1", status)

    with pytest.raises(NotCancellable, match=f"only running audits can be cancelled; .* {status}"):
        await cancel_audit(env, OWNER, "a-1")

    assert (await read(env)).status is status


@pytest.mark.parametrize(("owner", "audit_id"), [("beta", "a-1"), (OWNER, "nope")])
async def test_another_owners_audit_is_not_found_like_an_unknown_one(
    platform: LocalPlatform, owner: str, audit_id: str
) -> None:
    await running(platform.env)

    with pytest.raises(AuditNotFound, match=f"^no audit with id {audit_id}$"):
        await cancel_audit(platform.env, owner, audit_id)

    assert (await read(platform.env)).status is AuditStatus.RUNNING


# -- races with the workflow's own end ---------------------------------------------------------


async def test_a_completion_that_lands_between_the_cancels_read_and_write_wins(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = platform.env
    await running(env)
    real_cancel = repository.cancel_audit

    async def completed_meanwhile(db: Any, audit_id: str, *, finished_at: str) -> bool:
        completed = await repository.complete_audit(
            db, audit_id, finished_at=finished_at, pages_crawled=2, counts={}, health_score=100.0
        )
        assert completed
        return await real_cancel(db, audit_id, finished_at=finished_at)

    monkeypatch.setattr(repository, "cancel_audit", completed_meanwhile)

    with pytest.raises(NotCancellable, match="this one is completed"):
        await cancel_audit(env, OWNER, "a-1")

    audit = await read(env)
    assert (audit.status, audit.current_phase, audit.health_score) == (
        AuditStatus.COMPLETED,
        AuditPhase.COMPLETED,
        100.0,
    )


async def test_the_workflows_completion_or_failure_after_a_cancel_changes_nothing(
    platform: LocalPlatform,
) -> None:
    env = platform.env
    await running(env)
    cancelled = await cancel_audit(env, OWNER, "a-1")

    completed = await repository.complete_audit(
        env.DB, "a-1", finished_at="2099-01-01", pages_crawled=9, counts={}, health_score=1.0
    )
    failed = await repository.fail_audit(
        env.DB,
        "a-1",
        error_code="oom",
        error_detail=None,
        failed_phase="crawling",
        finished_at="2099-01-01",
    )
    await repository.set_phase(env.DB, "a-1", AuditPhase.FINALIZING)
    await repository.update_progress(env.DB, "a-1", 9, 9)

    assert (completed, failed) == (False, False)
    assert await read(env) == cancelled


# -- resume --------------------------------------------------------------------------------------


class RefusingWorkflow:
    async def create(self, *, id: str, params: Any) -> Any:
        raise RuntimeError("Workflow binding unavailable")

    async def get(self, instance_id: str) -> Any:
        raise RuntimeError("(instance.not_found) Instance not found")


async def test_a_resume_the_binding_refuses_leaves_the_audit_cancelled(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = platform.env
    await running(env)
    await cancel_audit(env, OWNER, "a-1")
    monkeypatch.setattr(env, "SITE_AUDIT_WORKFLOW", RefusingWorkflow())

    with pytest.raises(WorkflowUnavailable):
        await resume_audit(env, OWNER, "a-1")

    audit = await read(env)
    assert (audit.status, audit.error_code, audit.resume_count) == (
        AuditStatus.CANCELLED,
        None,
        1,
    )
