"""Migration 0020 (the response-time verdict's summary) on a database at 0019 that holds audits
with pages, issues and monitor runs: every row survives, and the new column reads as "not yet
measured".

Like 0006, 0011 and 0012 it must not rebuild `audits`: D1 runs migrations with foreign keys on,
so a rebuild would cascade-delete the child rows.
"""

from __future__ import annotations

from pathlib import Path

from tests.auditdb.test_migration_security import migrate_seeded, surviving_audits

TIMING = "0020_timing_summary.sql"


def test_every_row_survives_and_reads_as_not_yet_measured(tmp_path: Path) -> None:
    conn, before = migrate_seeded(tmp_path, TIMING)

    assert all(a.id for a in surviving_audits(conn, before))
    summaries = conn.execute("SELECT DISTINCT timing_summary FROM audits").fetchall()
    assert [tuple(row) for row in summaries] == [(None,)]
    conn.close()
