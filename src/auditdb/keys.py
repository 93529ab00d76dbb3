"""The `api_keys` table (migrations/d1/0003_api_keys.sql): its record, reads and writes.

A row never holds a key, only the key's SHA-256 hex (`key_hash`); the service hashes what a caller
presents and looks the hash up, so no comparison here ever sees a key.
"""

from __future__ import annotations

from dataclasses import dataclass

from common.bindings import D1Database
from common.wire import JsonRecord


@dataclass(frozen=True, slots=True)
class ApiKeyRecord(JsonRecord):
    """One row of `api_keys`; what listing a key shows (the hash stays in the table)."""

    id: str
    owner: str
    name: str
    prefix: str  # the key's first characters, to tell keys apart; never enough to use one
    created_at: str
    last_used_at: str | None = None
    revoked_at: str | None = None

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None


_COLUMNS = "id, owner, name, prefix, created_at, last_used_at, revoked_at"


async def insert_key(db: D1Database, key: ApiKeyRecord, key_hash: str) -> None:
    await (
        db.prepare(
            "INSERT INTO api_keys (id, owner, name, key_hash, prefix, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)"
        )
        .bind(key.id, key.owner, key.name, key_hash, key.prefix, key.created_at)
        .run()
    )


async def key_by_hash(db: D1Database, key_hash: str) -> ApiKeyRecord | None:
    """The key whose hash this is, revoked or not (one indexed read per authenticated request)."""
    row = (
        await db.prepare(f"SELECT {_COLUMNS} FROM api_keys WHERE key_hash = ?")
        .bind(key_hash)
        .first()
    )
    return None if row is None else ApiKeyRecord.from_dict(row)


async def list_keys(db: D1Database) -> list[ApiKeyRecord]:
    result = await db.prepare(
        f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at DESC, id DESC"
    ).all()
    return [ApiKeyRecord.from_dict(row) for row in result["results"]]


async def revoke_key(db: D1Database, key_id: str, revoked_at: str) -> bool:
    """Revoke the key (a revoked key keeps its first `revoked_at`); False if no such key."""
    result = (
        await db.prepare("UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?")
        .bind(revoked_at, key_id)
        .run()
    )
    return bool(result["meta"].get("changes", 0))


async def touch_key(db: D1Database, key_id: str, used_at: str, stale_before: str) -> bool:
    """Record a use, unless one was recorded since `stale_before` (then False): the guard in the
    statement means concurrent requests that all read an old `last_used_at` still write once."""
    result = await (
        db.prepare(
            "UPDATE api_keys SET last_used_at = ? "
            "WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)"
        )
        .bind(used_at, key_id, stale_before)
        .run()
    )
    return bool(result["meta"].get("changes", 0))
