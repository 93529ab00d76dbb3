"""Monitor-run retention: the daily cleanup deletes runs past `MONITOR_RUN_RETENTION_DAYS`, with
their audits and their R2 reports, so the history tables and the bucket stay a bounded size.

Settings (wrangler.toml [vars], parsed by `common.deployment.DeploymentVars`; 0 turns retention
off):
- `MONITOR_RUN_RETENTION_DAYS` (365): a run that started longer ago is deleted.
- `MONITOR_RUN_CLEANUP_MAX_RUNS` (1000): at most this many runs are looked at per cron run, so
  the cron stays short whatever the backlog; the rest go the next day.

Each batch (up to `BATCH_SIZE` runs, oldest first, a keyset range of monitor_runs_started_idx)
deletes the R2 objects first, in one bulk call, and only then the rows, in one D1 transaction.
If R2 refuses, the pass stops with the rows in place: nothing loses track of an object, and the
next day's pass deletes both. Deleting an object twice, or a missing one, succeeds, so a pass cut
short anywhere is safe to run again. Only audits named by a run are deleted; the ad-hoc audits
have their own retention (`AUDIT_RETENTION_DAYS`, maintenance.scheduled), which leaves runs'
audits alone.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace
from enum import StrEnum

from auditdb import monitors
from auditdb.listing import SortKey
from auditdb.monitors import BEFORE_ALL, ExpiredRun
from common import ports
from common.bindings import Env
from common.deployment import DeploymentVars
from common.wire import JsonRecord
from service import report_keys
from service.errors import StorageUnavailable

log = logging.getLogger("siteaudit.retention")

DAY_MS = 24 * 60 * 60 * 1000
# One D1 read, one R2 bulk delete and one D1 batch per 100 runs: ten batches at the default cap,
# far inside a cron invocation's 1,000 D1 queries (docs/scaling.md).
BATCH_SIZE = 100


class RetentionOutcome(StrEnum):
    OFF = "off"  # a setting is 0
    DONE = "done"  # no run past retention is left
    CAPPED = "capped"  # MONITOR_RUN_CLEANUP_MAX_RUNS reached; the rest go tomorrow
    STORAGE_FAILED = "storage_failed"  # R2 refused a delete; those rows stay for tomorrow


@dataclass(frozen=True, slots=True)
class RetentionSummary(JsonRecord):
    outcome: RetentionOutcome
    retention_days: int
    runs_deleted: int = 0
    audits_deleted: int = 0  # named by the deleted runs (pages and issues cascade)
    reports_deleted: int = 0  # R2 keys deleted, one per audit
    event: str = "monitor_run_retention"


async def expire_monitor_runs(env: Env) -> RetentionSummary:
    """One pass of the daily cleanup; logs its summary as one JSON line and returns it."""
    summary = await _expire(env, DeploymentVars.from_env(env))
    log.info(json.dumps(summary.to_dict(), sort_keys=True))
    return summary


async def _expire(env: Env, deployment: DeploymentVars) -> RetentionSummary:
    days, max_runs = deployment.run_retention_days, deployment.run_cleanup_max_runs
    done = RetentionSummary(RetentionOutcome.DONE, days)
    if not (days and max_runs):
        return RetentionSummary(RetentionOutcome.OFF, days)
    cutoff = ports.iso_from_ms(ports.now_ms() - days * DAY_MS)
    after, looked_at = BEFORE_ALL, 0
    while looked_at < max_runs:
        limit = min(BATCH_SIZE, max_runs - looked_at)
        batch = await monitors.read_expired_runs(env.DB, cutoff, after, limit)
        if not batch:
            return done
        try:
            done = await _delete_batch(env, after, batch, done)
        except StorageUnavailable:
            return replace(done, outcome=RetentionOutcome.STORAGE_FAILED)
        after, looked_at = _key(batch[-1]), looked_at + len(batch)
    return replace(done, outcome=RetentionOutcome.CAPPED)


async def _delete_batch(
    env: Env, after: SortKey, batch: list[ExpiredRun], so_far: RetentionSummary
) -> RetentionSummary:
    """R2 first, then the rows: a refused R2 delete raises before any row is touched."""
    reports = [(run.owner, run.audit_id) for run in batch if run.audit_id is not None]
    await report_keys.delete_reports(env, reports)
    await report_keys.delete_lighthouse_payloads(env, [audit_id for _, audit_id in reports])
    await monitors.delete_expired_range(env.DB, after, _key(batch[-1]))
    return replace(
        so_far,
        runs_deleted=so_far.runs_deleted + len(batch),
        audits_deleted=so_far.audits_deleted + len(reports),
        reports_deleted=so_far.reports_deleted + len(reports),
    )


def _key(run: ExpiredRun) -> SortKey:
    return (run.started_at, run.id)
