"""The `monitors` and `monitor_runs` tables (migrations/d1/0007_monitors.sql): records and SQL.

A monitor row never leaves this module with its webhook secret: `MonitorRecord` has no such
field, the secret is written once by `insert_monitor` (or replaced by `update_monitor`) and read
only through `webhook_secret`, for signing. Its sealed credentials (migration 0024) likewise:
the record holds their redacted view, and `credentials_sealed` reads them for a run's audit.
Every statement is listed in `STATEMENTS` for the EXPLAIN QUERY PLAN test
(tests/auditdb/test_monitor_plans.py): each one seeks an index.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Self

from auditdb.frequency import Frequency
from auditdb.listing import SortKey, Statement
from auditdb.scope import ScopeOptions
from common.bindings import D1Database
from common.failures import ErrorCode
from common.settings import EXTERNAL
from common.wire import JsonRecord, as_int, as_str
from lighthouse.records import LighthouseMode
from render.records import RenderMode
from urls.credentials import RedactedCredentials


class MonitorRunStatus(StrEnum):
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class MonitorRecord(JsonRecord):
    """One row of `monitors`, without its webhook secret."""

    id: str
    owner: str
    url: str
    frequency: Frequency
    hour: int
    max_pages: int
    next_due_at: str
    created_at: str
    max_depth: int | None = None
    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    webhook_url: str | None = None
    alert_score_drop: float = 5.0
    alert_on_grade_drop: bool = True
    alert_on_new_critical: bool = True
    is_active: bool = True
    last_run_at: str | None = None
    lock_until: str | None = None
    lighthouse: LighthouseMode = LighthouseMode.AUTO  # each run's audit option (migration 0013)
    check_external: bool = False  # each run's audit option (migration 0014)
    # `url` was given without a scheme: each run's audit tries https, then http (migration 0017)
    scheme_assumed: bool = False
    external_budget_s: float = EXTERNAL.default_budget_s  # each run's audit option (0019)
    # -- each run's scope and speed options, list mode (issue 28; auditdb.scope; 0022) --
    scope: ScopeOptions = field(default_factory=ScopeOptions)
    render: RenderMode = RenderMode.AUTO  # each run's audit option (issue 30; 0026)
    # Each run's audit ignores robots.txt (0023): set only for a verified host; written by
    # `set_ignore_robots`, a statement of its own.
    ignore_robots: bool = False
    # -- credentials (issue 28): each run's audit's, as views show them (0024)
    credentials: RedactedCredentials | None = None

    @classmethod
    def from_row(cls, row: Mapping[str, object]) -> Self:
        data = dict(row)
        data["include"] = json.loads(as_str(data.pop("include_json", "[]")))
        data["exclude"] = json.loads(as_str(data.pop("exclude_json", "[]")))
        data["scope"] = json.loads(as_str(data.pop("scope_json", None) or "{}"))
        data.pop("credentials_sealed", None)  # read only by `credentials_sealed`
        shown = data.pop("credentials_json", None)
        data["credentials"] = None if shown is None else json.loads(as_str(shown))
        return cls.from_dict(data)


@dataclass(frozen=True, slots=True)
class MonitorRunRecord(JsonRecord):
    """One row of `monitor_runs`: inserted `running` when the run's audit starts; the fields
    after `error_detail` are written when the run finishes."""

    id: str
    monitor_id: str
    due_at: str  # the slot served; UNIQUE (monitor_id, due_at)
    started_at: str
    status: MonitorRunStatus = MonitorRunStatus.RUNNING
    audit_id: str | None = None  # None: the audit could not be started (error_detail says why)
    finished_at: str | None = None
    error_detail: str | None = None
    health_score: float | None = None
    grade: str | None = None  # the audit's security grade (letter); its score below
    critical_count: int | None = None
    warning_count: int | None = None
    info_count: int | None = None
    new_issues: int | None = None
    fixed_issues: int | None = None
    r2_key: str | None = None
    report_bytes: int | None = None
    security_score: int | None = None  # migration 0011
    # The failed audit's code (migration 0018): the site's side or ours (ErrorCode.is_site_failure)
    error_code: ErrorCode | None = None


@dataclass(frozen=True, slots=True)
class RecencyCutoffs:
    """Per frequency, the latest `last_run_at` that still lets a monitor run again."""

    daily: str
    weekly: str
    monthly: str


# -- monitors: owner-scoped reads and writes -----------------------------------------------------

_INSERT = (
    "INSERT INTO monitors (id, owner, url, frequency, hour, max_pages, max_depth, include_json, "
    "exclude_json, webhook_url, lighthouse, check_external, scheme_assumed, external_budget_s, "
    "scope_json, render, webhook_secret, alert_score_drop, alert_on_grade_drop, "
    "alert_on_new_critical, is_active, next_due_at, created_at, credentials_sealed, "
    f"credentials_json) VALUES ({', '.join('?' * 25)})"
)
GET_OWNED_SQL = "SELECT * FROM monitors WHERE id = ? AND owner = ?"
GET_SQL = "SELECT * FROM monitors WHERE id = ?"
SECRET_SQL = "SELECT webhook_secret FROM monitors WHERE id = ?"
SEALED_SQL = "SELECT credentials_sealed FROM monitors WHERE id = ?"
# Credentials change only when a caller sends them (or removes them): a statement of their own,
# in the same batch as the settings.
SET_CREDENTIALS_SQL = (
    "UPDATE monitors SET credentials_sealed = ?, credentials_json = ? WHERE id = ? AND owner = ?"
)
COUNT_OWNED_SQL = "SELECT COUNT(*) AS n FROM monitors WHERE owner = ?"
DELETE_OWNED_SQL = "DELETE FROM monitors WHERE id = ? AND owner = ?"
# Settings only: the schedule's bookkeeping (last_run_at, lock_until) belongs to the consumer.
UPDATE_OWNED_SQL = (
    "UPDATE monitors SET url = ?, frequency = ?, hour = ?, max_pages = ?, max_depth = ?, "
    "include_json = ?, exclude_json = ?, webhook_url = ?, lighthouse = ?, check_external = ?, "
    "scheme_assumed = ?, external_budget_s = ?, scope_json = ?, render = ?, "
    "webhook_secret = COALESCE(?, webhook_secret), "
    "alert_score_drop = ?, alert_on_grade_drop = ?, alert_on_new_critical = ?, is_active = ?, "
    "next_due_at = ? "
    "WHERE id = ? AND owner = ?"
)


def _settings(monitor: MonitorRecord) -> list[str | int | float | None]:
    return [
        monitor.url,
        str(monitor.frequency),
        monitor.hour,
        monitor.max_pages,
        monitor.max_depth,
        json.dumps(monitor.include),
        json.dumps(monitor.exclude),
        monitor.webhook_url,
        str(monitor.lighthouse),
        int(monitor.check_external),
        int(monitor.scheme_assumed),
        monitor.external_budget_s,
        json.dumps(monitor.scope.to_dict()),
        str(monitor.render),
    ]


def _alerts(monitor: MonitorRecord) -> list[str | int | float | None]:
    return [
        monitor.alert_score_drop,
        int(monitor.alert_on_grade_drop),
        int(monitor.alert_on_new_critical),
        int(monitor.is_active),
        monitor.next_due_at,
    ]


async def insert_monitor(
    db: D1Database, monitor: MonitorRecord, secret: str, sealed: str | None = None
) -> None:
    """Insert the monitor with its webhook secret and its credentials, `sealed` (whose view is
    `monitor.credentials`)."""
    values = [monitor.id, monitor.owner, *_settings(monitor), secret, *_alerts(monitor)]
    shown = _shown(monitor)
    await db.prepare(_INSERT).bind(*values, monitor.created_at, sealed, shown).run()


def _shown(monitor: MonitorRecord) -> str | None:
    view = monitor.credentials
    return None if view is None else json.dumps(view.to_dict(), sort_keys=True)


async def credentials_sealed(db: D1Database, monitor_id: str) -> str | None:
    """The monitor's sealed credentials, for each run's audit (never rendered by the API)."""
    row = await db.prepare(SEALED_SQL).bind(monitor_id).first()
    value = None if row is None else row.get("credentials_sealed")
    return None if value is None else as_str(value)


async def get_owned_monitor(db: D1Database, owner: str, monitor_id: str) -> MonitorRecord | None:
    """The monitor if `owner` owns it: another owner's id and an unknown one read alike."""
    row = await db.prepare(GET_OWNED_SQL).bind(monitor_id, owner).first()
    return None if row is None else MonitorRecord.from_row(row)


