"""Cloudflare Queues for the local platform: producers, a SQLite broker, consumer batches.

Theory of operation (docs/platform.md §6). `LocalQueue.send`/`sendBatch` validate like the platform
(128 KB a message, 100 messages and 256 KB a batch, 1 KB = 1000 B) and store each message in one
SQLite table, so messages survive a restart of `siteaudit serve`. `QueueBroker.deliver_due`
takes the messages that are due (visible, and either enough for a full batch or the oldest has
waited `max_batch_timeout`), marks an attempt in the database BEFORE calling the handler, then
settles each message:

    explicit ack()                         -> deleted
    explicit retry(delaySeconds)           -> visible again after the delay
    undecided, handler returned            -> deleted (the platform's implicit ack)
    undecided, handler raised              -> retried after `retry_delay`
    retried when attempts > max_retries    -> moved to the dead-letter queue, else dropped (logged)

The first decision on a message wins; a later ack/retry is ignored with a warning, as workerd
does. Because the attempt is recorded first and the row is only removed on ack, a crash mid-batch
redelivers: delivery is at-least-once. `faults.duplicate_next` makes that visible on purpose.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import logging
import math
import pickle
import sqlite3
import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from local_platform.clock import Clock
from local_platform.errors import JsException
from local_platform.rpc import crossing, serialized_size

__all__ = [
    "ConsumerConfig",
    "LocalQueue",
    "Message",
    "MessageBatch",
    "QueueBroker",
    "QueueFaults",
]

log = logging.getLogger(__name__)

# Limits from docs: queues/platform/limits (1 KB = 1000 B).
MAX_MESSAGE_BYTES = 128_000
MAX_BATCH_BYTES = 256_000
MAX_BATCH_MESSAGES = 100
MAX_DELAY_SECONDS = 86_400
CONTENT_TYPES = frozenset({"json", "text", "bytes", "v8"})
# wrangler keys the local broker does not act on (one consumer runs at a time locally).
_IGNORED_CONSUMER_KEYS = frozenset({"max_concurrency", "visibility_timeout_ms", "type"})

_SCHEMA = """
CREATE TABLE IF NOT EXISTS queue_messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,  -- one delivery slot; a duplicated message has two
    queue TEXT NOT NULL,
    id TEXT NOT NULL,
    body BLOB NOT NULL,                     -- pickle of the value as the consumer will see it
    content_type TEXT NOT NULL,
    timestamp_ms INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    visible_at_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS queue_messages_due ON queue_messages (queue, visible_at_ms, seq);
"""


def _queue_error(message: str) -> JsException:
    # The production texts for these limit violations are unknown; these say what was violated.
    return JsException("Error", message)


@dataclass(frozen=True, slots=True)
class ConsumerConfig:
    """One `[[queues.consumers]]` table, with the platform's defaults and bounds."""

    queue: str
    max_batch_size: int = 10
    max_batch_timeout: float = 5.0
    max_retries: int = 3
    dead_letter_queue: str | None = None
    retry_delay: float = 0.0

    def __post_init__(self) -> None:
        _check_range("max_batch_size", self.max_batch_size, 1, 100)
        _check_range("max_batch_timeout", self.max_batch_timeout, 0, 60)
        _check_range("max_retries", self.max_retries, 0, 100)
        _check_range("retry_delay", self.retry_delay, 0, MAX_DELAY_SECONDS)

    @classmethod
    def from_wrangler(cls, table: Mapping[str, Any]) -> ConsumerConfig:
        known = {field.name for field in dataclasses.fields(cls)}
        unknown = set(table) - known - _IGNORED_CONSUMER_KEYS
        if unknown:
            raise ValueError(f"unknown queue consumer keys: {sorted(unknown)}")
        return cls(**{key: value for key, value in table.items() if key in known})


def _check_range(name: str, value: float, low: float, high: float) -> None:
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, not {value}")


@dataclass(frozen=True, slots=True)
class _Row:
    seq: int
    id: str
    body: bytes
    timestamp_ms: int
    attempts: int
    visible_at_ms: int


