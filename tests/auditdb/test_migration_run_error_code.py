"""Migration 0018 (a monitor run's error code) on a database at 0017 holding audits with child
rows, a monitor and a run: every row survives, the run reads as having no code, and a code
written by finishing reads back as the `ErrorCode`. ADD COLUMN only: monitor_runs, which `alerts`
references with ON DELETE CASCADE, is never rebuilt."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from auditdb.monitors import MonitorRunRecord
from common.failures import ErrorCode
from tests.auditdb.test_migration_cancelled import CHILD_TABLES, snapshot
from tests.auditdb.test_migration_security import migrate_seeded

RUN_ERROR_CODE = "0018_run_error_code.sql"


def runs(conn: sqlite3.Connection) -> list[MonitorRunRecord]:
    conn.row_factory = sqlite3.Row
    return [MonitorRunRecord.from_dict(dict(r)) for r in conn.execute("SELECT * FROM monitor_runs")]


def test_every_row_survives_and_the_run_reads_as_without_a_code(tmp_path: Path) -> None:
    conn, before = migrate_seeded(tmp_path, RUN_ERROR_CODE)

    assert snapshot(conn) == before and all(before[table] for table in CHILD_TABLES)
    assert [(run.id, run.error_code) for run in runs(conn)] == [("r1", None)]
    conn.execute("UPDATE monitor_runs SET status = 'failed', error_code = 'site_dns_error'")
    assert [run.error_code for run in runs(conn)] == [ErrorCode.SITE_DNS_ERROR]
    conn.close()
