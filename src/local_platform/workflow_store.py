"""The workflow engine's durable state: one SQLite file for instances, step results and events.

Every write commits before the call returns (autocommit), so a killed process leaves behind
exactly what a new engine on the same file needs to resume: instance rows still `queued` or
`running`, and the results of every step that finished. Values go through `workflow_codec`.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from local_platform import workflow_codec

_SCHEMA = """
CREATE TABLE IF NOT EXISTS instances (
    id TEXT PRIMARY KEY,
    workflow TEXT NOT NULL,
    params TEXT NOT NULL,
    status TEXT NOT NULL,
    output TEXT,
    error TEXT,
    created_ms REAL NOT NULL,
    updated_ms REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS steps (
    instance_id TEXT NOT NULL,
    cache_key TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('value', 'error', 'pending')),
    result TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    PRIMARY KEY (instance_id, cache_key)
);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    instance_id TEXT NOT NULL,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    timestamp_ms REAL NOT NULL,
    consumed INTEGER NOT NULL DEFAULT 0
);
"""


@dataclass(frozen=True, slots=True)
class InstanceRow:
    id: str
    workflow: str
    params: Any
    status: str
    output: Any
    error: Any
    created_ms: float


@dataclass(frozen=True, slots=True)
class StepRecord:
    """A step's stored outcome: "value" (result holds the value), "error" (result holds
    `{"name", "message"}` of the error the step's `await` rejects with), or "pending" (a sleep
    that has started; result holds `{"until": epoch ms}` so a replay sleeps only the rest)."""

    outcome: str
    result: Any
    attempts: int


@dataclass(frozen=True, slots=True)
class EventRow:
    type: str
    payload: Any
    timestamp_ms: float


class WorkflowStore:
    def __init__(self, db_path: str | Path) -> None:
        self._db = sqlite3.connect(db_path, isolation_level=None)
        # WAL + synchronous=NORMAL: a killed process loses nothing committed (see d1.open_sqlite).
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def insert_instance(self, row: InstanceRow) -> bool:
        """False when the id is taken (the caller raises the platform's text)."""
        cursor = self._db.execute(
            "INSERT OR IGNORE INTO instances VALUES (?, ?, ?, ?, NULL, NULL, ?, ?)",
            (
                row.id,
                row.workflow,
                workflow_codec.encode(row.params),
                row.status,
                row.created_ms,
                row.created_ms,
            ),
        )
        return cursor.rowcount == 1

    def instance(self, instance_id: str) -> InstanceRow | None:
        found = self._db.execute(
            "SELECT id, workflow, params, status, output, error, created_ms"
            " FROM instances WHERE id = ?",
            (instance_id,),
        ).fetchone()
        if found is None:
            return None
        id_, workflow, params, status, output, error, created_ms = found
        return InstanceRow(
            id_,
            workflow,
            workflow_codec.decode(params),
            status,
            _maybe_decode(output),
            _maybe_decode(error),
            created_ms,
        )

    def ids_with_status(self, *statuses: str) -> list[str]:
        marks = ",".join("?" * len(statuses))
        rows = self._db.execute(
            f"SELECT id FROM instances WHERE status IN ({marks}) ORDER BY created_ms, id", statuses
        )
        return [r[0] for r in rows]

    def set_status(self, instance_id: str, status: str, now_ms: float) -> None:
        self._db.execute(
            "UPDATE instances SET status = ?, updated_ms = ? WHERE id = ?",
            (status, now_ms, instance_id),
        )

    def finish(
        self, instance_id: str, status: str, now_ms: float, *, output: Any = None, error: Any = None
    ) -> None:
        self._db.execute(
            "UPDATE instances SET status = ?, output = ?, error = ?, updated_ms = ? WHERE id = ?",
            (
                status,
                workflow_codec.encode(output),
                workflow_codec.encode(error),
                now_ms,
                instance_id,
            ),
        )

    def delete_instance(self, instance_id: str) -> None:
        self.forget_progress(instance_id)
        self._db.execute("DELETE FROM instances WHERE id = ?", (instance_id,))

    def forget_progress(self, instance_id: str) -> None:
        """Drop step results and events: what `restart()` starts over without."""
        self._db.execute("DELETE FROM steps WHERE instance_id = ?", (instance_id,))
        self._db.execute("DELETE FROM events WHERE instance_id = ?", (instance_id,))

    def step(self, instance_id: str, cache_key: str) -> StepRecord | None:
        found = self._db.execute(
            "SELECT outcome, result, attempts FROM steps WHERE instance_id = ? AND cache_key = ?",
            (instance_id, cache_key),
        ).fetchone()
        if found is None:
            return None
        return StepRecord(found[0], workflow_codec.decode(found[1]), found[2])

    def put_step(self, instance_id: str, cache_key: str, record: StepRecord) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO steps VALUES (?, ?, ?, ?, ?)",
            (
                instance_id,
                cache_key,
                record.outcome,
                workflow_codec.encode(record.result),
                record.attempts,
            ),
        )

    def add_event(self, instance_id: str, event: EventRow) -> None:
        self._db.execute(
            "INSERT INTO events (instance_id, type, payload, timestamp_ms) VALUES (?, ?, ?, ?)",
            (instance_id, event.type, workflow_codec.encode(event.payload), event.timestamp_ms),
        )

    def take_event(self, instance_id: str, event_type: str) -> EventRow | None:
        """The oldest unconsumed event of this type, marked consumed."""
        found = self._db.execute(
            "SELECT seq, payload, timestamp_ms FROM events"
            " WHERE instance_id = ? AND type = ? AND consumed = 0 ORDER BY seq LIMIT 1",
            (instance_id, event_type),
        ).fetchone()
        if found is None:
            return None
        self._db.execute("UPDATE events SET consumed = 1 WHERE seq = ?", (found[0],))
        return EventRow(event_type, workflow_codec.decode(found[1]), found[2])


def _maybe_decode(text: str | None) -> Any:
    return None if text is None else workflow_codec.decode(text)
