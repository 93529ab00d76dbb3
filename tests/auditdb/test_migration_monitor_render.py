"""Migration 0026 (monitors.render) on a database holding audits with child rows and a monitor:
every row survives, the monitor reads as `render: auto` (the option's default), and the column
refuses a value outside `RenderMode`. ADD COLUMN only: nothing is rebuilt."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from auditdb.monitors import MonitorRecord
from render.records import RenderMode
from tests.auditdb.test_migration_cancelled import CHILD_TABLES, snapshot
from tests.auditdb.test_migration_security import migrate_seeded as migrate_to

MONITOR_RENDER = "0026_monitor_render.sql"


def test_every_row_survives_and_monitors_read_as_rendering_in_auto_mode(tmp_path: Path) -> None:
    conn, before = migrate_to(tmp_path, MONITOR_RENDER)
    assert snapshot(conn) == before
    assert all(before[table] for table in CHILD_TABLES)
    conn.row_factory = sqlite3.Row
    (monitor,) = [MonitorRecord.from_row(dict(r)) for r in conn.execute("SELECT * FROM monitors")]
    assert monitor.render is RenderMode.AUTO
    conn.execute("UPDATE monitors SET render = 'never' WHERE id = 'm1'")
    (row,) = conn.execute("SELECT * FROM monitors").fetchall()
    assert MonitorRecord.from_row(dict(row)).render is RenderMode.NEVER
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        conn.execute("UPDATE monitors SET render = 'sometimes' WHERE id = 'm1'")
    conn.close()
