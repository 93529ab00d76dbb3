"""A chunk's persistence pipeline: finished pages grouped into sub-batches, each written in turn.

Sub-batches are small at first (5 pages, so the window learns page weight early), then 25. Each
one is written while fetching goes on, after the one before it (pipelined with fetching,
serialized with itself); a chunk that gets more than `MAX_QUEUED_PERSIST_BATCHES` ahead of its
writer stops launching fetches until the writer catches up. (docs/original-system.md §4.4-4.5)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

__all__ = [
    "FIRST_PERSIST_BATCH_SIZE",
    "MAX_QUEUED_PERSIST_BATCHES",
    "PERSIST_BATCH_SIZE",
    "Persister",
    "SubBatches",
]

FIRST_PERSIST_BATCH_SIZE = 5
PERSIST_BATCH_SIZE = 25
MAX_QUEUED_PERSIST_BATCHES = 2


class SubBatches[T]:
    """Finished pages gathered until a sub-batch is full: the first at 5, every later one at 25."""

    def __init__(self) -> None:
        self._pages: list[T] = []
        self._target = FIRST_PERSIST_BATCH_SIZE

    def add(self, page: T) -> list[T] | None:
        """Gather `page`; the sub-batch it filled, or None while there is room."""
        self._pages.append(page)
        return self.take() if len(self._pages) >= self._target else None

    def take(self) -> list[T] | None:
        """Whatever is gathered, full or not (None if nothing); the next sub-batch is a full one."""
        if not self._pages:
            return None
        pages, self._pages = self._pages, []
        self._target = PERSIST_BATCH_SIZE
        return pages


class Persister[T]:
    """Writes the sub-batches it is handed one after another, counting what it wrote."""

    def __init__(self, write: Callable[[list[T]], Awaitable[object]]) -> None:
        self._write = write
        self._last: asyncio.Future[None] | None = None
        self.queued = 0  # sub-batches handed over and not yet written
        self.persisted = 0  # pages written

    def submit(self, batch: list[T]) -> None:
        self.queued += 1
        self._last = asyncio.ensure_future(self._write_after(self._last, batch))

    @property
    def keeps_up(self) -> bool:
        """Whether the writer is close enough behind for fetching to go on."""
        return self.queued <= MAX_QUEUED_PERSIST_BATCHES

    async def _write_after(self, previous: Awaitable[None] | None, batch: list[T]) -> None:
        if previous is not None:
            await previous
        try:
            await self._write(batch)
            self.persisted += len(batch)
        finally:
            self.queued -= 1

    async def caught_up(self) -> None:
        """Wait for every write handed over so far; a cancelled waiter leaves them running."""
        if self._last is not None:
            await asyncio.shield(self._last)

    async def drain(self) -> None:
        """Wait for every write handed over so far; cancelling the waiter cancels them."""
        if self._last is not None:
            await self._last
