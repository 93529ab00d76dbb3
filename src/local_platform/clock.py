"""Time for the local platform: the real clock, or one that tests move by hand.

Alarms, workflow retry delays, step timeouts, cron and queue delays all read time through a Clock,
so a test can jump seven days ahead without waiting.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    def now_ms(self) -> float:
        return time.time() * 1000.0

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class ManualClock:
    """A clock that only moves when told to.

    `sleep` does not wait for real: it advances the clock by the requested amount and yields once,
    so retry back-offs and delays cost no wall time in tests while their order is preserved.
    """

    def __init__(self, start_ms: float = 1_767_225_600_000.0) -> None:  # 2026-01-01T00:00:00Z
        self._now_ms = start_ms

    def now_ms(self) -> float:
        return self._now_ms

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock cannot go backwards")
        self._now_ms += seconds * 1000.0

    async def sleep(self, seconds: float) -> None:
        self.advance(max(0.0, seconds))
        await asyncio.sleep(0)
