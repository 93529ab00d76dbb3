"""The hourly cron's job: put one message per due monitor on the monitor queue, nothing more.

Running the audits here would make one cron invocation wait on every site in turn; instead the
producer only selects (keyset pages of `monitors_active_due_idx`, never a scan of all monitors)
and enqueues, and the queue consumer (service.monitor_runs) starts each run on its own. Messages go
out with `sendBatch` in chunks of at most 100 messages and 256 KB (docs/platform.md §6): a batch
over either limit is refused whole. A monitor left out by a failure (a refused send, a crash) is
still due at the next hourly cron, because only a started run moves its `next_due_at`.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from auditdb import monitors
from auditdb.queue_messages import MessageKind
from common import ports
from common.bindings import Env, QueueSendRequest
from common.wire import JsonRecord
from maintenance.monitor_schedule import recency_cutoffs

log = logging.getLogger("siteaudit.monitors")

MONITOR_CRON = "0 * * * *"
# Queues limits (docs/platform.md §6; 1 KB = 1000 B), and the per-message metadata the platform
# counts on top of each body.
MAX_BATCH_MESSAGES = 100
MAX_BATCH_BYTES = 256_000
MESSAGE_OVERHEAD_BYTES = 100
DUE_PAGE_SIZE = 500


@dataclass(frozen=True, slots=True)
class MonitorDue(JsonRecord):
    """The queue message: a monitor whose slot `due_at` has come. Ids only; the consumer reads
    the monitor's settings when it runs it."""

    monitor_id: str
    due_at: str
    kind: MessageKind = MessageKind.MONITOR_DUE  # the queue carries other kinds too


@dataclass(frozen=True, slots=True)
class EnqueueSummary(JsonRecord):
    enqueued: int
    send_batch_calls: int


class BatchSender:
    """Buffers messages and sends a batch whenever the next one would break a limit."""

    def __init__(self, env: Env) -> None:
        self._env = env
        self._batch: list[QueueSendRequest] = []
        self._bytes = 0
        self.sent = 0
        self.calls = 0

    async def add(self, message: MonitorDue) -> None:
        body = message.to_dict()
        size = len(json.dumps(body).encode()) + MESSAGE_OVERHEAD_BYTES
        if len(self._batch) == MAX_BATCH_MESSAGES or self._bytes + size > MAX_BATCH_BYTES:
            await self.flush()
        self._batch.append({"body": body})
        self._bytes += size

    async def flush(self) -> None:
        if not self._batch:
            return
        await self._env.MONITOR_QUEUE.sendBatch(self._batch)
        self.sent += len(self._batch)
        self.calls += 1
        self._batch, self._bytes = [], 0


async def enqueue_due_monitors(env: Env) -> EnqueueSummary:
    """One message per active monitor that is due now and neither ran recently nor is claimed."""
    now_ms = ports.now_ms()
    now, cutoffs = ports.iso_from_ms(now_ms), recency_cutoffs(now_ms)
    sender = BatchSender(env)
    after: tuple[str, str] | None = None
    while True:
        page = await monitors.read_due_page(env.DB, now, cutoffs, after, DUE_PAGE_SIZE)
        for due_at, monitor_id in page:
            await sender.add(MonitorDue(monitor_id, due_at))
        if len(page) < DUE_PAGE_SIZE:
            break
        after = page[-1]
    await sender.flush()
    log.info("monitors: %d due, %d sendBatch calls", sender.sent, sender.calls)
    return EnqueueSummary(sender.sent, sender.calls)