class QueueFaults:
    """Fault injection: `duplicate_next(queue, n)` delivers the next n messages twice."""

    def __init__(self) -> None:
        self._duplicates: dict[str, int] = {}

    def duplicate_next(self, queue: str, n: int = 1) -> None:
        self._duplicates[queue] = self._duplicates.get(queue, 0) + n

    def _take_duplicates(self, queue: str, available: int) -> int:
        taken = min(self._duplicates.get(queue, 0), available)
        self._duplicates[queue] = self._duplicates.get(queue, 0) - taken
        return taken


class Message:
    """One delivery of a message: `.id`, `.body`, `.attempts`, `.timestamp`, `ack()`, `retry()`."""

    def __init__(self, id: str, body: Any, attempts: int, timestamp: dt.datetime) -> None:
        self.id = id
        self.body = body
        self.attempts = attempts
        self.timestamp = timestamp
        self._decision: str | None = None
        self._delay: float | None = None

    def ack(self) -> None:
        self._decide("ack", None)

    def retry(self, delaySeconds: float | None = None) -> None:
        self._decide("retry", _checked_delay(delaySeconds) if delaySeconds is not None else None)

    def _decide(self, decision: str, delay: float | None) -> None:
        if self._decision is not None:
            log.warning(
                "message %s: %s() ignored, %s() was already called",
                self.id,
                decision,
                self._decision,
            )
            return
        self._decision, self._delay = decision, delay


class MessageBatch:
    """What `queue(self, batch, env, ctx)` receives."""

    def __init__(self, queue: str, messages: list[Message]) -> None:
        self.queue = queue
        self.messages = messages

    def ackAll(self) -> None:
        for message in self.messages:
            message.ack()

    def retryAll(self, delaySeconds: float | None = None) -> None:
        for message in self.messages:
            message.retry(delaySeconds=delaySeconds)


class LocalQueue:
    """A producer binding (`env.MONITOR_QUEUE`)."""

    def __init__(self, name: str, broker: QueueBroker) -> None:
        self.name = name
        self._broker = broker

    async def send(
        self,
        body: Any,
        contentType: str | None = None,
        delaySeconds: float = 0,
    ) -> None:
        encoded, size = _encode(body, contentType)
        if size > MAX_MESSAGE_BYTES:
            raise _queue_error(
                f"Queue send failed: message too large ({size} bytes; the limit is "
                f"{MAX_MESSAGE_BYTES} bytes)"
            )
        self._broker._enqueue(
            self.name, [(encoded, contentType or "json", _checked_delay(delaySeconds))]
        )

    async def sendBatch(
        self,
        messages: Iterable[Mapping[str, Any]],
        delaySeconds: float = 0,
    ) -> None:
        items = list(messages)
        if len(items) > MAX_BATCH_MESSAGES:
            raise _queue_error(
                f"Queue sendBatch failed: {len(items)} messages; the limit is {MAX_BATCH_MESSAGES}"
            )
        batch_delay = _checked_delay(delaySeconds)
        rows, total = [], 0
        for item in items:
            encoded, size = _encode(item["body"], item.get("contentType"))
            if size > MAX_MESSAGE_BYTES:
                raise _queue_error(
                    f"Queue sendBatch failed: a message is too large ({size} bytes; the limit "
                    f"is {MAX_MESSAGE_BYTES} bytes)"
                )
            total += size
            delay = item.get("delaySeconds")
            rows.append(
                (
                    encoded,
                    item.get("contentType") or "json",
                    batch_delay if delay is None else _checked_delay(delay),
                )
            )
        if total > MAX_BATCH_BYTES:
            raise _queue_error(
                f"Queue sendBatch failed: batch too large ({total} bytes; the limit is "
                f"{MAX_BATCH_BYTES} bytes)"
            )
        self._broker._enqueue(self.name, rows)


def _checked_delay(seconds: float) -> float:
    if not isinstance(seconds, (int, float)) or not 0 <= seconds <= MAX_DELAY_SECONDS:
        raise _queue_error(
            f"delaySeconds must be between 0 and {MAX_DELAY_SECONDS}, not {seconds!r}"
        )
    return float(seconds)


