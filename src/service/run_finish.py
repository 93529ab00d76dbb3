"""Finishing a monitor run when its audit ends: the D1 row, the full report, the alert.

Theory of operation. Every terminal transition of an audit (the workflow's completion in
finalize, its failure path, the watchdog failing a lost instance, the owner's cancel) calls
`auditdb.queue_messages.announce_audit_end` after its guarded write, and that sends an
`audit_ended` message when a running monitor run references the audit. The queue consumer
(service.monitor_runs) calls `finish_run_for_audit` for it; so does the consumer itself when it
records a run whose audit already ended (a consumer that died after starting the audit and was
redelivered late, or an audit faster than the insert). The function is idempotent: run it any
number of times, in any order with the others, and the run is finished once.

    1. the row     one D1 batch: a guarded UPDATE (`WHERE status = 'running'`) writes the status,
                   health score, counts by severity and the new/fixed issue counts, and, when the
                   run alerts, inserts its `alerts` row (keyed by the run: one alert per run).
    2. the report  the full report (service.reports.store_report) goes to R2 after the row; a put
                   R2 refuses is logged and leaves `r2_key` NULL: the run is finished all the same
                   and readers rebuild the report from D1. A later call finds the row finished
                   without a report and tries the put again.
    3. the alert   a pending alert that no attempt has taken yet is put on the queue (`alert`);
                   service.alert_delivery posts it.

Comparison. A run compares with the monitor's latest earlier *completed* run (a failed or
cancelled audit holds a partial crawl, or none: a site that was down has no issues to have
"fixed"). `new_issues` and `fixed_issues` stay NULL for a run that did not complete and for a
run with nothing to compare against (a monitor's first run, or a baseline whose audit was
deleted): NULL says "not compared", where 0 would claim "nothing changed". So the first completed
run after an outage compares with the last completed run before it.
`grade` and `security_score` copy the audit's security grade (NULL when it was not graded); a
lower letter than the baseline's alerts when the monitor has `alert_on_grade_drop`.

Alerts (service.alerts.decide; docs/alerts.md). A failed run records its audit's `error_code`
(migration 0018) and alerts once: `site_unreachable` when the site failed (ErrorCode.
is_site_failure), `audit_failed` when we did. The first completed run after runs the site failed
posts `site_recovered`, decided from those rows (the monitor's finished runs since its last
completed one, `auditdb.run_finish.runs_between`), beside any reason of its comparison, in the
same one alert of the run. Every decision is made inside the finishing: only the call whose
guarded UPDATE wins writes its alert row, and the row is keyed by the run, so repeated finishes
and duplicate `audit_ended` deliveries make one alert. A cancelled run never alerts.

A run whose audit was deleted before it ended (the owner's doing; `service.audits.delete_audit`
announces it, and the watchdog's backstop finds runs whose audit row is gone) is finished as
failed, with nothing to count, no error code and no alert.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from enum import StrEnum

from auditdb import alerts as alert_table
from auditdb import monitors, queue_messages, repository, run_finish, summary
from auditdb.alerts import AlertStatus
from auditdb.monitors import MonitorRecord, MonitorRunRecord, MonitorRunStatus
from auditdb.queue_messages import AlertDue
from auditdb.records import AuditRecord, AuditStatus
from auditdb.run_finish import NewAlert, RunFinish
from common import ports
from common.bindings import Env
from common.failures import ErrorCode
from common.wire import JsonRecord
from service import alerts, reports
from service.alerts import AlertPayload, AlertThresholds, EndedRun, RunFailure, RunScore
from service.compare import AuditComparison, compare_audits
from service.errors import AuditNotFound
from service.run_reasons import failure_sentence

log = logging.getLogger("siteaudit.monitors")

AUDIT_DELETED = "The run's audit was deleted before it ended."
# The failed runs an outage is counted over: more than a year of a daily monitor's runs (runs
# are kept MONITOR_RUN_RETENTION_DAYS, 365 by default), so the count is exact in practice.
MAX_OUTAGE_RUNS = 1000


class FinishOutcome(StrEnum):
    FINISHED = "finished"  # this call finished the run
    ALREADY = "already"  # an earlier call had (what was left undone, it did again)
    NOT_ENDED = "not_ended"  # the audit still runs: nothing to do yet
    NO_RUN = "no_run"  # the audit is no monitor's run


@dataclass(frozen=True, slots=True)
class FinishResult(JsonRecord):
    audit_id: str
    outcome: FinishOutcome
    run_id: str | None = None
    alerted: bool = False  # the run has an alert (sent to the queue by this call or an earlier)


async def finish_run_for_audit(env: Env, audit_id: str) -> FinishResult:
    """Finish the monitor run `audit_id` serves, if it ended (see the module docstring)."""
    run = await run_finish.run_of_audit(env.DB, audit_id)
    if run is None:
        return FinishResult(audit_id, FinishOutcome.NO_RUN)
    audit = await repository.get_audit(env.DB, audit_id)
    outcome = FinishOutcome.ALREADY
    if run.status is MonitorRunStatus.RUNNING:
        if repository.is_running(audit):
            return FinishResult(audit_id, FinishOutcome.NOT_ENDED, run.id)
        if await _finish(env, run, audit):
            outcome = FinishOutcome.FINISHED
        run = await run_finish.get_run(env.DB, run.id) or run
    if audit is not None and run.r2_key is None:
        await _store_report(env, run, audit)
    alerted = await _queue_alert(env, run.id)
    return FinishResult(audit_id, outcome, run.id, alerted)


async def _finish(env: Env, run: MonitorRunRecord, audit: AuditRecord | None) -> bool:
    now = ports.iso_now()
    if audit is None:  # deleted by its owner: failed, with nothing to count and no alert
        finish = RunFinish(MonitorRunStatus.FAILED, now, AUDIT_DELETED, *[None] * 6)
        return await run_finish.finish_run(env.DB, run.id, finish, None)
    previous = await run_finish.previous_completed(env.DB, run)
    comparison = await _comparison(env, previous, audit)
    counts = (await summary.issue_counts(env.DB, audit.id)).by_severity
    finish = RunFinish(
        status=MonitorRunStatus(str(audit.status)),
        finished_at=audit.finished_at or now,
        error_detail=audit.error_detail,
        health_score=audit.health_score,
        critical_count=counts["critical"],
        warning_count=counts["warning"],
        info_count=counts["info"],
        new_issues=None if comparison is None else comparison.new_issues.total,
        fixed_issues=None if comparison is None else comparison.fixed_issues.total,
        grade=audit.security_grade,
        security_score=audit.security_score,
        error_code=_error_code(audit),
    )
    alert = await _alert(env, run, audit, finish, previous, comparison, now)
    return await run_finish.finish_run(env.DB, run.id, finish, alert)


def _error_code(audit: AuditRecord) -> ErrorCode | None:
    if audit.status is not AuditStatus.FAILED:
        return None
    try:
        return ErrorCode(audit.error_code or ErrorCode.UNKNOWN)
    except ValueError:  # a code this version does not know: not the site's, as far as we can tell
        return ErrorCode.UNKNOWN


async def _comparison(
    env: Env, previous: MonitorRunRecord | None, audit: AuditRecord
) -> AuditComparison | None:
    if previous is None or previous.audit_id is None or audit.status is not AuditStatus.COMPLETED:
        return None
    try:
        return await compare_audits(
            env, audit.owner, previous.audit_id, audit.id, alerts.MAX_LISTED_ISSUES
        )
    except AuditNotFound:  # the owner deleted the baseline's audit
        return None


async def _alert(
    env: Env,
    run: MonitorRunRecord,
    audit: AuditRecord,
    finish: RunFinish,
    previous: MonitorRunRecord | None,
    comparison: AuditComparison | None,
    now: str,
) -> NewAlert | None:
    monitor = await monitors.get_monitor(env.DB, run.monitor_id)
    if monitor is None or monitor.webhook_url is None:
        return None  # nowhere to send it: no alert row
    ending = EndedRun(finish.status, finish.finished_at, finish.error_code)
    earlier = await _earlier_runs(env, run, previous)
    before = None if previous is None else _score(previous)
    after = RunScore(run.id, audit.id, audit.health_score, grade=audit.security_grade)
    if comparison is not None:
        after = replace(after, new_critical_issues=alerts.count_new_critical(comparison))
    compared = after if comparison is not None else None
    decision = alerts.decide(ending, earlier, before, compared, thresholds(monitor))
    if not decision.reasons:
        return None
    payload = alerts.alert_payload(
        monitor.id,
        audit.start_url,
        before,
        after,
        decision,
        comparison,
        failure=_failure(audit, finish),
        finished_at=finish.finished_at,
    )
    return _new_alert(payload, now)


async def _earlier_runs(
    env: Env, run: MonitorRunRecord, previous: MonitorRunRecord | None
) -> list[EndedRun]:
    """The monitor's finished runs since its last completed run (`previous`), oldest first:
    whether the site was down before this run, and since when."""
    after = "" if previous is None else previous.started_at
    rows = await run_finish.runs_between(
        env.DB, run.monitor_id, after, run.started_at, MAX_OUTAGE_RUNS
    )
    return [EndedRun(r.status, r.finished_at or r.started_at, r.error_code) for r in rows]


def _score(run: MonitorRunRecord) -> RunScore:
    return RunScore(run.id, run.audit_id or "", run.health_score, grade=run.grade)


def _failure(audit: AuditRecord, finish: RunFinish) -> RunFailure | None:
    if finish.error_code is None:
        return None
    detail = failure_sentence(finish.error_code, audit.error_detail)
    return RunFailure(finish.error_code, detail, audit.start_url, finish.finished_at)


def thresholds(monitor: MonitorRecord) -> AlertThresholds:
    """A monitor's alert settings as the decision reads them: `alert_score_drop` 0 turns the
    score alert off (the API accepts 0 to 100; a drop of "at least 0" would fire on every run
    that did not improve)."""
    drop = monitor.alert_score_drop if monitor.alert_score_drop > 0 else None
    return AlertThresholds(
        score_drop=drop,
        new_critical_issues=monitor.alert_on_new_critical,
        grade_drop=monitor.alert_on_grade_drop,
    )


def _new_alert(payload: AlertPayload, now: str) -> NewAlert:
    body = payload.body().decode("utf-8")
    return NewAlert(payload.run_id, payload.monitor_id, payload.delivery_id, body, now)


async def _store_report(env: Env, run: MonitorRunRecord, audit: AuditRecord) -> None:
    stored = await reports.store_report(env, audit)
    if stored is None:  # logged by store_report; the row stays without a report
        return
    await run_finish.record_report(env.DB, run.id, stored.key, stored.size)


async def _queue_alert(env: Env, run_id: str) -> bool:
    """Put the run's alert on the queue unless an attempt has taken it already; True when the
    run has an alert at all."""
    alert = await alert_table.get_alert(env.DB, run_id)
    if alert is None:
        return False
    if alert.status is AlertStatus.PENDING and alert.attempts == 0:
        await queue_messages.send(env.MONITOR_QUEUE, AlertDue(run_id))
    return True
