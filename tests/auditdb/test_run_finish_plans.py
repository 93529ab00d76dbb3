"""EXPLAIN QUERY PLAN over every statement of finishing runs and delivering alerts
(auditdb/run_finish.py, auditdb/alerts.py, auditdb/queue_messages.py): none scans a table.

The same rule as tests/auditdb/test_monitor_plans.py: each statement reaches its rows through an
index or a primary key. The watchdog's backstop walks one index on purpose: the partial
monitor_runs_running_idx, which holds only the runs still running.
"""

from __future__ import annotations

import re
from types import ModuleType

import pytest

from auditdb import alerts, queue_messages, run_finish
from auditdb.listing import Statement
from local_platform.d1 import LocalD1Database
from tests.auditdb.test_query_plans import db, plan  # noqa: F401 - the migrated database fixture

# A walk of any table, except the one of the partial index of running runs.
FULL_SCAN = re.compile(
    r"\bSCAN (monitors|monitor_runs|alerts|audits)\b(?! USING INDEX monitor_runs_running_idx)"
)
NOW = "2026-12-01T10:00:00.000Z"
MODULES: list[ModuleType] = [alerts, queue_messages, run_finish]

# (name, statement, the index its first step must use)
STATEMENTS: list[tuple[str, Statement, str]] = [
    (
        "running run of audit",
        Statement(queue_messages.RUNNING_RUN_OF_AUDIT_SQL, ("a1",)),
        "monitor_runs_",
    ),
    ("run of audit", Statement(run_finish.RUN_OF_AUDIT_SQL, ("a1",)), "monitor_runs_audit_idx"),
    ("get run", Statement(run_finish.GET_RUN_SQL, ("r1",)), "sqlite_autoindex_monitor_runs_1"),
    (
        "previous completed",
        Statement(run_finish.PREVIOUS_COMPLETED_SQL, ("m1", NOW)),
        "monitor_runs_monitor_started_idx",
    ),
    (
        "runs between",
        Statement(run_finish.RUNS_BETWEEN_SQL, ("m1", "", NOW, 1000)),
        "monitor_runs_monitor_started_idx",
    ),
    (
        "finish",
        Statement(run_finish.FINISH_SQL, (*[None] * 12, "r1")),
        "sqlite_autoindex_monitor_runs_1",
    ),
    (
        "report",
        Statement(run_finish.REPORT_SQL, ("k", 1, "r1")),
        "sqlite_autoindex_monitor_runs_1",
    ),
    (
        "insert alert",
        Statement(run_finish.INSERT_ALERT_SQL, ("r1", "m1", "d", "{}", NOW, "r1")),
        "sqlite_autoindex_monitor_runs_1",
    ),
    (
        "unfinished",
        Statement(run_finish.UNFINISHED_SQL, (100,)),
        "monitor_runs_running_idx",
    ),
    ("get alert", Statement(alerts.GET_ALERT_SQL, ("r1",)), "sqlite_autoindex_alerts_1"),
    ("lease", Statement(alerts.LEASE_SQL, (NOW, "r1", NOW)), "sqlite_autoindex_alerts_1"),
    (
        "settle",
        Statement(alerts.SETTLE_SQL, ("failed", None, None, NOW, "r1")),
        "sqlite_autoindex_alerts_1",
    ),
    (
        "attempt failed",
        Statement(alerts.ATTEMPT_FAILED_SQL, ("e", 500, "r1")),
        "sqlite_autoindex_alerts_1",
    ),
]


@pytest.mark.parametrize("module", MODULES, ids=[m.__name__ for m in MODULES])
def test_every_sql_constant_of_the_modules_is_in_the_table(module: ModuleType) -> None:
    constants = {
        value for name, value in vars(module).items() if name.endswith("_SQL") and name.isupper()
    }
    assert constants and constants <= {statement.sql for _, statement, _ in STATEMENTS}


@pytest.mark.parametrize(
    ("name", "statement", "index"), STATEMENTS, ids=[name for name, _, _ in STATEMENTS]
)
async def test_every_run_and_alert_statement_seeks_an_index(
    db: LocalD1Database,
    name: str,
    statement: Statement,
    index: str,
) -> None:
    lines = await plan(db, statement)

    assert not [line for line in lines if FULL_SCAN.search(line)], lines
    assert not [line for line in lines if "TEMP B-TREE" in line], lines
    assert any(index in line for line in lines), lines
