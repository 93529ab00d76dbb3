"""Finishing a `monitor_runs` row (migrations/d1/0007_monitors.sql) and the `alerts` row that
may come with it (0009): records and SQL. The rules are service.run_finish's.

Every statement is listed in tests/auditdb/test_run_finish_plans.py (EXPLAIN QUERY PLAN: each
seeks an index).
"""

from __future__ import annotations

from dataclasses import dataclass

from auditdb.monitors import MonitorRunRecord, MonitorRunStatus
from common.bindings import D1Database, D1PreparedStatement
from common.failures import ErrorCode
from common.wire import JsonObject, JsonRecord, as_str

RUN_OF_AUDIT_SQL = "SELECT * FROM monitor_runs WHERE audit_id = ? LIMIT 1"
GET_RUN_SQL = "SELECT * FROM monitor_runs WHERE id = ?"
# The baseline a run compares against: the monitor's latest earlier run that completed (a failed
# or cancelled audit holds a partial crawl, whose issue list is not comparable). A backward walk
# of monitor_runs_monitor_started_idx from the run's own start.
PREVIOUS_COMPLETED_SQL = (
    "SELECT * FROM monitor_runs WHERE monitor_id = ? AND started_at < ? "
    "AND status = 'completed' AND audit_id IS NOT NULL ORDER BY started_at DESC, id DESC LIMIT 1"
)
# The monitor's finished runs between two start times, oldest first: the runs since the baseline
# (the latest completed run) that failed or were cancelled, which tell whether the site was down
# (service.alerts.outage_of). A forward range of monitor_runs_monitor_started_idx.
RUNS_BETWEEN_SQL = (
    "SELECT * FROM monitor_runs WHERE monitor_id = ? AND started_at > ? AND started_at < ? "
    "AND status != 'running' ORDER BY started_at, id LIMIT ?"
)
# Guarded like every terminal write of an audit: the first finisher wins, a second changes nothing.
FINISH_SQL = (
    "UPDATE monitor_runs SET status = ?, finished_at = ?, error_detail = ?, health_score = ?, "
    "grade = ?, critical_count = ?, warning_count = ?, info_count = ?, new_issues = ?, "
    "fixed_issues = ?, security_score = ?, error_code = ? WHERE id = ? AND status = 'running'"
)
REPORT_SQL = "UPDATE monitor_runs SET r2_key = ?, report_bytes = ? WHERE id = ?"
# Inserted in the finishing batch; only for a finished run, once per run whatever repeats.
INSERT_ALERT_SQL = (
    "INSERT INTO alerts (run_id, monitor_id, delivery_id, payload, created_at) "
    "SELECT ?, ?, ?, ?, ? WHERE EXISTS "
    "(SELECT 1 FROM monitor_runs WHERE id = ? AND status != 'running') "
    "ON CONFLICT (run_id) DO NOTHING"
)
# The watchdog's backstop: runs still running whose audit ended (a lost `audit_ended` message) or
# is gone (deleted by its owner: a run's audit row is inserted before the run's, so a missing row
# was deleted). Walks only monitor_runs_running_idx (running runs), probing each audit by its
# primary key.
UNFINISHED_SQL = (
    "SELECT monitor_runs.audit_id AS audit_id FROM monitor_runs "
    "LEFT JOIN audits ON audits.id = monitor_runs.audit_id "
    "WHERE monitor_runs.status = 'running' AND monitor_runs.audit_id IS NOT NULL "
    "AND (audits.id IS NULL OR audits.status != 'running') LIMIT ?"
)


@dataclass(frozen=True, slots=True)
class RunFinish(JsonRecord):
    """What finishing writes to the run's row."""

    status: MonitorRunStatus
    finished_at: str
    error_detail: str | None
    health_score: float | None
    critical_count: int | None
    warning_count: int | None
    info_count: int | None
    new_issues: int | None
    fixed_issues: int | None
    grade: str | None = None  # the audit's security grade (None: not graded)
    security_score: int | None = None
    error_code: ErrorCode | None = None  # a failed audit's (migration 0018)


@dataclass(frozen=True, slots=True)
class NewAlert(JsonRecord):
    """The `alerts` row a finished run creates."""

    run_id: str
    monitor_id: str
    delivery_id: str
    payload: str  # the JSON body, exactly as it will be sent and signed
    created_at: str


def _run(row: JsonObject | None) -> MonitorRunRecord | None:
    return None if row is None else MonitorRunRecord.from_dict(row)


async def run_of_audit(db: D1Database, audit_id: str) -> MonitorRunRecord | None:
    """The monitor run an audit serves (None: the audit is no monitor's run)."""
    return _run(await db.prepare(RUN_OF_AUDIT_SQL).bind(audit_id).first())


async def get_run(db: D1Database, run_id: str) -> MonitorRunRecord | None:
    return _run(await db.prepare(GET_RUN_SQL).bind(run_id).first())


async def previous_completed(db: D1Database, run: MonitorRunRecord) -> MonitorRunRecord | None:
    statement = db.prepare(PREVIOUS_COMPLETED_SQL).bind(run.monitor_id, run.started_at)
    return _run(await statement.first())


async def runs_between(
    db: D1Database, monitor_id: str, after: str, before: str, limit: int
) -> list[MonitorRunRecord]:
    """The monitor's finished runs that started after `after` and before `before`, oldest first,
    at most `limit`."""
    statement = db.prepare(RUNS_BETWEEN_SQL).bind(monitor_id, after, before, limit)
    result = await statement.all()
    return [MonitorRunRecord.from_dict(row) for row in result["results"]]


def _finish_statement(db: D1Database, run_id: str, finish: RunFinish) -> D1PreparedStatement:
    return db.prepare(FINISH_SQL).bind(
        str(finish.status),
        finish.finished_at,
        finish.error_detail,
        finish.health_score,
        finish.grade,
        finish.critical_count,
        finish.warning_count,
        finish.info_count,
        finish.new_issues,
        finish.fixed_issues,
        finish.security_score,
        None if finish.error_code is None else str(finish.error_code),
        run_id,
    )


async def finish_run(
    db: D1Database, run_id: str, finish: RunFinish, alert: NewAlert | None
) -> bool:
    """Finish a running run and record its alert, both or neither (one batch); False when the
    run was already finished (another finisher won; its alert, if any, is the one that stays)."""
    statements = [_finish_statement(db, run_id, finish)]
    if alert is not None:
        statements.append(
            db.prepare(INSERT_ALERT_SQL).bind(
                alert.run_id,
                alert.monitor_id,
                alert.delivery_id,
                alert.payload,
                alert.created_at,
                alert.run_id,
            )
        )
    results = await db.batch(statements)
    return bool(results[0]["meta"].get("changes", 0))


async def record_report(db: D1Database, run_id: str, key: str, size: int) -> None:
    await db.prepare(REPORT_SQL).bind(key, size, run_id).run()


async def unfinished_audits(db: D1Database, limit: int) -> list[str]:
    """Audits that ended while their monitor run still says running."""
    result = await db.prepare(UNFINISHED_SQL).bind(limit).all()
    return [as_str(row["audit_id"]) for row in result["results"]]
