"""The Workflow binding as Python code sees it through the SDK (`_WorkflowBindingWrapper`,
`_WorkflowInstanceWrapper`; docs/platform.md §4.4).

Keyword arguments on a binding call become one trailing JS object in the SDK, so
`create(id="a", params={...})` and `create({"id": "a", "params": {...}})` are the same call.
Every value crossing here goes through `crossing()` inside the engine.
"""

from __future__ import annotations

from typing import Any, Protocol

from local_platform.errors import JsException
from local_platform.rpc import JsDict

BATCH_MAX = 100  # createBatch: at most 100 instances per call (Workflows docs)


class WorkflowEngine(Protocol):
    """What the binding asks of the engine (workflows.WorkflowEngine), named here so that this
    module does not import the engine's."""

    async def create(self, workflow_name: str, options: dict[str, Any]) -> str: ...
    def status(self, instance_id: str) -> JsDict: ...
    def exists(self, instance_id: str, workflow_name: str) -> None: ...
    def terminate(self, instance_id: str) -> None: ...
    def pause(self, instance_id: str) -> None: ...
    def resume(self, instance_id: str) -> None: ...
    def restart(self, instance_id: str) -> None: ...
    def send_event(self, instance_id: str, event: dict[str, Any]) -> None: ...


class WorkflowInstance:
    def __init__(self, engine: WorkflowEngine, instance_id: str) -> None:
        self._engine = engine
        self.id = instance_id

    def __repr__(self) -> str:
        return f"WorkflowInstance(id={self.id!r})"

    async def status(self) -> JsDict:
        return self._engine.status(self.id)

    async def terminate(self) -> None:
        self._engine.terminate(self.id)

    async def pause(self) -> None:
        self._engine.pause(self.id)

    async def resume(self) -> None:
        self._engine.resume(self.id)

    async def restart(self) -> None:
        self._engine.restart(self.id)

    async def send_event(self, event: dict[str, Any] | None = None, /, **fields: Any) -> None:
        self._engine.send_event(self.id, _one_object(event, fields))

    sendEvent = send_event


class WorkflowBinding:
    def __init__(self, engine: WorkflowEngine, workflow_name: str) -> None:
        self._engine = engine
        self.workflow_name = workflow_name

    async def create(
        self, options: dict[str, Any] | None = None, /, **fields: Any
    ) -> WorkflowInstance:
        instance_id = await self._engine.create(self.workflow_name, _one_object(options, fields))
        return WorkflowInstance(self._engine, instance_id)

    async def create_batch(self, batch: list[dict[str, Any]]) -> list[WorkflowInstance]:
        if len(batch) > BATCH_MAX:
            # Assumption: the limit is documented, the rejection's text is not; this one is ours.
            raise JsException("RangeError", f"createBatch accepts at most {BATCH_MAX} instances")
        return [await self.create(options) for options in batch]

    createBatch = create_batch

    async def get(self, instance_id: str) -> WorkflowInstance:
        self._engine.exists(instance_id, self.workflow_name)
        return WorkflowInstance(self._engine, instance_id)


def _one_object(positional: dict[str, Any] | None, fields: dict[str, Any]) -> dict[str, Any]:
    # JS reads only the first argument; the SDK turns kwargs into that object when none is given.
    if positional is not None:
        return dict(positional)
    return {k: v for k, v in fields.items() if v is not None}
