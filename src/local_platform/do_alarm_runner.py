"""Firing Durable Object alarms when they are due, with the platform's retries (docs/platform.md
§2.2).

The runner looks at every object's file in the namespace (live or not), runs `alarm()` on those
due by the clock, and re-arms a failed handler after 2 s, 4 s, 8 s, ... up to 6 retries
(at-least-once delivery). `alarm(info)` receives `retryCount`/`isRetry` when it takes an argument.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from local_platform.clock import Clock
from local_platform.do_ids import DurableObjectId
from local_platform.do_instances import Instances
from local_platform.do_state import DurableObjectAbort, call_maybe_async
from local_platform.do_storage import DurableObjectStorage
from local_platform.do_storage_file import peek_metadata
from local_platform.rpc import JsDict, js_number

ALARM_FIRST_RETRY_SECONDS = 2.0  # docs: exponential backoff starting at 2 s
ALARM_MAX_RETRIES = 6


class AlarmRunner:
    def __init__(self, instances: Instances, clock: Clock) -> None:
        self._instances = instances
        self._clock = clock

    def next_alarm_ms(self) -> int | float | None:
        """When the earliest alarm of any object (live or not) is due, for a scheduler."""
        times = self._alarms().values()
        return min(times, default=None)

    async def run_due_alarms(self) -> list[DurableObjectId]:
        """Run `alarm()` on every object whose alarm is due by the clock; returns their ids."""
        now = self._clock.now_ms()
        due = sorted((ms, hex_id) for hex_id, ms in self._alarms().items() if ms <= now)
        ran = []
        for _, hex_id in due:
            object_id = DurableObjectId(hex_id, self._instances.stored_name(hex_id))
            await self._run_alarm(object_id)
            ran.append(object_id)
        return ran

    def _alarms(self) -> dict[str, int | float]:
        found = {}
        for path in sorted(self._instances.directory.glob("*.sqlite")):
            live = self._instances.live(path.stem)
            ms = live.storage.alarm_ms() if live else peek_metadata(path, "alarm")
            if ms is not None:
                found[path.stem] = ms
        return found

    async def _run_alarm(self, object_id: DurableObjectId) -> None:
        retry = 0
        try:
            live = await self._instances.ready(object_id)
            retry = live.storage.take_alarm()
            handler = getattr(live.instance, "alarm", None)
            if handler is None:
                return
            info = JsDict(retryCount=retry, isRetry=retry > 0)
            await call_maybe_async(handler, *([info] if _accepts_argument(handler) else []))
        except (Exception, DurableObjectAbort):
            self._instances.with_storage(object_id, lambda storage: self._rearm(storage, retry))

    def _rearm(self, storage: DurableObjectStorage, retry: int) -> None:
        """At-least-once: a failed handler runs again after 2 s, 4 s, ... up to 6 retries."""
        if retry >= ALARM_MAX_RETRIES:
            storage.forget_alarm()
            return
        delay_ms = ALARM_FIRST_RETRY_SECONDS * 1000 * 2**retry
        storage.arm_alarm(js_number(self._clock.now_ms() + delay_ms), retry=retry + 1)


def _accepts_argument(fn: Callable[..., Any]) -> bool:
    positional = {inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                  inspect.Parameter.VAR_POSITIONAL}  # fmt: skip
    return any(p.kind in positional for p in inspect.signature(fn).parameters.values())
