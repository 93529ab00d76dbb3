"""The rows that keep sealed credentials (migration 0024: `audits.credentials_sealed`,
`monitors.credentials_sealed`), read and rewritten for a key rotation (maintenance.reseal).

A page holds the rows whose value is not sealed under the current key id (common.sealing: the
value opens with `sa1.<kid>.`), in id order after a cursor, through the table's partial index of
rows with credentials. The rewrite is guarded by the value it replaces: an owner's edit that lands
between the read and the write wins, and running the rotation twice rewrites nothing twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from auditdb.listing import Statement
from common.bindings import D1Database
from common.wire import as_str


class SealedTable(StrEnum):
    AUDITS = "audits"  # what a resume or a re-run sends
    MONITORS = "monitors"  # what each run's audit sends


@dataclass(frozen=True, slots=True)
class SealedRow:
    id: str
    sealed: str


def stale_page_statement(table: SealedTable, kid: str, after: str, limit: int) -> Statement:
    """Rows of `table` sealed under another key than `kid`, after the id `after`, in id order."""
    sql = (
        f"SELECT id, credentials_sealed FROM {table} WHERE credentials_sealed IS NOT NULL "
        "AND id > ? AND credentials_sealed NOT LIKE ? ORDER BY id LIMIT ?"
    )
    return Statement(sql, (after, f"sa1.{kid}.%", limit))


def reseal_statement(table: SealedTable, row: SealedRow, resealed: str) -> Statement:
    sql = f"UPDATE {table} SET credentials_sealed = ? WHERE id = ? AND credentials_sealed = ?"
    return Statement(sql, (resealed, row.id, row.sealed))


async def stale_page(
    db: D1Database, table: SealedTable, kid: str, after: str, limit: int
) -> list[SealedRow]:
    result = await stale_page_statement(table, kid, after, limit).prepare(db).all()
    return [
        SealedRow(as_str(row["id"]), as_str(row["credentials_sealed"])) for row in result["results"]
    ]


async def reseal(db: D1Database, table: SealedTable, row: SealedRow, resealed: str) -> bool:
    """Replace the row's value if it is still `row.sealed`; False when it changed meanwhile."""
    result = await reseal_statement(table, row, resealed).prepare(db).run()
    return bool(result["meta"].get("changes", 0))
