"""The `alerts` table (migrations/d1/0009_alerts.sql): one row per alerting run, and the
bookkeeping of its delivery. The rules are service.alert_delivery's.

A delivery attempt first takes the row's lease (one guarded UPDATE, like the monitor claim): a
pending alert whose lease is free. Two deliveries of one queue message therefore never post at
the same time; the loser sees zero changed rows. The lease also counts the attempt. Every
statement is listed in tests/auditdb/test_run_finish_plans.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from common.bindings import D1Database
from common.wire import JsonRecord


class AlertStatus(StrEnum):
    PENDING = "pending"
    DELIVERED = "delivered"
    FAILED = "failed"  # given up: retries exhausted, or no retry could help


@dataclass(frozen=True, slots=True)
class AlertRecord(JsonRecord):
    run_id: str
    monitor_id: str
    delivery_id: str
    payload: str
    created_at: str
    status: AlertStatus = AlertStatus.PENDING
    attempts: int = 0
    lease_until: str | None = None
    last_error: str | None = None
    response_status: int | None = None
    finished_at: str | None = None


GET_ALERT_SQL = "SELECT * FROM alerts WHERE run_id = ?"
LEASE_SQL = (
    "UPDATE alerts SET attempts = attempts + 1, lease_until = ? WHERE run_id = ? "
    "AND status = 'pending' AND (lease_until IS NULL OR lease_until < ?)"
)
# Every outcome ends the lease; only the first to settle a pending alert changes it.
SETTLE_SQL = (
    "UPDATE alerts SET status = ?, last_error = ?, response_status = ?, finished_at = ?, "
    "lease_until = NULL WHERE run_id = ? AND status = 'pending'"
)
# A failed attempt that will be retried: the row stays pending, its lease free for the retry.
ATTEMPT_FAILED_SQL = (
    "UPDATE alerts SET last_error = ?, response_status = ?, lease_until = NULL "
    "WHERE run_id = ? AND status = 'pending'"
)


async def get_alert(db: D1Database, run_id: str) -> AlertRecord | None:
    row = await db.prepare(GET_ALERT_SQL).bind(run_id).first()
    return None if row is None else AlertRecord.from_dict(row)


async def lease(db: D1Database, run_id: str, now: str, lease_until: str) -> bool:
    """Take the pending alert for one delivery attempt (counted); False if it is settled or an
    attempt holds it."""
    result = await db.prepare(LEASE_SQL).bind(lease_until, run_id, now).run()
    return bool(result["meta"].get("changes", 0))


async def settle(
    db: D1Database,
    run_id: str,
    status: AlertStatus,
    *,
    finished_at: str,
    error: str | None = None,
    response_status: int | None = None,
) -> None:
    statement = db.prepare(SETTLE_SQL).bind(
        str(status), error, response_status, finished_at, run_id
    )
    await statement.run()


async def attempt_failed(
    db: D1Database, run_id: str, error: str, response_status: int | None
) -> None:
    await db.prepare(ATTEMPT_FAILED_SQL).bind(error, response_status, run_id).run()
