"""The `rate_limits` table: fixed-window counters, one atomic upsert per hit."""

from __future__ import annotations

from common.bindings import D1Database
from common.wire import as_int

_HIT = (
    "INSERT INTO rate_limits (bucket, window_start_ms, hits, expires_at_ms) VALUES (?, ?, 1, ?) "
    "ON CONFLICT (bucket, window_start_ms) DO UPDATE SET hits = hits + 1 RETURNING hits"
)


async def hit(db: D1Database, bucket: str, window_start_ms: int, expires_at_ms: int) -> int:
    """Count one hit in the bucket's window and return the window's hits, this one included."""
    row = await db.prepare(_HIT).bind(bucket, window_start_ms, expires_at_ms).first()
    return 1 if row is None else as_int(row["hits"])


async def delete_expired(db: D1Database, now_ms: int, limit: int) -> int:
    """Delete up to `limit` windows that ended before `now_ms` (through the expiry index)."""
    result = (
        await db.prepare(
            "DELETE FROM rate_limits WHERE (bucket, window_start_ms) IN "
            "(SELECT bucket, window_start_ms FROM rate_limits "
            "WHERE expires_at_ms < ? ORDER BY expires_at_ms LIMIT ?)"
        )
        .bind(now_ms, limit)
        .run()
    )
    return result["meta"].get("changes", 0)


async def running_audits(db: D1Database, owner: str) -> int:
    row = (
        await db.prepare("SELECT COUNT(*) AS n FROM audits WHERE owner = ? AND status = 'running'")
        .bind(owner)
        .first()
    )
    return 0 if row is None else as_int(row["n"])
