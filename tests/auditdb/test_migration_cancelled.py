"""Migration 0006 (the `cancelled` status) on a database that already holds audits with pages,
issues and Lighthouse rows: the status CHECK widens and no child row is lost.

D1 applies migrations with foreign keys on, so a migration that dropped or rebuilt `audits`
would cascade-delete every child row; the local D1 runs migrations the same way
(`local_platform.migrations`, PRAGMA foreign_keys=ON), so a lost row would show here.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from auditdb.records import AuditStatus
from local_platform.migrations import apply_migrations

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations" / "d1"
CANCELLED = "0006_audit_cancelled.sql"
CHILD_TABLES = ("audit_pages", "audit_issues", "audit_lighthouse_results")
BEFORE_STATUSES = ("running", "completed", "failed")


def connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def seed(conn: sqlite3.Connection) -> None:
    """One audit per status of 0001, each with two pages, an issue per page and a Lighthouse row."""
    for n, status in enumerate(BEFORE_STATUSES):
        audit = f"a{n}"
        conn.execute(
            "INSERT INTO audits (id, owner, start_url, created_at, status, finished_at) "
            "VALUES (?, 'alpha', 'https://a.test/', ?, ?, ?)",
            (audit, f"2026-12-0{n + 1}T00:00:00.000Z", status, None if n == 0 else "2026-12-09"),
        )
        for p in range(2):
            page = f"{audit}-p{p}"
            conn.execute(
                "INSERT INTO audit_pages (id, audit_id, url, crawled_at) VALUES (?, ?, ?, 't')",
                (page, audit, f"https://a.test/{p}"),
            )
            conn.execute(
                "INSERT INTO audit_issues (id, audit_id, page_id, page_url, issue_type, severity) "
                "VALUES (?, ?, ?, ?, 'missing-title', 'critical')",
                (f"{page}-i", audit, page, f"https://a.test/{p}"),
            )
        conn.execute(
            "INSERT INTO audit_lighthouse_results (id, audit_id, page_id, strategy) "
            "VALUES (?, ?, ?, 'mobile')",
            (f"{audit}-l", audit, f"{audit}-p0"),
        )
    conn.commit()


def snapshot(conn: sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
    tables = {
        table: conn.execute(f"SELECT id, audit_id FROM {table} ORDER BY id").fetchall()
        for table in CHILD_TABLES
    }
    tables["audits"] = conn.execute(
        "SELECT id, owner, status, created_at, finished_at FROM audits ORDER BY id"
    ).fetchall()
    return tables


@pytest.fixture
def migrated(tmp_path: Path) -> Iterator[tuple[sqlite3.Connection, dict[str, list]]]:
    """A database at 0005 with rows, then migrated to the newest migration; and its rows at 0005."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    for path in sorted(MIGRATIONS.glob("*.sql")):
        if path.name < CANCELLED:
            shutil.copy(path, folder)
    db_path = tmp_path / "d1.sqlite"
    apply_migrations(db_path, folder)
    conn = connect(db_path)
    seed(conn)
    before = snapshot(conn)
    conn.close()

    for path in sorted(MIGRATIONS.glob("*.sql")):
        shutil.copy(path, folder)
    assert CANCELLED in apply_migrations(db_path, folder)
    conn = connect(db_path)
    yield conn, before
    conn.close()


def test_every_row_survives_the_migration(
    migrated: tuple[sqlite3.Connection, dict[str, list]],
) -> None:
    conn, before = migrated

    assert snapshot(conn) == before
    assert all(before[table] for table in CHILD_TABLES)  # the check compared something
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


@pytest.mark.parametrize("status", list(AuditStatus))
def test_the_status_check_admits_exactly_the_audit_statuses(
    migrated: tuple[sqlite3.Connection, dict[str, list]], status: AuditStatus
) -> None:
    conn, _ = migrated
    conn.execute("UPDATE audits SET status = ? WHERE id = 'a0'", (str(status),))
    with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
        conn.execute("UPDATE audits SET status = 'paused' WHERE id = 'a0'")


def test_a_new_audit_still_starts_running(
    migrated: tuple[sqlite3.Connection, dict[str, list]],
) -> None:
    conn, _ = migrated
    conn.execute("INSERT INTO audits (id, start_url, created_at) VALUES ('new', 'u', 't')")
    assert conn.execute("SELECT status FROM audits WHERE id = 'new'").fetchall() == [("running",)]


def test_the_status_indexes_are_back_and_the_cascade_still_holds(
    migrated: tuple[sqlite3.Connection, dict[str, list]],
) -> None:
    conn, _ = migrated
    indexes = {
        name: [row[2] for row in conn.execute(f"PRAGMA index_info({name})")]
        for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audits' "
            "AND name LIKE '%status%'"
        )
    }
    assert indexes == {
        "audits_status_started_idx": ["status", "started_at"],
        "audits_owner_status_created_id_idx": ["owner", "status", "created_at", "id"],
        "audits_owner_status_idx": ["owner", "status"],
    }
    # audits is still the parent its children name: deleting an audit takes its rows with it.
    conn.execute("DELETE FROM audits WHERE id = 'a1'")
    for table in CHILD_TABLES:
        query = f"SELECT COUNT(*) FROM {table} WHERE audit_id = 'a1'"
        assert conn.execute(query).fetchone() == (0,)
