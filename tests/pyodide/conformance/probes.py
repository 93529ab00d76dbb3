"""Probe entrypoints the conformance checks call through: a Durable Object and a Workflow.

Imported as `tests.pyodide.conformance.probes` on CPython (after the local platform installed its
`workers` module) and as `conformance.probes` inside Pyodide (with the real SDK).
"""

from __future__ import annotations

from typing import Any

from workers import DurableObject, WorkflowEntrypoint
from workers.workflows import NonRetryableError

from . import checks

CALLS: dict[tuple[str, str], int] = {}  # (instance id, step name) -> callback invocations
QUICK = {"retries": {"limit": 2, "delay": 1, "backoff": "constant"}, "timeout": "1 minute"}


def _bump(instance_id: str, name: str) -> int:
    CALLS[(instance_id, name)] = CALLS.get((instance_id, name), 0) + 1
    return CALLS[(instance_id, name)]


class ProbeObject(DurableObject):
    def echo(self, value: Any) -> Any:
        return value

    def type_of(self, value: Any) -> str:
        return type(value).__name__

    def fail(self, message: str) -> None:
        raise ValueError(message)

    async def storage_check(self, name: str) -> str:
        await checks.STORAGE_CHECKS[name](self.ctx.storage)
        return "ok"


class ProbeFlow(WorkflowEntrypoint):
    async def run(self, event: Any, step: Any) -> Any:
        mode = event["payload"]["mode"]
        iid = event["instanceId"]
        facts = {
            "payload": dict(event["payload"]),
            "timestamp": type(event["timestamp"]).__name__,
            "instance_id": iid,
        }

        if mode == "retry":

            @step.do("flaky", config=QUICK)
            async def flaky(ctx: Any) -> dict[str, Any]:
                calls = _bump(iid, "flaky")
                if calls < 3:
                    raise ValueError(f"attempt {calls} fails")
                return {"attempt": ctx["attempt"], "calls": calls, "step": dict(ctx["step"])}

            @step.do("uses-flaky", config=QUICK)
            async def uses_flaky(
                flaky: Any,
            ) -> dict[str, Any]:  # implicit dependency: flaky's result
                return {"seen_calls": flaky["calls"]}

            first = await flaky()
            used = await uses_flaky()
            again = await flaky()  # a second occurrence of the name is a new step
            return {
                **facts,
                "first": dict(first),
                "used": dict(used),
                "again": dict(again),
                "calls": CALLS[(iid, "flaky")],
            }

        if mode == "non_retryable":

            @step.do("stop", config=QUICK)
            async def stop() -> None:
                _bump(iid, "stop")
                raise NonRetryableError("stop here")

            await stop()

        if mode in ("exhaust", "tuple"):

            @step.do("doomed", config={"retries": {"limit": 1, "delay": 1, "backoff": "constant"}})
            async def doomed() -> Any:
                _bump(iid, "doomed")
                if mode == "tuple":
                    return (1, 2)
                raise ValueError("always")

            try:
                await doomed()
            except Exception as exc:
                return {
                    **facts,
                    "caught": type(exc).__name__,
                    "message": str(exc),
                    "calls": CALLS[(iid, "doomed")],
                }
        return facts
