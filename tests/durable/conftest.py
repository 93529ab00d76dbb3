"""Shared fixtures for the scratchpad's tests."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from local_platform.runtime import LocalPlatform


@pytest.fixture(scope="module")
def runner(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[asyncio.AbstractEventLoop, LocalPlatform]]:
    """One platform on a private event loop, shared by every example: hypothesis drives sync
    tests only, so the test runs the loop itself; each example gets a fresh object."""
    loop = asyncio.new_event_loop()
    state: Path = tmp_path_factory.mktemp("scratchpad-property")

    async def start() -> LocalPlatform:
        return LocalPlatform(state / "state")

    local = loop.run_until_complete(start())
    try:
        yield loop, local
    finally:
        loop.run_until_complete(local.close())
        loop.close()
