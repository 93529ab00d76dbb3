"""Cloudflare Workflows on the local platform (docs/platform.md §1.4, §4).

`WorkflowEngine` keeps every instance, step result and event in one SQLite file and runs each
instance's `run(event, step)` as an asyncio task. `engine.binding(name)` is what the Worker sees as
`env.<WORKFLOW>`: `create`, `create_batch`, `get`, and instance handles with `status`,
`terminate`, `pause`, `resume`, `restart`, `send_event`. A new engine on the same file sees
everything, and `resume_incomplete()` re-runs `queued`/`running` instances from the top of
`run()`, replaying finished steps from their stored results (workflow_runtime.py).

Instance lifecycle (status strings are the platform's exact `InstanceStatus` values):

    queued -> running <-> waiting            (sleep / waitForEvent)
    running|waiting -> waitingForPause -> paused -> running   (pause() takes effect between steps)
    running -> complete | errored            (run() returns / raises, or a platform kill)
    any unfinished -> terminated             (terminate())
    any -> queued                            (restart(): steps and events forgotten)
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from local_platform.clock import Clock
from local_platform.errors import JsException
from local_platform.execution_context import ExecutionContext
from local_platform.rpc import JsDict, crossing
from local_platform.workflow_binding import WorkflowBinding, WorkflowInstance
from local_platform.workflow_faults import Faults, PlatformKill, ProcessInterrupt
from local_platform.workflow_runtime import EngineStep, Run
from local_platform.workflow_step_wrapper import WorkflowStep
from local_platform.workflow_store import EventRow, InstanceRow, WorkflowStore

__all__ = ["WorkflowBinding", "WorkflowEngine", "WorkflowInstance"]

INSTANCE_ID = re.compile(r"^[a-zA-Z0-9_][a-zA-Z0-9-_]*$")  # workers-sdk validators.ts
INSTANCE_ID_MAX = 100
# Production texts [3p]; miniflare says just "instance.not_found" and swallows duplicates.
NOT_FOUND = "(instance.not_found) Instance not found"
ALREADY_EXISTS = "(instance.already_exists) Instance already exists"
INVALID_ID = "Workflow instance has invalid id"  # miniflare's WorkflowError text
FINISHED = frozenset({"complete", "errored", "terminated"})
UNFINISHED = ("queued", "running", "waiting", "waitingForPause")


@dataclass(frozen=True, slots=True)
class _Registration:
    construct: Callable[[Any, Any], Any]  # the entrypoint class, called as (ctx, env)
    env_provider: Callable[[], Any]


class WorkflowEngine:
    def __init__(self, db_path: str | Path, *, clock: Clock) -> None:
        self._store = WorkflowStore(db_path)
        self._clock = clock
        self.faults = Faults(self)
        self._registry: dict[str, _Registration] = {}
        self._runs: dict[str, Run] = {}
        self._resumed: dict[str, asyncio.Event] = {}
        self._changed = asyncio.Event()

    # -- wiring -------------------------------------------------------------------------------

    def register(
        self,
        workflow_name: str,
        construct: Callable[[Any, Any], Any],
        env_provider: Callable[[], Any],
    ) -> None:
        """`construct(ctx, env)` makes the entrypoint: its class, or what resolves the class
        on first use (local_platform.runtime imports the shell only when it is needed)."""
        self._registry[workflow_name] = _Registration(construct, env_provider)

    def binding(self, workflow_name: str) -> WorkflowBinding:
        return WorkflowBinding(self, workflow_name)

    # -- for callers (CLI, tests) -------------------------------------------------------------

    async def resume_incomplete(self) -> list[str]:
        """Re-run every registered `queued`/`running` instance from the top of `run()`."""
        ids = [i for i in self._store.ids_with_status(*UNFINISHED) if i not in self._runs]
        resumed = [i for i in ids if self._row(i).workflow in self._registry]
        for instance_id in resumed:
            self._start(instance_id)
        return resumed

    async def wait(self, instance_id: str, timeout_s: float | None = None) -> JsDict:
        """Wait until the instance's task ends (or `timeout_s` of wall time); its status."""
        run = self._runs.get(instance_id)
        if run is not None and run.task is not None:
            await asyncio.wait({run.task}, timeout=timeout_s)
        return self.status(instance_id)

    async def run_until_idle(self) -> None:
        """Return once every live instance has finished or is blocked (paused or waiting for an
        event, which only a caller can unblock)."""
        while busy := [r.task for r in self._runs.values() if r.task and not self._idle(r)]:
            self._changed.clear()
            changed = asyncio.ensure_future(self._changed.wait())
            await asyncio.wait([*busy, changed], return_when=asyncio.FIRST_COMPLETED)
            changed.cancel()

    def close(self) -> None:
        """Cancel every task and leave persisted state as it is: what a killed process leaves."""
        for run in self._runs.values():
            if run.task is not None:
                run.task.cancel()
        self._runs.clear()
        self._store.close()

    async def aclose(self) -> None:
        tasks = [r.task for r in self._runs.values() if r.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.close()

    # -- instance operations (the binding's backend) -----------------------------------------

    async def create(self, workflow_name: str, options: dict[str, Any]) -> str:
        instance_id = _checked_id(options.get("id"))
        params = crossing(options.get("params") or {})
        if workflow_name not in self._registry:
            raise LookupError(f"workflow {workflow_name!r} is not registered on this engine")
        row = InstanceRow(
            instance_id, workflow_name, params, "queued", None, None, self._clock.now_ms()
        )
        if not self._store.insert_instance(row):
            raise JsException("Error", ALREADY_EXISTS)
        self._start(instance_id)
        return instance_id

    def status(self, instance_id: str) -> JsDict:
        row = self._row(instance_id)
        status: JsDict = crossing({"status": row.status, "output": row.output, "error": row.error})
        return status

    def exists(self, instance_id: str, workflow_name: str) -> None:
        if self._row(instance_id).workflow != workflow_name:
            raise JsException("Error", NOT_FOUND)

    def terminate(self, instance_id: str) -> None:
        # Assumption: terminating a finished instance is a no-op (its text is undocumented).
        if self._row(instance_id).status not in FINISHED:
            self._stop(instance_id)
            self._store.finish(instance_id, "terminated", self._clock.now_ms())

    def pause(self, instance_id: str) -> None:
        status = self._row(instance_id).status
        if status in ("running", "waiting"):
            self._set_status(instance_id, "waitingForPause")
        elif status == "queued":
            self._set_status(instance_id, "paused")

    def resume(self, instance_id: str) -> None:
        if self._row(instance_id).status not in ("paused", "waitingForPause"):
            return
        self._set_status(instance_id, "running")
        self._resume_event(instance_id).set()
        if instance_id not in self._runs:  # paused on an engine that has since gone away
            self._start(instance_id)

    def restart(self, instance_id: str) -> None:
        self._row(instance_id)
        self._stop(instance_id)
        self._store.forget_progress(instance_id)
        self._store.finish(instance_id, "queued", self._clock.now_ms())
        self._start(instance_id)

    def send_event(self, instance_id: str, event: dict[str, Any]) -> None:
        self._row(instance_id)
        payload = crossing(event.get("payload"))
        self._store.add_event(instance_id, EventRow(event["type"], payload, self._clock.now_ms()))
        if (run := self._runs.get(instance_id)) is not None:
            run.event_arrived.set()

    # -- fault targets ---------------------------------------------------------------------------

    def kill_now(self, instance_id: str, error: dict[str, str]) -> None:
        if self._row(instance_id).status not in FINISHED:
            self._stop(instance_id)
            self._store.finish(instance_id, "errored", self._clock.now_ms(), error=error)

    def lose_now(self, instance_id: str) -> None:
        self._stop(instance_id)
        self._store.delete_instance(instance_id)

    # -- running ---------------------------------------------------------------------------------

    def _start(self, instance_id: str) -> None:
        run = Run(
            instance_id,
            self._store,
            self._clock,
            self.faults,
            set_waiting=lambda waiting: self._set_waiting(instance_id, waiting),
            pause_gate=lambda: self._pause_gate(instance_id),
        )
        self._runs[instance_id] = run
        run.task = asyncio.get_running_loop().create_task(self._execute(run))

    async def _execute(self, run: Run) -> None:
        try:
            await run.pause_gate()
            if self._row(run.instance_id).status == "queued":
                self._set_status(run.instance_id, "running")
            output = await self._invoke(run)
        except ProcessInterrupt:
            self._drop(run)
        except PlatformKill as kill:
            self._finish(run, "errored", error=kill.error)
        except Exception as exc:
            self._finish(run, "errored", error=_error_of(exc))
        else:
            self._finish(run, "complete", output=output)

    async def _invoke(self, run: Run) -> Any:
        row = self._row(run.instance_id)
        registration = self._registry[row.workflow]
        workflow = registration.construct(ExecutionContext(), registration.env_provider())
        event = crossing(
            {
                "payload": row.params,
                "timestamp": _datetime(row.created_ms),
                "instanceId": row.id,
                "workflowName": row.workflow,
            }
        )
        return crossing(await workflow.run(event, WorkflowStep(EngineStep(run))))

    def _finish(self, run: Run, status: str, *, output: Any = None, error: Any = None) -> None:
        # A run that was terminated, killed, lost or restarted meanwhile must not write.
        if self._runs.get(run.instance_id) is run:
            self._store.finish(
                run.instance_id, status, self._clock.now_ms(), output=output, error=error
            )
        self._drop(run)

    def _drop(self, run: Run) -> None:
        if self._runs.get(run.instance_id) is run:
            del self._runs[run.instance_id]
        self._changed.set()

    def _stop(self, instance_id: str) -> None:
        run = self._runs.pop(instance_id, None)
        if run is not None and run.task is not None:
            run.task.cancel()
        self._changed.set()

    def _idle(self, run: Run) -> bool:
        assert run.task is not None
        status = self._store.instance(run.instance_id)
        waiting = run.awaiting_event and not run.event_arrived.is_set()
        blocked = status is None or status.status == "paused" or waiting
        return run.task.done() or blocked

    async def _pause_gate(self, instance_id: str) -> None:
        if self._row(instance_id).status not in ("paused", "waitingForPause"):
            return
        self._set_status(instance_id, "paused")
        resumed = self._resume_event(instance_id)
        resumed.clear()
        self._changed.set()
        await resumed.wait()

    def _set_waiting(self, instance_id: str, waiting: bool) -> None:
        # Only running <-> waiting; a pause requested meanwhile must survive.
        before, after = ("running", "waiting") if waiting else ("waiting", "running")
        if self._row(instance_id).status == before:
            self._set_status(instance_id, after)
        self._changed.set()

    def _set_status(self, instance_id: str, status: str) -> None:
        self._store.set_status(instance_id, status, self._clock.now_ms())

    def _resume_event(self, instance_id: str) -> asyncio.Event:
        return self._resumed.setdefault(instance_id, asyncio.Event())

    def _row(self, instance_id: str) -> InstanceRow:
        row = self._store.instance(instance_id)
        if row is None:
            raise JsException("Error", NOT_FOUND)
        return row


def _checked_id(instance_id: Any) -> str:
    if instance_id is None:
        return str(uuid.uuid4())
    text = str(instance_id)
    if len(text) > INSTANCE_ID_MAX or not INSTANCE_ID.match(text):
        raise JsException("Error", INVALID_ID)
    return text


def _error_of(exc: Exception) -> dict[str, str]:
    # A JsException leaving run() is the JS error it wraps (Pyodide rethrows the original), so
    # its JS name and message are what the engine records; any other exception is recorded by
    # its Python type name and str().
    if isinstance(exc, JsException):
        return {"name": exc.name, "message": exc.message}
    return {"name": type(exc).__name__, "message": str(exc)}


def _datetime(epoch_ms: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(epoch_ms / 1000, dt.UTC).replace(tzinfo=None)