async def get_monitor(db: D1Database, monitor_id: str) -> MonitorRecord | None:
    row = await db.prepare(GET_SQL).bind(monitor_id).first()
    return None if row is None else MonitorRecord.from_row(row)


async def webhook_secret(db: D1Database, monitor_id: str) -> str | None:
    """The monitor's signing secret (for alert signatures; never rendered by the API)."""
    row = await db.prepare(SECRET_SQL).bind(monitor_id).first()
    return None if row is None else as_str(row["webhook_secret"])


async def count_owned(db: D1Database, owner: str) -> int:
    row = await db.prepare(COUNT_OWNED_SQL).bind(owner).first()
    return 0 if row is None else as_int(row["n"])


@dataclass(frozen=True, slots=True)
class NewCredentials:
    """Credentials a monitor's update replaces: `sealed` (None: removed), whose view is the
    updated record's `credentials`."""

    sealed: str | None


async def update_monitor(
    db: D1Database,
    monitor: MonitorRecord,
    new_secret: str | None,
    new_credentials: NewCredentials | None = None,
) -> bool:
    """Write the monitor's settings (and a new secret, new credentials, when given; both in the
    same batch, so all land or none); False if it is gone."""
    values = [*_settings(monitor), new_secret, *_alerts(monitor), monitor.id, monitor.owner]
    settings = db.prepare(UPDATE_OWNED_SQL).bind(*values)
    if new_credentials is None:
        result = await settings.run()
        return bool(result["meta"].get("changes", 0))
    sealed = new_credentials.sealed
    change = db.prepare(SET_CREDENTIALS_SQL).bind(
        sealed, _shown(monitor), monitor.id, monitor.owner
    )
    results = await db.batch([settings, change])
    return bool(results[0]["meta"].get("changes", 0))


