"""The `ctx` the platform hands to entrypoints: one `ExecutionContext` for every event.

A fetch, scheduled or queue handler, a WorkflowEntrypoint and (as the base of
`DurableObjectState`) a Durable Object all receive this shape. `waitUntil` starts the work at once,
as the SDK's patched `waitUntil` does with a coroutine (it wraps it in a task); the platform then
`drain()`s the context before the event counts as finished. A failure in `waitUntil` work is
logged and does not fail the event, as in the runtime (docs/platform.md §1.2).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

log = logging.getLogger("siteaudit.local")


class ExecutionContext:
    """`ctx`: `waitUntil`, `passThroughOnException` and `props`."""

    def __init__(self, *, pending: set[asyncio.Future[Any]] | None = None) -> None:
        # `pending` may be shared with an owner that outlives this ctx (a Durable Object
        # namespace keeps background work of evicted objects alive).
        self._pending: set[asyncio.Future[Any]] = set() if pending is None else pending
        self.props: dict[str, Any] = {}

    def waitUntil(self, awaitable: Awaitable[Any]) -> None:
        future = asyncio.ensure_future(awaitable)
        self._pending.add(future)
        future.add_done_callback(self._settled)

    def passThroughOnException(self) -> None:
        """Meaningless without an origin to fall back to; present because the runtime has it."""

    async def drain(self) -> None:
        """Wait for every `waitUntil` work, including work added while waiting."""
        while self._pending:
            await asyncio.wait(set(self._pending))

    def _settled(self, future: asyncio.Future[Any]) -> None:
        self._pending.discard(future)
        if not future.cancelled() and future.exception() is not None:
            log.error("waitUntil work failed", exc_info=future.exception())