def _encode(body: Any, content_type: str | None) -> tuple[bytes, int]:
    """(stored form, size counted against the limits) of a message body."""
    kind = content_type or "json"
    if kind not in CONTENT_TYPES:
        raise JsException("TypeError", f"Unknown queue message content type: {kind!r}")
    value = crossing(body)
    if kind == "json":
        try:
            text = json.dumps(value)
        except (TypeError, ValueError) as exc:
            raise JsException(
                "TypeError", f"Queue message body is not JSON-serializable: {exc}"
            ) from None
        return pickle.dumps(crossing(json.loads(text))), len(text.encode("utf-8"))
    if kind == "text":
        if not isinstance(value, str):
            raise JsException("TypeError", "A 'text' queue message body must be a string")
        return pickle.dumps(value), len(value.encode("utf-8"))
    if kind == "bytes":
        if not isinstance(value, memoryview):
            raise JsException("TypeError", "A 'bytes' queue message body must be bytes")
        return pickle.dumps(bytes(value)), value.nbytes
    return pickle.dumps(_picklable(value)), serialized_size(value)


def _picklable(value: Any) -> Any:
    # Crossed values are plain data except memoryview; store bytes, `crossing` restores the view.
    if isinstance(value, memoryview):
        return bytes(value)
    if isinstance(value, dict):
        return {key: _picklable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_picklable(item) for item in value]
    return value


Handler = Callable[[MessageBatch], Awaitable[None]]


