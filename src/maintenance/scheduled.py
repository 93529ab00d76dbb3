"""The cron entry point: which job each trigger of wrangler.toml runs. Never raises."""

from __future__ import annotations

import logging

from auditdb import lighthouse, rate_limits, repository
from common import ports
from common.bindings import Env
from common.deployment import DeploymentVars
from common.wire import JsonObject
from maintenance.monitor_producer import MONITOR_CRON, enqueue_due_monitors
from maintenance.reconcile import announce_unfinished_runs, sweep_stale_audits
from maintenance.reseal import reseal_while_rotating

log = logging.getLogger("siteaudit.scheduled")

WATCHDOG_CRON = "*/15 * * * *"
CLEANUP_CRON = "17 3 * * *"
CLEANUP_BATCH_LIMIT = 500
_DAY_MS = 24 * 60 * 60 * 1000


async def run_scheduled(cron: str, env: Env) -> JsonObject:
    try:
        if cron == MONITOR_CRON:
            return {"monitors": (await enqueue_due_monitors(env)).to_dict()}
        if cron == CLEANUP_CRON:
            return {
                "cleanup": await delete_expired_audits(env),
                "rate_limit_windows_deleted": await delete_expired_windows(env),
                # A key rotation's re-sealing, while CREDENTIALS_KEY_PREVIOUS is set.
                "credentials": (await reseal_while_rotating(env)).to_dict(),
            }
        # The watchdog runs on its own trigger and, defensively, on any unknown one.
        return {
            "watchdog": await sweep_stale_audits(env),
            "runs_announced": await announce_unfinished_runs(env),
        }
    except Exception as exc:
        log.exception("scheduled job for %r failed", cron)
        return {"error": str(exc)}


async def delete_expired_audits(env: Env) -> dict[str, int]:
    days = DeploymentVars.from_env(env).audit_retention_days
    cutoff = ports.iso_from_ms(ports.now_ms() - days * _DAY_MS)
    # Their Lighthouse payloads first: if R2 refuses, the audits stay (their rows name the
    # objects) and tomorrow's run tries again, so no object is orphaned.
    keys = await lighthouse.expired_payload_keys(env.DB, cutoff, CLEANUP_BATCH_LIMIT)
    try:
        await lighthouse.delete_payloads(env.REPORTS, keys)
    except Exception as exc:  # JsException from the binding
        log.warning("cleanup: Lighthouse payloads not deleted, audits kept: %s", exc)
        return {"deleted": 0, "retention_days": days, "storage_failed": 1}
    deleted = await repository.delete_finished_before(env.DB, cutoff, CLEANUP_BATCH_LIMIT)
    return {"deleted": deleted, "retention_days": days}


async def delete_expired_windows(env: Env) -> int:
    """Rate-limit windows that have ended; without this the table (and every rate-limit upsert
    on it) grows with traffic forever. Batched, until none are left."""
    deleted = 0
    while batch := await rate_limits.delete_expired(
        env.DB, int(ports.now_ms()), CLEANUP_BATCH_LIMIT
    ):
        deleted += batch
    return deleted
