"""Migration 0014 (monitors.check_external) on a database at 0013 holding audits with child rows
and a monitor: every row survives, the monitor reads as `check_external: false`, and the column
refuses values other than 0 and 1. ADD COLUMN only: nothing is rebuilt."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from auditdb.monitors import MonitorRecord
from tests.auditdb.test_migration_cancelled import CHILD_TABLES, snapshot
from tests.auditdb.test_migration_security import migrate_seeded as migrate_to

CHECK_EXTERNAL = "0014_monitor_check_external.sql"


def test_every_row_survives_and_monitors_read_as_not_checking(tmp_path: Path) -> None:
    conn, before = migrate_to(tmp_path, CHECK_EXTERNAL)
    assert snapshot(conn) == before
    assert all(before[table] for table in CHILD_TABLES)
    conn.row_factory = sqlite3.Row
    (monitor,) = [MonitorRecord.from_row(dict(r)) for r in conn.execute("SELECT * FROM monitors")]
    assert monitor.check_external is False
    conn.execute("UPDATE monitors SET check_external = 1 WHERE id = 'm1'")
    (row,) = conn.execute("SELECT * FROM monitors").fetchall()
    assert MonitorRecord.from_row(dict(row)).check_external is True
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        conn.execute("UPDATE monitors SET check_external = 2 WHERE id = 'm1'")
    conn.close()
