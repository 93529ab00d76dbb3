"""The running event loop's clock, moved forward by the test.

`asyncio.timeout`, `asyncio.sleep` and every `call_later` read `loop.time()`. A test that races a
real pause against a real timeout passes or fails with the machine's load; a test that moves this
clock past the deadline, at the moment it chooses (once an event says the code under test got
there), makes the deadline pass then and only then, on an idle or a loaded machine alike. Between
moves the clock runs at the real rate; moves only add, so it never goes back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest


class LoopClock:
    def __init__(self, real: Callable[[], float]) -> None:
        self._real, self._ahead = real, 0.0

    def time(self) -> float:
        return self._real() + self._ahead

    def advance(self, seconds: float) -> None:
        """`seconds` pass at once: every deadline they reach is due at the loop's next turn."""
        self._ahead += seconds


def loop_clock(monkeypatch: pytest.MonkeyPatch) -> LoopClock:
    """The running loop's clock, replaced until the test ends by one the test moves."""
    loop = asyncio.get_running_loop()
    clock = LoopClock(loop.time)
    monkeypatch.setattr(loop, "time", clock.time)
    return clock