async def delete_monitor(db: D1Database, owner: str, monitor_id: str) -> bool:
    """Delete the monitor and (by cascade) its runs; False if the owner has no such monitor."""
    result = await db.prepare(DELETE_OWNED_SQL).bind(monitor_id, owner).run()
    return bool(result["meta"].get("changes", 0))


def _newest_first(
    table: str, column: str, value: str, sort: str, after: SortKey | None, limit: int
) -> Statement:
    """`table`'s rows with `column = value`, newest first on (`sort`, id), after a cursor: a
    backward range of an index on (column, sort, id), so a page costs its own rows."""
    terms, params = [f"{column} = ?"], [value]
    if after is not None:
        terms.append(f"({sort}, id) < (?, ?)")
        params.extend(str(part) for part in after)
    where = " AND ".join(terms)
    sql = f"SELECT * FROM {table} WHERE {where} ORDER BY {sort} DESC, id DESC LIMIT ?"
    return Statement(sql, (*params, limit))


def owned_page_statement(owner: str, after: SortKey | None, limit: int) -> Statement:
    """An owner's monitors, newest first, after a (created_at, id) cursor."""
    return _newest_first("monitors", "owner", owner, "created_at", after, limit)


def runs_page_statement(monitor_id: str, after: SortKey | None, limit: int) -> Statement:
    """A monitor's runs, newest first, after a (started_at, id) cursor, over
    monitor_runs_monitor_started_idx."""
    return _newest_first("monitor_runs", "monitor_id", monitor_id, "started_at", after, limit)


async def read_owned_page(
    db: D1Database, owner: str, after: SortKey | None, limit: int
) -> list[tuple[SortKey, MonitorRecord]]:
    statement = owned_page_statement(owner, after, limit)
    return await _keyed(db, statement, "created_at", MonitorRecord.from_row)


async def read_runs_page(
    db: D1Database, monitor_id: str, after: SortKey | None, limit: int
) -> list[tuple[SortKey, MonitorRunRecord]]:
    statement = runs_page_statement(monitor_id, after, limit)
    return await _keyed(db, statement, "started_at", MonitorRunRecord.from_dict)


async def _keyed[R](
    db: D1Database, statement: Statement, sort: str, record: Callable[[Mapping[str, object]], R]
) -> list[tuple[SortKey, R]]:
    """Each row with its (sort, id) key, the cursor a page continues after."""
    result = await statement.prepare(db).all()
    return [((as_str(row[sort]), as_str(row["id"])), record(row)) for row in result["results"]]


