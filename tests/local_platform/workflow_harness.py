"""Shared harness for the workflow engine's tests: a workflow whose body is the test's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from local_platform.clock import ManualClock
from local_platform.rpc import JsDict
from local_platform.workflows import WorkflowBinding, WorkflowEngine

Body = Callable[[Any, Any], Awaitable[Any]]


class Flow:
    """A workflow whose `run` is the test's `body`, so each test states its own steps."""

    def __init__(self, ctx: Any, env: Any) -> None:
        self.ctx, self.env = ctx, env

    async def run(self, event: Any, step: Any) -> Any:
        return await self.env["body"](event, step)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "workflows.sqlite3"


@pytest.fixture
async def engine(db_path: Path, clock: ManualClock) -> AsyncIterator[WorkflowEngine]:
    engine = WorkflowEngine(db_path, clock=clock)
    yield engine
    await engine.aclose()


def flow(engine: WorkflowEngine, body: Body, name: str = "flow") -> WorkflowBinding:
    engine.register(name, Flow, lambda: {"body": body})
    return engine.binding(name)


async def run_to_end(engine: WorkflowEngine, body: Body, **create: Any) -> JsDict:
    instance = await flow(engine, body).create(**create)
    return await engine.wait(instance.id)


async def returns(value: Any) -> Body:
    async def body(event: Any, step: Any) -> Any:
        return value

    return body


async def until_status(engine: WorkflowEngine, instance_id: str, status: str) -> None:
    for _ in range(1000):
        if engine.status(instance_id)["status"] == status:
            return
        await asyncio.sleep(0)
    raise AssertionError(f"{instance_id} never reached {status}: {engine.status(instance_id)}")
