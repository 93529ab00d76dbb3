"""Work running at once, taken back as it settles: the tasks inside a chunk's fetch window.

The owner decides when to start more (`len` against its window); `settle` waits for the first
to finish and hands back the results of all that have, one at a time: each task leaves the set
only as its result is taken, so when a result raises, the tasks not yet taken stay here for
`cancel_all` to collect.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterator

__all__ = ["InFlight"]


class InFlight[T]:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Future[T]] = set()

    def __len__(self) -> int:
        return len(self._tasks)

    def start(self, work: Awaitable[T]) -> None:
        self._tasks.add(asyncio.ensure_future(work))

    async def settle(self, timeout_s: float | None = None) -> Iterator[T]:
        """Wait until at least one task has finished, or `timeout_s` has passed (then possibly
        none has: the owner paces its launches, crawl.pacing); the results of those that have."""
        done, _ = await asyncio.wait(
            self._tasks, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED
        )
        return self._take(done)

    def _take(self, done: set[asyncio.Future[T]]) -> Iterator[T]:
        for task in done:
            self._tasks.discard(task)
            yield task.result()

    async def cancel_all(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks.clear()