# -- the schedule: the producer's selection and the consumer's claim ------------------------------

# `last_run_at <= <the cutoff of the row's own frequency>`: one statement whatever the mix.
_RECENT_ENOUGH = (
    "(last_run_at IS NULL OR last_run_at <= "
    "CASE frequency WHEN 'daily' THEN ? WHEN 'weekly' THEN ? ELSE ? END)"
)
_UNLOCKED = "(lock_until IS NULL OR lock_until < ?)"


def due_page_statement(
    now: str, cutoffs: RecencyCutoffs, after: tuple[str, str] | None, limit: int
) -> Statement:
    """Active monitors whose slot has come, not run too recently and not claimed, oldest slot
    first, after a (next_due_at, id) cursor: a range of monitors_active_due_idx."""
    terms = ["is_active = 1", "next_due_at <= ?"]
    params: list[str | int] = [now]
    if after is not None:
        terms.append("(next_due_at, id) > (?, ?)")
        params.extend(after)
    terms.extend([_RECENT_ENOUGH, _UNLOCKED])
    params.extend([cutoffs.daily, cutoffs.weekly, cutoffs.monthly, now])
    sql = (
        f"SELECT id, next_due_at FROM monitors WHERE {' AND '.join(terms)} "
        "ORDER BY next_due_at, id LIMIT ?"
    )
    return Statement(sql, (*params, limit))


async def read_due_page(
    db: D1Database, now: str, cutoffs: RecencyCutoffs, after: tuple[str, str] | None, limit: int
) -> list[tuple[str, str]]:
    """Up to `limit` due monitors after the cursor, as their sort keys (next_due_at, id)."""
    result = await due_page_statement(now, cutoffs, after, limit).prepare(db).all()
    return [(as_str(row["next_due_at"]), as_str(row["id"])) for row in result["results"]]


# Queues deliver at least once, so two deliveries of one monitor can race: a recency check read
# first and written later lets both through. One guarded UPDATE decides instead: only one
# delivery changes the row; every other one sees zero changes and does nothing.
CLAIM_SQL = (
    f"UPDATE monitors SET lock_until = ? WHERE id = ? AND is_active = 1 AND {_UNLOCKED} "
    f"AND {_RECENT_ENOUGH}"
)
RELEASE_SQL = "UPDATE monitors SET lock_until = NULL WHERE id = ? AND lock_until = ?"
RUN_FOR_SLOT_SQL = "SELECT * FROM monitor_runs WHERE monitor_id = ? AND due_at = ?"
_INSERT_RUN = (
    "INSERT INTO monitor_runs (id, monitor_id, audit_id, due_at, started_at, finished_at, "
    "status, error_detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (monitor_id, due_at) DO NOTHING"
)
# The run is recorded and the next slot set in one batch (one transaction); the claim ends.
SCHEDULED_SQL = (
    "UPDATE monitors SET last_run_at = ?, next_due_at = ?, lock_until = NULL WHERE id = ?"
)


async def claim(
    db: D1Database, monitor_id: str, now: str, lock_until: str, cutoffs: RecencyCutoffs
) -> bool:
    """Lock the monitor for one run; False when it is inactive, claimed, or ran recently."""
    result = await (
        db.prepare(CLAIM_SQL)
        .bind(lock_until, monitor_id, now, cutoffs.daily, cutoffs.weekly, cutoffs.monthly)
        .run()
    )
    return bool(result["meta"].get("changes", 0))


async def release(db: D1Database, monitor_id: str, lock_until: str) -> None:
    """Give a claim back (the run could not start and will be retried): only our own lock."""
    await db.prepare(RELEASE_SQL).bind(monitor_id, lock_until).run()


async def run_for_slot(db: D1Database, monitor_id: str, due_at: str) -> MonitorRunRecord | None:
    row = await db.prepare(RUN_FOR_SLOT_SQL).bind(monitor_id, due_at).first()
    return None if row is None else MonitorRunRecord.from_dict(row)


async def record_run_start(db: D1Database, run: MonitorRunRecord, next_due_at: str) -> None:
    """Insert the run (a second insert for the same slot does nothing) and move the monitor to
    its next slot, ending the claim: both or neither."""
    insert = db.prepare(_INSERT_RUN).bind(
        run.id,
        run.monitor_id,
        run.audit_id,
        run.due_at,
        run.started_at,
        run.finished_at,
        str(run.status),
        run.error_detail,
    )
    schedule = db.prepare(SCHEDULED_SQL).bind(run.started_at, next_due_at, run.monitor_id)
    await db.batch([insert, schedule])


