"""Migration 0023 (host verifications, the audits row's robots_override, and the error code
start_robots_disallowed) on a database at 0021 holding audits with child rows and a monitor run:
every row survives (the audits table is never rebuilt), the CHECK admits the codes of
`common.failures.ErrorCode` known then, and an owner has one verification per host."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from common.failures import ErrorCode
from tests.auditdb.test_migration_security import (
    assert_check_admits,
    migrate_seeded,
    surviving_audits,
)

MIGRATION = "0023_host_verifications.sql"


def test_every_row_survives(tmp_path: Path) -> None:
    conn, before = migrate_seeded(tmp_path, MIGRATION)
    audits = surviving_audits(conn, before)
    assert {audit.id for audit in audits} == {"a0", "a1", "a2"}
    assert all(audit.robots_override is None for audit in audits)
    conn.close()


# Codes added later widen the CHECK in their own migration (0031: network_unavailable,
# tests/auditdb/test_migration_network_unavailable.py).
CODES_OF_0023 = [code for code in ErrorCode if code is not ErrorCode.NETWORK_UNAVAILABLE]


@pytest.mark.parametrize("code", CODES_OF_0023)
def test_the_check_admits_every_error_code(tmp_path: Path, code: ErrorCode) -> None:
    assert_check_admits(tmp_path, MIGRATION, str(code))


def test_an_owner_has_one_verification_per_host(tmp_path: Path) -> None:
    conn, _ = migrate_seeded(tmp_path, MIGRATION)
    insert = (
        "INSERT INTO host_verifications (id, owner, host, method, token, created_at) "
        "VALUES (?, ?, 'a.test', 'dns', 't', 'now')"
    )
    conn.execute(insert, ("v1", "alpha"))
    conn.execute(insert, ("v2", "beta"))  # another owner's claim on the same host is its own
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        conn.execute(insert, ("v3", "alpha"))
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        conn.execute(
            "INSERT INTO host_verifications (id, owner, host, method, token, created_at) "
            "VALUES ('v4', 'gamma', 'a.test', 'carrier-pigeon', 't', 'now')"
        )
    conn.close()
