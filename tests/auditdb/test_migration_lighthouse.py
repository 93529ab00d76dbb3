"""Migration 0013 (the Lighthouse phase's columns) on a database at 0012 holding audits with
pages, issues, Lighthouse rows and a monitor: every row survives, audits read as "phase not
reached", rows as "no field data", monitors as `lighthouse: auto`.

Like 0006 and 0011, it must not rebuild `audits` (D1 migrates with foreign keys on, so a rebuild
would cascade-delete the child rows).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from auditdb.lighthouse import LighthouseRow
from auditdb.monitors import MonitorRecord
from auditdb.records import AuditRecord
from lighthouse.records import LighthouseMode
from tests.auditdb.test_migration_cancelled import CHILD_TABLES, snapshot
from tests.auditdb.test_migration_security import migrate_seeded as migrate_to

LIGHTHOUSE = "0013_lighthouse.sql"


def migrate_seeded(tmp_path: Path) -> tuple[sqlite3.Connection, dict[str, list]]:
    return migrate_to(tmp_path, LIGHTHOUSE)


def test_every_row_survives_and_reads_with_the_new_defaults(tmp_path: Path) -> None:
    conn, before = migrate_seeded(tmp_path)

    assert snapshot(conn) == before
    assert all(before[table] for table in CHILD_TABLES)
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.row_factory = sqlite3.Row
    audits = [AuditRecord.from_row(dict(row)) for row in conn.execute("SELECT * FROM audits")]
    assert len(audits) == len(before["audits"])
    assert {a.lighthouse_status for a in audits} == {None}
    rows = conn.execute("SELECT r.*, NULL AS page_url FROM audit_lighthouse_results r").fetchall()
    results = [LighthouseRow.from_row(dict(row)) for row in rows]
    assert results and {(r.run.field_url, r.run.field_origin) for r in results} == {(None, None)}
    (monitor,) = [MonitorRecord.from_row(dict(r)) for r in conn.execute("SELECT * FROM monitors")]
    assert monitor.lighthouse is LighthouseMode.AUTO
    conn.close()


def test_a_monitor_lighthouse_value_outside_the_vocabulary_is_refused(tmp_path: Path) -> None:
    conn, _ = migrate_seeded(tmp_path)
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        conn.execute("UPDATE monitors SET lighthouse = 'all' WHERE id = 'm1'")
    conn.close()