class QueueBroker:
    """Stores messages in SQLite and delivers them to a consumer handler in batches."""

    def __init__(
        self,
        db_path: str | Path,
        *,
        clock: Clock,
        consumers: Iterable[Mapping[str, Any]] = (),
    ) -> None:
        self._clock = clock
        self._db = sqlite3.connect(db_path)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # crash-safe in WAL mode; see d1.open_sqlite
        self._db.executescript(_SCHEMA)
        self._consumers: dict[str, ConsumerConfig] = {}
        self.faults = QueueFaults()
        for table in consumers:
            self.configure_consumer(table)

    def configure_consumer(self, table: Mapping[str, Any]) -> ConsumerConfig:
        config = ConsumerConfig.from_wrangler(table)
        self._consumers[config.queue] = config
        return config

    def producer(self, name: str) -> LocalQueue:
        return LocalQueue(name, self)

    def close(self) -> None:
        self._db.close()

    def pending(self, queue: str) -> int:
        """Messages (delivery slots) stored for `queue`, due or not."""
        row = self._db.execute("SELECT count(*) FROM queue_messages WHERE queue = ?", (queue,))
        count: int = row.fetchone()[0]
        return count

    def _config(self, queue: str) -> ConsumerConfig:
        return self._consumers.get(queue) or ConsumerConfig(queue)

    def _now(self) -> int:
        return math.floor(self._clock.now_ms())

    def _enqueue(self, queue: str, rows: list[tuple[bytes, str, float]]) -> None:
        now = self._now()
        with self._db:
            self._db.executemany(
                "INSERT INTO queue_messages (queue, id, body, content_type, timestamp_ms,"
                " visible_at_ms) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (queue, uuid.uuid4().hex, body, kind, now, now + round(delay * 1000))
                    for body, kind, delay in rows
                ],
            )

    def next_due_ms(self) -> int | None:
        """When `deliver_due` will next have a batch for some configured consumer, or None."""
        times = [t for queue in self._consumers if (t := self._ready_at(queue)) is not None]
        return min(times, default=None)

    def _ready_at(self, queue: str) -> int | None:
        config = self._config(queue)
        visible: list[int] = [
            row[0]
            for row in self._db.execute(
                "SELECT visible_at_ms FROM queue_messages WHERE queue = ?"
                " ORDER BY visible_at_ms, seq LIMIT ?",
                (queue, config.max_batch_size),
            )
        ]
        if not visible:
            return None
        timeout_at = visible[0] + round(config.max_batch_timeout * 1000)
        full_at = visible[-1] if len(visible) == config.max_batch_size else timeout_at
        return min(full_at, timeout_at)

    async def deliver_due(self, queue: str, handler: Handler, *, flush: bool = False) -> int:
        """Deliver every batch that is ready now; returns the number of messages delivered.

        Only messages due when the call starts are considered, so a message retried without delay
        waits for the next call instead of looping here. `flush` delivers a last partial batch
        without waiting for `max_batch_timeout` (a CLI draining the queue on purpose).
        """
        config, now = self._config(queue), self._now()
        rows = self._with_duplicates(queue, self._due_rows(queue, now))
        delivered = 0
        for start in range(0, len(rows), config.max_batch_size):
            chunk = rows[start : start + config.max_batch_size]
            partial = len(chunk) < config.max_batch_size
            if partial and not flush and not self._timed_out(chunk[0], config, now):
                break
            await self._deliver(queue, chunk, handler, config)
            delivered += len(chunk)
        return delivered

    def _due_rows(self, queue: str, now: int) -> list[_Row]:
        cursor = self._db.execute(
            "SELECT seq, id, body, timestamp_ms, attempts, visible_at_ms FROM queue_messages"
            " WHERE queue = ? AND visible_at_ms <= ? ORDER BY visible_at_ms, seq",
            (queue, now),
        )
        return [_Row(*row) for row in cursor]

    @staticmethod
    def _timed_out(oldest: _Row, config: ConsumerConfig, now: int) -> bool:
        return oldest.visible_at_ms + round(config.max_batch_timeout * 1000) <= now

    def _with_duplicates(self, queue: str, rows: list[_Row]) -> list[_Row]:
        count = self.faults._take_duplicates(queue, len(rows))
        result: list[_Row] = []
        for index, row in enumerate(rows):
            result.append(row)
            if index < count:
                result.append(self._clone(queue, row))  # lands in this batch or the next
        return result

    def _clone(self, queue: str, row: _Row) -> _Row:
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO queue_messages (queue, id, body, content_type, timestamp_ms, attempts,"
                " visible_at_ms) SELECT queue, id, body, content_type, timestamp_ms, attempts,"
                " visible_at_ms FROM queue_messages WHERE seq = ?",
                (row.seq,),
            )
        assert cursor.lastrowid is not None  # set by every successful INSERT
        return dataclasses.replace(row, seq=cursor.lastrowid)

    async def _deliver(
        self, queue: str, rows: list[_Row], handler: Handler, config: ConsumerConfig
    ) -> None:
        with self._db:  # the attempt counts even if the process dies inside the handler
            self._db.executemany(
                "UPDATE queue_messages SET attempts = attempts + 1 WHERE seq = ?",
                [(row.seq,) for row in rows],
            )
        messages = [_message(row) for row in rows]
        failed = False
        try:
            await handler(MessageBatch(queue, messages))
        except Exception:
            log.exception(
                "queue %s: consumer raised; unacknowledged messages will be retried", queue
            )
            failed = True
        with self._db:
            for row, message in zip(rows, messages, strict=True):
                self._settle(queue, row, message, failed, config)

    def _settle(
        self, queue: str, row: _Row, message: Message, failed: bool, config: ConsumerConfig
    ) -> None:
        decision = message._decision or ("retry" if failed else "ack")
        if decision == "ack":
            self._db.execute("DELETE FROM queue_messages WHERE seq = ?", (row.seq,))
        elif message.attempts > config.max_retries:
            self._exhausted(queue, row, message, config)
        else:
            delay = config.retry_delay if message._delay is None else message._delay
            self._db.execute(
                "UPDATE queue_messages SET visible_at_ms = ? WHERE seq = ?",
                (self._now() + round(delay * 1000), row.seq),
            )

    def _exhausted(self, queue: str, row: _Row, message: Message, config: ConsumerConfig) -> None:
        dlq = config.dead_letter_queue
        if dlq is None:
            log.warning(
                "queue %s: message %s dropped after %d attempts (no dead_letter_queue)",
                queue,
                message.id,
                message.attempts,
            )
            self._db.execute("DELETE FROM queue_messages WHERE seq = ?", (row.seq,))
            return
        log.warning(
            "queue %s: message %s moved to %s after %d attempts",
            queue,
            message.id,
            dlq,
            message.attempts,
        )
        self._db.execute(
            "UPDATE queue_messages SET queue = ?, attempts = 0, visible_at_ms = ? WHERE seq = ?",
            (dlq, self._now(), row.seq),
        )


def _message(row: _Row) -> Message:
    timestamp = crossing(dt.datetime.fromtimestamp(row.timestamp_ms / 1000, dt.UTC))
    return Message(row.id, crossing(pickle.loads(row.body)), row.attempts + 1, timestamp)
