"""The AuditScratchpad's schema and RPC methods, as a mixin the Durable Object shell inherits.

All transient crawl state of one audit lives here, in the object's own SQLite storage. The methods
only touch `self.ctx.storage`, so they run unchanged on the local platform. (The frontier, link
graph and finalize queries arrive with the crawl; this is the lifecycle they hang on.)
"""

from __future__ import annotations

from typing import Any

import ports

CLEANUP_AFTER_MS = 7 * 24 * 60 * 60 * 1000  # failed audits keep their state this long for resume

_SCHEMA = """
CREATE TABLE IF NOT EXISTS scratchpad_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)
"""


class ScratchpadMethods:
    ctx: Any

    def open_scratchpad(self) -> None:
        """Create the schema and make sure a cleanup alarm exists; runs on every construction."""
        self.ctx.storage.sql.exec(_SCHEMA)
        self.ctx.blockConcurrencyWhile(self._ensure_cleanup_alarm)

    async def _ensure_cleanup_alarm(self) -> None:
        if await self.ctx.storage.getAlarm() is None:
            await self.ctx.storage.setAlarm(ports.now_ms() + CLEANUP_AFTER_MS)

    def stats(self) -> dict[str, Any]:
        rows = self.ctx.storage.sql.exec("SELECT COUNT(*) AS n FROM scratchpad_meta").one()
        return {"meta_rows": rows["n"]}

    async def destroy(self) -> dict[str, Any]:
        """Delete the alarm, then every row: the object stops being billed for storage."""
        await self.ctx.storage.deleteAlarm()
        await self.ctx.storage.deleteAll()
        return {"destroyed": True}

    async def alarm(self) -> None:
        await self.destroy()
