"""Migration 0016 (the site's failures as audit error codes) on a database at 0015 holding audits
with child rows and a monitor run: every row and every stored error code survives, and the CHECK
admits exactly the codes of `common.failures.ErrorCode`.

Like 0006 (tests/auditdb/test_migration_cancelled.py), it must not rebuild `audits`: D1 runs
migrations with foreign keys on, so a rebuild would cascade-delete the child rows.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from common.failures import ErrorCode
from tests.auditdb.test_migration_security import migrate_seeded, surviving_audits

SITE_FAILURES = "0016_site_failure_codes.sql"


def test_every_row_and_stored_code_survives(tmp_path: Path) -> None:
    conn, before = migrate_seeded(tmp_path, SITE_FAILURES)
    audits = surviving_audits(conn, before)
    assert {audit.id for audit in audits} == {"a0", "a1", "a2"}
    conn.close()


def test_an_old_code_set_before_the_migration_is_kept(tmp_path: Path) -> None:
    conn, _ = migrate_seeded(tmp_path, SITE_FAILURES)
    conn.execute("UPDATE audits SET error_code = 'oom' WHERE id = 'a2'")
    assert conn.execute("SELECT error_code FROM audits WHERE id = 'a2'").fetchone() == ("oom",)
    conn.close()


# Codes added later widen the CHECK in their own migration (0023: start_robots_disallowed,
# tests/auditdb/test_migration_host_verifications.py; 0031: network_unavailable).
LATER = {ErrorCode.START_ROBOTS_DISALLOWED, ErrorCode.NETWORK_UNAVAILABLE}
CODES_OF_0016 = [code for code in ErrorCode if code not in LATER]


@pytest.mark.parametrize("code", CODES_OF_0016)
def test_the_check_admits_every_error_code(tmp_path: Path, code: ErrorCode) -> None:
    conn, _ = migrate_seeded(tmp_path, SITE_FAILURES)
    conn.execute("UPDATE audits SET error_code = ? WHERE id = 'a2'", (str(code),))
    conn.execute("UPDATE audits SET error_code = NULL WHERE id = 'a2'")
    with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
        conn.execute("UPDATE audits SET error_code = 'site_on_fire' WHERE id = 'a2'")
    conn.close()
