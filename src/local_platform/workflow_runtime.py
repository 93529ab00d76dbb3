"""The engine side of `step`: what the JS `WorkflowStep` does (docs/platform.md §4.1-4.3, §4.5).

Theory of operation. `run()` is re-executed from the top whenever an instance resumes. Each
`do`/`sleep`/`sleepUntil`/`waitForEvent` call gets a cache key from its name and the occurrence
count of that name within this execution (`"<name>-<count>"`; sleeps and waits get their own
prefixes, so their counters do not shift step keys). A key with a stored outcome is replayed:
the stored value is returned, or the stored error raised, without running anything. Otherwise
the step runs attempt by attempt; its outcome is committed to SQLite before the `await`
resolves, so a process killed at any point loses at most the step that was in flight.

Errors are `JsException`s throughout, as JS errors are to the engine. Retry waits and sleeps use
the engine's Clock (instant under ManualClock); the step timeout uses wall time, because it
bounds real work. Consequence for tests: under ManualClock a `waitForEvent` timeout elapses at
once, so only events sent before the wait is reached are delivered; use SystemClock to send an
event to an instance that is already waiting.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from local_platform.clock import Clock
from local_platform.errors import JsException
from local_platform.rpc import crossing, serialized_size
from local_platform.workflow_config import duration_ms, resolve_config, retry_delay_ms
from local_platform.workflow_faults import Faults
from local_platform.workflow_store import StepRecord, WorkflowStore

STEP_NAME_MAX = 256  # workers-sdk validators.ts
STEP_OUTPUT_MAX_BYTES = 1 << 20  # 1 MiB, Workflows limits page
DEFAULT_EVENT_TIMEOUT = "24 hours"
StepCallback = Callable[[Any], Awaitable[Any]]


@dataclass(eq=False)
class Run:
    """One execution of one instance's `run()`: what its steps need from the engine."""

    instance_id: str
    store: WorkflowStore
    clock: Clock
    faults: Faults
    set_waiting: Callable[[bool], None]
    pause_gate: Callable[[], Awaitable[None]]
    event_arrived: asyncio.Event = field(default_factory=asyncio.Event)
    counts: Counter[str] = field(default_factory=Counter)
    awaiting_event: bool = False  # blocked until a caller sends an event
    task: asyncio.Task[None] | None = None

    def now_ms(self) -> float:
        return self.clock.now_ms()