# `siteaudit monitors run-due --now ID` on the local platform: the monitor is due at once even if
# it ran recently (to try a second run and its alert without waiting a day). Clearing
# last_run_at loses nothing: the run this makes records it again.
DUE_NOW_SQL = (
    "UPDATE monitors SET next_due_at = ?, last_run_at = NULL WHERE id = ? AND is_active = 1"
)


async def make_due_now(db: D1Database, monitor_id: str, now: str) -> bool:
    """False when there is no such active monitor."""
    result = await db.prepare(DUE_NOW_SQL).bind(now, monitor_id).run()
    return bool(result["meta"].get("changes", 0))


# -- retention: the daily cleanup deletes runs past MONITOR_RUN_RETENTION_DAYS ------------------


@dataclass(frozen=True, slots=True)
class ExpiredRun(JsonRecord):
    """A run past retention, with what names its R2 report (`service.report_keys`)."""

    id: str
    started_at: str
    owner: str  # the monitor's, which is its audit's
    audit_id: str | None = None  # None: no audit was started, so there is no report either


# Where a retention pass begins: every (started_at, id) sorts after two empty strings.
BEFORE_ALL: SortKey = ("", "")
# One batch is the rows in (after, last] of the (started_at, id) order, `last` being the newest
# run the batch read: a range of monitor_runs_started_idx (0010) bounded at both ends, bound by
# four values whatever the batch size. Every row in it started no later than `last`, which is
# past retention, so the range needs no cutoff of its own.
_EXPIRED_RANGE = "(started_at, id) > (?, ?) AND (started_at, id) <= (?, ?)"
EXPIRED_RUNS_SQL = (
    "SELECT id, started_at, audit_id, "
    "(SELECT owner FROM monitors WHERE monitors.id = monitor_runs.monitor_id) AS owner "
    "FROM monitor_runs WHERE started_at < ? AND (started_at, id) > (?, ?) "
    "ORDER BY started_at, id LIMIT ?"
)
# Only audits a run names: an ad-hoc audit is never a run's, so it is never deleted here.
DELETE_EXPIRED_AUDITS_SQL = (
    f"DELETE FROM audits WHERE id IN (SELECT audit_id FROM monitor_runs WHERE {_EXPIRED_RANGE})"
)
DELETE_EXPIRED_RUNS_SQL = f"DELETE FROM monitor_runs WHERE {_EXPIRED_RANGE}"


async def read_expired_runs(
    db: D1Database, cutoff: str, after: SortKey, limit: int
) -> list[ExpiredRun]:
    """Up to `limit` runs that started before `cutoff`, oldest first, after a cursor."""
    result = await db.prepare(EXPIRED_RUNS_SQL).bind(cutoff, *after, limit).all()
    return [ExpiredRun.from_dict(row) for row in result["results"]]


async def delete_expired_range(db: D1Database, after: SortKey, last: SortKey) -> None:
    """Delete the runs in (after, last] (read by `read_expired_runs`) and their audits (whose
    pages and issues cascade), in one transaction: the audits first, while the runs name them.

    No count is returned: `meta.changes` counts cascaded rows on some platforms and not others,
    and the caller knows the batch it read."""
    await db.batch(
        [
            db.prepare(DELETE_EXPIRED_AUDITS_SQL).bind(*after, *last),
            db.prepare(DELETE_EXPIRED_RUNS_SQL).bind(*after, *last),
        ]
    )


# -- the robots.txt override (issue 28, item 2) -------------------------------------------------

SET_IGNORE_ROBOTS_SQL = "UPDATE monitors SET ignore_robots = ? WHERE id = ? AND owner = ?"


async def set_ignore_robots(db: D1Database, monitor: MonitorRecord) -> None:
    """Store the monitor's `ignore_robots` (after its insert or update). Apart from the other
    settings so the flag reads as one decision; a failure between the two leaves the monitor
    obeying robots.txt, the safe side."""
    await (
        db.prepare(SET_IGNORE_ROBOTS_SQL)
        .bind(int(monitor.ignore_robots), monitor.id, monitor.owner)
        .run()
    )
