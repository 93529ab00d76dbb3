"""`ctx.storage`: SQL, key-value, transactions and the alarm of one Durable Object, in one file.

The parts live in their own modules (do_sql, do_kv, do_transactions, do_alarms, over the file of
do_storage_file); this class puts them together and adds what spans all of them.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from local_platform.do_alarms import AlarmStorage
from local_platform.do_kv import KeyValueStorage
from local_platform.do_sql import SqlStorage


class DurableObjectStorage(KeyValueStorage, AlarmStorage):
    """`ctx.storage`: SQL, key-value, transactions and the alarm, all in one SQLite file."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.sql = SqlStorage(self._conn, self._guard)

    async def deleteAll(self, options: Any = None) -> None:
        """Everything goes: SQL tables, KV and (compat date ≥ 2026-02-24) the alarm."""
        await asyncio.sleep(0)
        with self._guard.trusted():
            self._drop_user_schema()
            self._conn.execute("DELETE FROM _cf_KV")
        self.forget_alarm()

    def _drop_user_schema(self) -> None:
        rows = self._conn.execute(
            "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger') "
            "AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'"
        ).fetchall()
        foreign_keys = self._savepoints == 0  # the pragma is a no-op inside a transaction
        if foreign_keys:
            self._conn.execute("PRAGMA foreign_keys=OFF")
        for kind, name in rows:
            self._conn.execute(f'DROP {kind.upper()} IF EXISTS "{name.replace('"', '""')}"')
        if foreign_keys:
            self._conn.execute("PRAGMA foreign_keys=ON")

    async def sync(self) -> None:
        await asyncio.sleep(0)  # every write is already committed (see do_storage_file.py)
