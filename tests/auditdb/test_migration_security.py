"""Migration 0011 (the security grade's columns) on a database at 0010 that holds audits with
pages, issues and monitor runs: every row survives, and the new columns read as "not graded".

Like 0006 (tests/auditdb/test_migration_cancelled.py), it must not rebuild `audits`: D1 runs
migrations with foreign keys on, so a rebuild would cascade-delete the child rows.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from auditdb.records import AuditRecord
from local_platform.migrations import apply_migrations
from tests.auditdb.test_migration_cancelled import CHILD_TABLES, connect, seed, snapshot

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations" / "d1"
SECURITY = "0011_security_grade.sql"


def migrate_seeded(
    tmp_path: Path, migration: str = SECURITY
) -> tuple[sqlite3.Connection, dict[str, list]]:
    """A database migrated up to `migration` (excluded), seeded with audits, their child rows, a
    monitor and a run, then migrated by `migration`; with the snapshot taken before it."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    for path in sorted(MIGRATIONS.glob("*.sql")):
        if path.name < migration:
            shutil.copy(path, folder)
    db_path = tmp_path / "d1.sqlite"
    apply_migrations(db_path, folder)
    conn = connect(db_path)
    seed(conn)
    conn.execute(
        "INSERT INTO monitors (id, owner, url, frequency, hour, max_pages, webhook_secret, "
        "next_due_at, created_at) "
        "VALUES ('m1', 'alpha', 'https://a.test/', 'daily', 10, 5, 'whsec_x', 't', 't')"
    )
    conn.execute(
        "INSERT INTO monitor_runs (id, monitor_id, audit_id, due_at, started_at, grade) "
        "VALUES ('r1', 'm1', 'a1', 't', 't', NULL)"
    )
    conn.commit()
    before = snapshot(conn)
    conn.close()
    shutil.copy(MIGRATIONS / migration, folder)
    assert migration in apply_migrations(db_path, folder)
    return connect(db_path), before


def surviving_audits(conn: sqlite3.Connection, before: dict[str, list]) -> list[AuditRecord]:
    """Every row as it was before the migration, and the audits read back as records."""
    assert snapshot(conn) == before
    assert all(before[table] for table in CHILD_TABLES)
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.row_factory = sqlite3.Row
    audits = [AuditRecord.from_row(dict(row)) for row in conn.execute("SELECT * FROM audits")]
    assert len(audits) == len(before["audits"])
    return audits


def assert_check_admits(tmp_path: Path, migration: str, code: str) -> None:
    """After `migration`, audits.error_code takes `code` and refuses a code no version knows."""
    conn, _ = migrate_seeded(tmp_path, migration)
    conn.execute("UPDATE audits SET error_code = ? WHERE id = 'a2'", (code,))
    with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
        conn.execute("UPDATE audits SET error_code = 'site_on_fire' WHERE id = 'a2'")
    conn.close()


def test_every_row_survives_and_reads_as_not_yet_graded(tmp_path: Path) -> None:
    conn, before = migrate_seeded(tmp_path)

    audits = surviving_audits(conn, before)
    assert {(a.security_grade, a.security_score, a.security_error) for a in audits} == {
        (None, None, None)
    }
    tests = conn.execute("SELECT DISTINCT security_tests FROM audits").fetchall()
    assert [tuple(row) for row in tests] == [(None,)]
    runs = conn.execute("SELECT id, security_score FROM monitor_runs").fetchall()
    assert [tuple(row) for row in runs] == [("r1", None)]
    conn.close()