class EngineStep:
    def __init__(self, run: Run) -> None:
        self._run = run

    async def do(self, name: str, *args: Any) -> Any:
        config, callback = (None, args[0]) if len(args) == 1 else args
        key, count = await self._begin("", name)
        if (record := self._run.store.step(self._run.instance_id, key)) is not None:
            return _replay(record)
        resolved = resolve_config(config)
        return await self._attempts(name, count, key, resolved, callback)

    async def sleep(self, name: str, duration: float | str) -> None:
        key, _ = await self._begin("sleep-", name)
        await self._sleep_to(key, lambda: self._run.now_ms() + duration_ms(duration))

    async def sleepUntil(self, name: str, timestamp: dt.datetime | float) -> None:
        key, _ = await self._begin("sleep-", name)
        await self._sleep_to(key, lambda: _future_epoch_ms(timestamp, self._run.now_ms()))

    async def waitForEvent(self, name: str, options: dict[str, Any]) -> Any:
        key, _ = await self._begin("waitForEvent-", name)
        run = self._run
        if (record := run.store.step(run.instance_id, key)) is not None:
            return _replay(record)
        timeout = options.get("timeout", DEFAULT_EVENT_TIMEOUT)
        deadline = run.now_ms() + duration_ms(timeout)
        run.awaiting_event = True
        run.set_waiting(True)
        try:
            found = await self._next_event(options["type"], deadline)
        finally:
            run.awaiting_event = False
            run.set_waiting(False)
        if found is None:
            return self._store_error(key, _timeout_error(timeout), 1)
        value = crossing(
            {
                "payload": found.payload,
                "type": found.type,
                "timestamp": _datetime(found.timestamp_ms),
            }
        )
        return self._store_value(key, value, 1)

    async def _begin(self, prefix: str, name: str) -> tuple[str, int]:
        if len(name) > STEP_NAME_MAX:
            raise JsException(
                "Error",
                f'Step name "{name}" exceeds max length ({STEP_NAME_MAX} chars) '
                "or invalid characters found",
            )
        await self._run.pause_gate()
        self._run.faults.on_step_start(self._run.instance_id, name)
        self._run.counts[prefix + name] += 1
        count = self._run.counts[prefix + name]
        return f"{prefix}{name}-{count}", count

    async def _attempts(
        self, name: str, count: int, key: str, config: dict[str, Any], callback: StepCallback
    ) -> Any:
        for attempt in itertools.count(1):
            try:
                value = await self._attempt(name, count, key, attempt, config, callback)
            except JsException as err:
                if not _retryable(err) or attempt > config["retries"]["limit"]:
                    return self._store_error(key, err, attempt)
                await self._run.clock.sleep(retry_delay_ms(config, attempt) / 1000)
            else:
                return self._store_value(key, value, attempt)
        raise AssertionError("unreachable")

    async def _attempt(
        self,
        name: str,
        count: int,
        key: str,
        attempt: int,
        config: dict[str, Any],
        callback: StepCallback,
    ) -> Any:
        ctx = crossing(
            {"step": {"name": name, "count": count}, "attempt": attempt, "config": config}
        )
        injected = self._run.faults.take_failure(self._run.instance_id, name)
        if injected is not None:
            raise JsException("Error", injected)
        try:
            async with asyncio.timeout(duration_ms(config["timeout"]) / 1000) as limit:
                value = await callback(ctx)
        except TimeoutError:
            if not limit.expired():
                raise
            raise _timeout_error(config["timeout"]) from None
        if serialized_size(value) > STEP_OUTPUT_MAX_BYTES:
            # context.ts l.998. Not retried: the same code would produce the same output again.
            raise JsException(
                "Error", f"Step {key} output is too large. Maximum allowed size is 1MiB."
            )
        return value

    async def _sleep_to(self, key: str, target_ms: Callable[[], float]) -> None:
        run = self._run
        record = run.store.step(run.instance_id, key)
        if record is not None and record.outcome == "value":
            return
        # First arrival fixes the wake-up time; a replay after a restart sleeps only the rest.
        until = record.result["until"] if record is not None else target_ms()
        run.store.put_step(run.instance_id, key, StepRecord("pending", {"until": until}, 1))
        remaining_ms = until - run.now_ms()
        if remaining_ms > 0:
            run.set_waiting(True)
            try:
                await run.clock.sleep(remaining_ms / 1000)
            finally:
                run.set_waiting(False)
        run.store.put_step(run.instance_id, key, StepRecord("value", {"until": until}, 1))

    async def _next_event(self, event_type: str, deadline_ms: float) -> Any:
        run = self._run
        while (found := run.store.take_event(run.instance_id, event_type)) is None:
            remaining_ms = deadline_ms - run.now_ms()
            if remaining_ms <= 0:
                return None
            run.event_arrived.clear()
            await _first_of(run.event_arrived.wait(), run.clock.sleep(remaining_ms / 1000))
        return found

    def _store_value(self, key: str, value: Any, attempts: int) -> Any:
        self._run.store.put_step(self._run.instance_id, key, StepRecord("value", value, attempts))
        # Hand back what was stored, so a first execution and a replay return the same thing.
        return _replay(_stored(self._run, key))

    def _store_error(self, key: str, err: JsException, attempts: int) -> Any:
        error = {"name": err.name, "message": err.message}
        self._run.store.put_step(self._run.instance_id, key, StepRecord("error", error, attempts))
        raise err


def _stored(run: Run, key: str) -> StepRecord:
    record = run.store.step(run.instance_id, key)
    assert record is not None
    return record


def _replay(record: StepRecord) -> Any:
    if record.outcome == "error":
        raise JsException(record.result["name"], record.result["message"])
    return record.result


def _retryable(err: JsException) -> bool:
    return err.name != "NonRetryableError" and "output is too large" not in err.message


def _timeout_error(timeout: float | str) -> JsException:
    # Assumed format: the engine's WorkflowTimeoutError arrives as a plain Error with its class
    # name folded into the message (as the SDK's `_from_js_error` notes for NonRetryableError).
    # What matters is that the text holds both "WorkflowTimeoutError" and "Execution timed out",
    # which the project's classifier matches (original-system.md §5.1).
    return JsException("Error", f"WorkflowTimeoutError: Execution timed out after {timeout}")


def _future_epoch_ms(timestamp: dt.datetime | float, now_ms: float) -> float:
    if isinstance(timestamp, dt.datetime):
        aware = timestamp if timestamp.tzinfo else timestamp.replace(tzinfo=dt.UTC)
        target = aware.timestamp() * 1000
    else:
        target = float(timestamp)
    if target < now_ms:
        # Miniflare's text (workers-sdk context.ts); assumed to match production.
        raise JsException("Error", "You can't sleep until a time in the past, time-traveler")
    return target


def _datetime(epoch_ms: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(epoch_ms / 1000, dt.UTC).replace(tzinfo=None)


async def _first_of(*awaitables: Awaitable[Any]) -> None:
    tasks = [asyncio.ensure_future(a) for a in awaitables]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
