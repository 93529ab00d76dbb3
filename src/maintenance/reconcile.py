"""Carrying out the watchdog's decisions: probe instances, fail audits, log the transition."""

from __future__ import annotations

import logging

from auditdb import repository, run_finish
from auditdb.queue_messages import announce_audit_end
from auditdb.records import AuditRecord
from common import ports
from common.bindings import Env
from common.events import TerminalStatus, log_terminal
from maintenance.watchdog import (
    STALE_RUNNING_AFTER_MS,
    WATCHDOG_BATCH_LIMIT,
    Decision,
    InstanceProbe,
    Verdict,
    decide,
)

log = logging.getLogger("siteaudit.watchdog")


async def probe_instance(env: Env, instance_id: str) -> InstanceProbe:
    try:
        instance = await env.SITE_AUDIT_WORKFLOW.get(instance_id)
        status = await instance.status()
    except Exception as exc:  # JsException in production; only its text matters
        return InstanceProbe(lookup_error=str(exc) or type(exc).__name__)
    error = status.get("error") or {}
    message = error.get("message") if isinstance(error, dict) else str(error)
    return InstanceProbe(status=status.get("status"), error_message=message)


async def reconcile_audit(env: Env, audit: AuditRecord, reconciled_by: str) -> Decision:
    """Reconcile one running audit with its instance; returns what was decided."""
    probe = await probe_instance(env, audit.workflow_instance_id or audit.id)
    decision = decide(audit, probe, ports.now_ms())
    if decision.verdict is Verdict.FAIL and decision.error_code is not None:
        changed = await repository.fail_audit(
            env.DB,
            audit.id,
            error_code=str(decision.error_code),
            error_detail=decision.error_detail,
            failed_phase=None if audit.current_phase is None else str(audit.current_phase),
            finished_at=ports.iso_now(),
        )
        if changed:
            log_terminal(
                audit.id,
                TerminalStatus.FAILED,
                error_code=decision.error_code,
                failed_phase=None if audit.current_phase is None else str(audit.current_phase),
                pages=audit.pages_crawled,
                reconciled_by=reconciled_by,
            )
            await announce_audit_end(env, audit.id)  # its monitor run, if any, is finished
    return decision


async def announce_unfinished_runs(env: Env) -> int:
    """The backstop of `announce_audit_end`: monitor runs still `running` whose audit has ended
    or is gone (the announcement was lost: D1 or the queue refused it, or the process died right
    after the terminal write or the delete) are announced again; finishing is idempotent, so a
    repeat costs nothing."""
    announced = 0
    for audit_id in await run_finish.unfinished_audits(env.DB, WATCHDOG_BATCH_LIMIT):
        announced += await announce_audit_end(env, audit_id)
    return announced


async def sweep_stale_audits(env: Env) -> dict[str, int]:
    """The */15 watchdog: reconcile long-running audits; one failure never stops the sweep."""
    cutoff = ports.iso_from_ms(ports.now_ms() - STALE_RUNNING_AFTER_MS)
    audits = await repository.list_running_before(env.DB, cutoff, WATCHDOG_BATCH_LIMIT)
    summary = {"checked": 0, "failed": 0, "errors": 0}
    for audit in audits:
        summary["checked"] += 1
        try:
            decision = await reconcile_audit(env, audit, "watchdog")
        except Exception:
            summary["errors"] += 1
            log.exception("watchdog could not reconcile audit %s", audit.id)
            continue
        summary["failed"] += decision.verdict is Verdict.FAIL
    return summary
