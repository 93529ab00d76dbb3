"""Specification of the local Workflows engine's binding (docs/platform.md §1.4, §4.4)."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest

from local_platform.clock import ManualClock, SystemClock
from local_platform.errors import JsException
from local_platform.rpc import JsDict
from local_platform.workflows import ALREADY_EXISTS, INVALID_ID, NOT_FOUND, WorkflowEngine
from tests.local_platform.workflow_harness import (  # noqa: F401  (fixtures)
    Flow,
    clock,
    db_path,
    engine,
    flow,
    returns,
    run_to_end,
)

# -- binding: create / get / status / terminate -----------------------------------------------


async def test_completed_instance_status_shape(engine: WorkflowEngine) -> None:
    status = await run_to_end(engine, await returns({"pages": 3, "raw": b"x"}))
    assert type(status) is JsDict
    assert status == {
        "status": "complete",
        "output": {"pages": 3, "raw": memoryview(b"x")},
        "error": None,
    }
    assert type(status["output"]) is JsDict


async def test_event_carries_params_timestamp_id_and_name(
    engine: WorkflowEngine, clock: ManualClock
) -> None:
    seen: list[Any] = []

    async def body(event: Any, step: Any) -> None:
        seen.append(event)

    instance = await flow(engine, body).create(id="audit-1", params={"url": "https://a.test"})
    await engine.wait(instance.id)
    (event,) = seen
    assert type(event) is JsDict and type(event["payload"]) is JsDict
    assert event == {
        "payload": {"url": "https://a.test"},
        "instanceId": "audit-1",
        "workflowName": "flow",
        "timestamp": dt.datetime.fromtimestamp(clock.now_ms() / 1000, dt.UTC).replace(tzinfo=None),
    }


async def test_params_default_to_empty_dict_and_id_to_a_uuid(engine: WorkflowEngine) -> None:
    seen: list[Any] = []

    async def body(event: Any, step: Any) -> None:
        seen.append(event)

    instance = await flow(engine, body).create()
    await engine.wait(instance.id)
    assert seen[0]["payload"] == {}
    assert len(instance.id) == 36 and instance.id.count("-") == 4


async def test_create_accepts_one_positional_dict(engine: WorkflowEngine) -> None:
    binding = flow(engine, await returns(None))
    instance = await binding.create({"id": "pos", "params": {"a": 1}})
    assert instance.id == "pos"
    assert (await (await binding.get("pos")).status())["status"] in (
        "queued",
        "running",
        "complete",
    )


@pytest.mark.parametrize("instance_id", ["a", "_a", "A9", "a-b_c", "x" * 100, "9"])
async def test_valid_ids(engine: WorkflowEngine, instance_id: str) -> None:
    instance = await flow(engine, await returns(None)).create(id=instance_id)
    assert instance.id == instance_id


@pytest.mark.parametrize("instance_id", ["-a", "a b", "a.b", "a/b", "x" * 101, "é"])
async def test_invalid_ids_are_refused(engine: WorkflowEngine, instance_id: str) -> None:
    with pytest.raises(JsException) as caught:
        await flow(engine, await returns(None)).create(id=instance_id)
    assert caught.value.message == INVALID_ID


@pytest.mark.parametrize("finish", ["complete", "terminated"])
async def test_duplicate_id_is_refused_with_production_text(
    engine: WorkflowEngine, finish: str
) -> None:
    binding = flow(engine, await returns(None))
    instance = await binding.create(id="dup")
    if finish == "terminated":
        await instance.terminate()
    await engine.wait("dup")
    with pytest.raises(JsException) as caught:
        await binding.create(id="dup")
    assert (caught.value.name, caught.value.message) == ("Error", ALREADY_EXISTS)
    assert ALREADY_EXISTS == "(instance.already_exists) Instance already exists"


async def test_get_missing_instance_raises_production_not_found(engine: WorkflowEngine) -> None:
    binding = flow(engine, await returns(None))
    with pytest.raises(JsException) as caught:
        await binding.get("nope")
    assert (caught.value.name, caught.value.message) == ("Error", NOT_FOUND)
    assert str(caught.value) == "Error: (instance.not_found) Instance not found"


async def test_get_does_not_find_another_workflows_instance(engine: WorkflowEngine) -> None:
    await flow(engine, await returns(None), name="one").create(id="shared")
    with pytest.raises(JsException, match=re.escape("instance.not_found")):
        await flow(engine, await returns(None), name="two").get("shared")


async def test_create_batch(engine: WorkflowEngine) -> None:
    binding = flow(engine, await returns(1))
    made = await binding.create_batch([{"id": f"b{i}"} for i in range(3)])
    assert [m.id for m in made] == ["b0", "b1", "b2"]
    with pytest.raises(JsException, match="at most 100"):
        await binding.create_batch([{} for _ in range(101)])


async def test_tuple_params_are_refused_before_sending(engine: WorkflowEngine) -> None:
    with pytest.raises(TypeError, match="cannot be sent over RPC"):
        await flow(engine, await returns(None)).create(params={"t": (1, 2)})


async def test_uncaught_exception_errors_the_instance(engine: WorkflowEngine) -> None:
    async def body(event: Any, step: Any) -> None:
        raise ValueError("bad start url")

    status = await run_to_end(engine, body)
    assert status == {
        "status": "errored",
        "output": None,
        "error": {"name": "ValueError", "message": "bad start url"},
    }


async def test_tuple_output_errors_the_instance(engine: WorkflowEngine) -> None:
    status = await run_to_end(engine, await returns((1, 2)))
    assert status["status"] == "errored"
    assert status["error"] == {
        "name": "TypeError",
        "message": "<class 'tuple'> cannot be sent over RPC.",
    }


async def test_terminate_stops_a_waiting_instance(db_path: Path) -> None:
    engine = WorkflowEngine(db_path, clock=SystemClock())  # ManualClock would time the wait out
    after: list[str] = []

    async def body(event: Any, step: Any) -> None:
        await step.wait_for_event("approval", "approve")
        after.append("ran")

    instance = await flow(engine, body).create(id="t")
    await engine.run_until_idle()
    assert (await instance.status())["status"] == "waiting"
    await instance.terminate()
    await instance.send_event({"type": "approve", "payload": None})
    await engine.run_until_idle()
    assert await instance.status() == {"status": "terminated", "output": None, "error": None}
    assert after == []
    await engine.aclose()


async def test_execution_context_accepts_coroutines(engine: WorkflowEngine) -> None:
    done: list[int] = []

    async def later() -> None:
        done.append(1)

    class WithCtx(Flow):
        async def run(self, event: Any, step: Any) -> None:
            self.ctx.waitUntil(later())

    engine.register("ctx", WithCtx, dict)
    instance = await engine.binding("ctx").create()
    await engine.wait(instance.id)
    await asyncio.sleep(0)
    assert done == [1]
