"""`AuditRun`: what every phase of the workflow receives, and its one answer to "is the audit
still running?" (`auditdb.repository.is_running`), asked by the crawl chunks, the external-link
steps and the Lighthouse phase."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from auditdb import repository
from auditdb.records import AuditRecord, AuditStatus
from workflow.audit_run import AuditRun
from workflow.params import AuditParams

START = "https://a.test/"


class Stop(Exception):
    pass


@pytest.mark.parametrize(
    ("status", "running", "refusal"),
    [
        (AuditStatus.RUNNING, True, None),
        (AuditStatus.COMPLETED, False, "audit a1 is completed, not running"),
        (AuditStatus.FAILED, False, "audit a1 is failed, not running"),
        (AuditStatus.CANCELLED, False, "audit a1 is cancelled, not running"),
        (None, False, "audit a1 does not exist"),  # deleted by its owner
    ],
)
async def test_still_running_and_require_running_give_one_answer(
    platform: Any, status: AuditStatus | None, running: bool, refusal: str | None
) -> None:
    record = AuditRecord("a1", START, "2026-01-01T00:00:00.000Z")
    if status is not None:
        await repository.insert_audit(platform.env.DB, dataclasses.replace(record, status=status))
    run = AuditRun(AuditParams("a1", START), step=None, env=platform.env, non_retryable=Stop)  # type: ignore[arg-type]

    assert await run.still_running() is running
    assert repository.is_running(await repository.get_audit(platform.env.DB, "a1")) is running
    if refusal is None:
        await run.require_running()
    else:
        with pytest.raises(Stop) as caught:
            await run.require_running()
        assert str(caught.value) == refusal
