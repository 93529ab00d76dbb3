"""The rows with sealed credentials (auditdb.credential_rows): a rotation's page reads only rows
that have credentials, through the table's partial index, in id order; the rewrite is guarded by
the value it replaces."""

from __future__ import annotations

import pytest

from auditdb import credential_rows
from auditdb.credential_rows import SealedRow, SealedTable
from auditdb.records import AuditRecord
from auditdb.repository import insert_audit
from local_platform.d1 import LocalD1Database
from tests.auditdb.test_query_plans import db, plan  # noqa: F401 - the migrated database fixture
from tests.support.local_d1 import as_d1

KID = "0123456789abcdef"
INDEX = {SealedTable.AUDITS: "audits_sealed_idx", SealedTable.MONITORS: "monitors_sealed_idx"}


@pytest.mark.parametrize("table", list(SealedTable))
async def test_a_page_reads_the_partial_index_in_id_order(
    db: LocalD1Database, table: SealedTable
) -> None:
    lines = await plan(db, credential_rows.stale_page_statement(table, KID, "", 100))
    assert INDEX[table] in lines[0], lines
    assert not [line for line in lines if "TEMP B-TREE" in line], lines


@pytest.mark.parametrize("table", list(SealedTable))
async def test_a_rewrite_seeks_its_row(db: LocalD1Database, table: SealedTable) -> None:
    lines = await plan(db, credential_rows.reseal_statement(table, SealedRow("a", "x"), "y"))
    assert f"sqlite_autoindex_{table}_1" in lines[0], lines


async def test_the_page_skips_rows_under_the_current_key_and_the_rewrite_is_guarded(
    db: LocalD1Database,
) -> None:
    d1 = as_d1(db)
    for n, sealed in enumerate(
        [f"sa1.{KID}.current", "sa1.fedcba9876543210.old", None, "sa1.fedcba9876543210.old2"]
    ):
        await insert_audit(d1, AuditRecord(f"row-{n}", "https://a.example/", "2026-01-01"), sealed)
    page = await credential_rows.stale_page(d1, SealedTable.AUDITS, KID, "", 100)
    assert page == [
        SealedRow("row-1", "sa1.fedcba9876543210.old"),
        SealedRow("row-3", "sa1.fedcba9876543210.old2"),
    ]
    assert await credential_rows.stale_page(d1, SealedTable.AUDITS, KID, "row-1", 100) == page[1:]
    stale = SealedRow("row-1", "sa1.fedcba9876543210.edited-meanwhile")
    assert not await credential_rows.reseal(d1, SealedTable.AUDITS, stale, f"sa1.{KID}.new")
    assert await credential_rows.reseal(d1, SealedTable.AUDITS, page[0], f"sa1.{KID}.new")
    assert await credential_rows.stale_page(d1, SealedTable.AUDITS, KID, "", 100) == page[1:]
