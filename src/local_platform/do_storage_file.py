"""The one SQLite file that holds everything a Durable Object stores.

`<state_dir>/<class_name>/<id hex>.sqlite` carries the user's SQL tables, the key-value API (table
`_cf_KV`) and the platform's metadata (table `_cf_METADATA`: the alarm, its retry count, the name
the id was derived from). User SQL may not touch `_cf_` names, exactly as workerd refuses them, so
the platform's tables cannot collide with the user's. Because the file is the only state, a fresh
instance (after eviction, or in a restarted process) sees every committed write.

Durability model: outside `transactionSync()`/`transaction()` every statement commits on its own,
so a write is durable as soon as it returns (the runtime coalesces writes until the output gate
opens; nothing observable from one process differs except under a crash mid-turn).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from local_platform.d1 import SqlGuard, open_sqlite
from local_platform.do_sql import COMPOUND_SELECT_LIMIT

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS _cf_KV (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS _cf_METADATA (key TEXT PRIMARY KEY, value) WITHOUT ROWID",
)


class StorageFile:
    """The connection, the platform's own tables and the metadata rows; base of the storage API."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._guard = SqlGuard()
        # Temp files stay on disk: finalize's duplicate checks buffer a whole group in a window
        # partition (durable.finalize_sections). bench/scale_bench.py's 100k-page site has a
        # group of 97,888 pages; with temp storage in memory the audit's peak rose from 86 to
        # 127 MB, and that one query alone from +6 to +67 MB (bench/README.md, scale_bench.py).
        self._conn = open_sqlite(
            path, self._guard, compound_select=COMPOUND_SELECT_LIMIT, temp_in_memory=False
        )
        self._savepoints = 0  # nesting depth of transactionSync()/transaction()
        with self._guard.trusted():
            for statement in _SCHEMA:
                self._conn.execute(statement)

    def close(self) -> None:
        self._conn.close()

    def _internal(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        with self._guard.trusted():
            return self._conn.execute(sql, params).fetchall()

    def metadata(self, key: str) -> Any:
        rows = self._internal("SELECT value FROM _cf_METADATA WHERE key = ?", key)
        return rows[0][0] if rows else None

    def _set_metadata(self, key: str, value: Any) -> None:
        self._internal("INSERT OR REPLACE INTO _cf_METADATA (key, value) VALUES (?, ?)", key, value)

    def remember_name(self, name: str | None) -> None:
        if name is not None and self.metadata("name") is None:
            self._set_metadata("name", name)


def peek_metadata(path: Path, key: str) -> Any:
    """Read one metadata value from an object's file without constructing the object."""
    if not path.exists():
        return None
    conn = sqlite3.connect(path)
    try:
        row = conn.execute("SELECT value FROM _cf_METADATA WHERE key = ?", (key,)).fetchone()
    except sqlite3.OperationalError:
        row = None  # the file predates its first storage open
    finally:
        conn.close()
    return None if row is None else row[0]
