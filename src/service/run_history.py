"""What a monitor's history says about one of its audits: the runs up to it, and what changed
since the run before (for the HTML report of an audit that is a monitor's run).

`run_history(env, audit)` is None for an audit no monitor ran (or whose monitor belongs to another
owner, which cannot happen through the API but is checked, not assumed). Otherwise it holds:
* `runs`: the monitor's runs up to and including this audit's, oldest first, at most `limit`:
  one backward keyset page of monitor_runs (auditdb.monitors.read_runs_page) from this run, so
  the cost is the page whatever the monitor's age. This run's own scores come from the audit,
  since the report may be written before the run's row is finished.
* `comparison`: from the baseline to this audit, by service.compare (the issue identity of
  auditdb.compare), lists capped at `listed`. The baseline is the one a finished run compares
  with (service.run_finish): the monitor's latest earlier completed run. None, with the reason
  in `not_compared`, when there is no such run, its audit was deleted, or this audit did not
  complete (a partial crawl's issue list is not comparable).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from auditdb import monitors, run_finish
from auditdb.monitors import MonitorRecord, MonitorRunRecord
from auditdb.records import AuditRecord, AuditStatus
from common.bindings import Env
from service.compare import AuditComparison, compare_audits
from service.errors import AuditNotFound

HISTORY_RUNS = 30  # runs charted: a month of a daily monitor, seven months of a weekly one
CHANGES_LISTED = 20  # new and fixed issues listed each; the rest are counted


class NotCompared(StrEnum):
    FIRST = "this is the monitor's first completed run: there is nothing to compare with yet"
    INCOMPLETE = "this run's audit did not complete, and a partial crawl is not compared"
    BASELINE_DELETED = "the previous completed run's audit was deleted"


@dataclass(frozen=True, slots=True)
class RunHistory:
    monitor: MonitorRecord
    runs: list[MonitorRunRecord]  # oldest first; the last is this audit's run
    baseline: MonitorRunRecord | None
    comparison: AuditComparison | None
    not_compared: NotCompared | None


async def run_history(
    env: Env, audit: AuditRecord, limit: int = HISTORY_RUNS, listed: int = CHANGES_LISTED
) -> RunHistory | None:
    run = await run_finish.run_of_audit(env.DB, audit.id)
    if run is None:
        return None
    monitor = await monitors.get_owned_monitor(env.DB, audit.owner, run.monitor_id)
    if monitor is None:
        return None
    earlier = await monitors.read_runs_page(
        env.DB, run.monitor_id, (run.started_at, run.id), limit - 1
    )
    runs = [r for _, r in reversed(earlier)] + [_with_audit_scores(run, audit)]
    baseline = await run_finish.previous_completed(env.DB, run)
    comparison, reason = await _compare(env, audit, baseline, listed)
    return RunHistory(monitor, runs, baseline, comparison, reason)


def _with_audit_scores(run: MonitorRunRecord, audit: AuditRecord) -> MonitorRunRecord:
    return replace(
        run,
        health_score=audit.health_score,
        grade=audit.security_grade,
        security_score=audit.security_score,
    )


async def _compare(
    env: Env, audit: AuditRecord, baseline: MonitorRunRecord | None, listed: int
) -> tuple[AuditComparison | None, NotCompared | None]:
    if audit.status is not AuditStatus.COMPLETED:
        return None, NotCompared.INCOMPLETE
    if baseline is None or baseline.audit_id is None:
        return None, NotCompared.FIRST
    try:
        return await compare_audits(env, audit.owner, baseline.audit_id, audit.id, listed), None
    except AuditNotFound:
        return None, NotCompared.BASELINE_DELETED
