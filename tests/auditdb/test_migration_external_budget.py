"""Migration 0019 (monitors.external_budget_s) on a database before it holding audits with child
rows and a monitor: every row survives, the monitor reads with the default budget, and the column
refuses a budget that is not positive. ADD COLUMN only: nothing is rebuilt."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from auditdb.monitors import MonitorRecord
from common import settings
from tests.auditdb.test_migration_cancelled import CHILD_TABLES, snapshot
from tests.auditdb.test_migration_security import migrate_seeded as migrate_to

EXTERNAL_BUDGET = "0019_monitor_external_budget.sql"


def test_every_row_survives_and_monitors_read_with_the_default_budget(tmp_path: Path) -> None:
    conn, before = migrate_to(tmp_path, EXTERNAL_BUDGET)
    assert snapshot(conn) == before
    assert all(before[table] for table in CHILD_TABLES)
    conn.row_factory = sqlite3.Row
    (monitor,) = [MonitorRecord.from_row(dict(r)) for r in conn.execute("SELECT * FROM monitors")]
    assert monitor.external_budget_s == settings.EXTERNAL.default_budget_s
    conn.execute("UPDATE monitors SET external_budget_s = 2.5 WHERE id = 'm1'")
    (row,) = conn.execute("SELECT * FROM monitors").fetchall()
    assert MonitorRecord.from_row(dict(row)).external_budget_s == 2.5
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        conn.execute("UPDATE monitors SET external_budget_s = 0 WHERE id = 'm1'")
    conn.close()
