"""Migration 0031 (the error code network_unavailable: our network, not the site, failed the
start URL; crawl.network_probe) on a database at 0030 holding audits with child rows and a monitor
run: every row survives (the audits table is never rebuilt) and the CHECK admits exactly the codes
of `common.failures.ErrorCode`."""

from __future__ import annotations

from pathlib import Path

import pytest

from common.failures import ErrorCode
from tests.auditdb.test_migration_security import (
    assert_check_admits,
    migrate_seeded,
    surviving_audits,
)

MIGRATION = "0031_network_unavailable.sql"


def test_every_row_survives(tmp_path: Path) -> None:
    conn, before = migrate_seeded(tmp_path, MIGRATION)
    audits = surviving_audits(conn, before)
    assert {audit.id for audit in audits} == {"a0", "a1", "a2"}
    conn.close()


@pytest.mark.parametrize("code", list(ErrorCode))
def test_the_check_admits_every_error_code(tmp_path: Path, code: ErrorCode) -> None:
    assert_check_admits(tmp_path, MIGRATION, str(code))
