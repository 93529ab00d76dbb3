"""Migration 0017 (a start URL typed without a scheme) on a database at 0016 holding audits with
child rows and a monitor: every row survives and reads as typed with a scheme, and the new flags
take only 0 or 1."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from auditdb.monitors import MonitorRecord
from tests.auditdb.test_migration_security import migrate_seeded, surviving_audits

SCHEME_ASSUMED = "0017_scheme_assumed.sql"


def test_every_row_survives_and_reads_as_typed_with_a_scheme(tmp_path: Path) -> None:
    conn, before = migrate_seeded(tmp_path, SCHEME_ASSUMED)
    audits = surviving_audits(conn, before)
    assert {(a.scheme_assumed, a.scheme_note) for a in audits} == {(False, None)}
    (monitor,) = [
        MonitorRecord.from_row(dict(row)) for row in conn.execute("SELECT * FROM monitors")
    ]
    assert monitor.scheme_assumed is False
    conn.close()


@pytest.mark.parametrize("table", ["audits", "monitors"])
def test_the_flag_is_a_boolean(tmp_path: Path, table: str) -> None:
    conn, _ = migrate_seeded(tmp_path, SCHEME_ASSUMED)
    conn.execute(f"UPDATE {table} SET scheme_assumed = 1")
    with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
        conn.execute(f"UPDATE {table} SET scheme_assumed = 2")
    conn.close()
