"""The one `ctx` the platform hands to handlers and workflows (docs/platform.md §1.2)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from local_platform.execution_context import ExecutionContext


async def test_wait_until_starts_at_once_and_drain_waits_for_it() -> None:
    ctx = ExecutionContext()
    events: list[str] = []

    async def work() -> None:
        events.append("started")
        await asyncio.sleep(0)
        events.append("finished")

    ctx.waitUntil(work())
    await asyncio.sleep(0)
    assert events == ["started"]
    await ctx.drain()
    assert events == ["started", "finished"]


async def test_drain_waits_for_work_added_while_draining() -> None:
    ctx = ExecutionContext()
    done: list[int] = []

    async def second() -> None:
        done.append(2)

    async def first() -> None:
        await asyncio.sleep(0)
        ctx.waitUntil(second())
        done.append(1)

    ctx.waitUntil(first())
    await ctx.drain()
    assert done == [1, 2]


async def test_failed_work_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    ctx = ExecutionContext()

    async def boom() -> None:
        raise ValueError("background failure")

    ctx.waitUntil(boom())
    with caplog.at_level(logging.ERROR, logger="siteaudit.local"):
        await ctx.drain()
    assert "waitUntil work failed" in caplog.text


def test_shape() -> None:
    ctx = ExecutionContext()
    assert ctx.props == {}
    # It returns nothing, which is what this test pins.
    assert ctx.passThroughOnException() is None  # type: ignore[func-returns-value]
