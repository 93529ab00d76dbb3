"""A Durable Object namespace binding on the local platform (docs/platform.md §1.3, §2).

Theory of operation. `env.<NAMESPACE>` is a `DurableObjectNamespace` over
`<state_dir>/<class_name>/`: it makes ids (do_ids), hands out stubs whose calls cross as RPC
(do_rpc), keeps at most one live instance per id (do_instances) whose `ctx` is a
`DurableObjectState` (do_state) with `ctx.storage` (do_storage: SQL, key-value, transactions and
the alarm in one SQLite file), and fires due alarms (do_alarm_runner). Imports point one way:

    do_sql -> do_storage_file -> do_transactions -> do_kv  -> do_storage
              do_storage_file -> do_alarms                  -> do_storage
    do_ids, do_storage -> do_state -> do_instances -> do_rpc, do_alarm_runner -> durable_objects

Because an object's file is its only state, `evict()` (or a new namespace object over the same
state_dir, i.e. a restarted process) builds a fresh instance that sees every committed write and
every pending alarm.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from local_platform.clock import Clock
from local_platform.do_alarm_runner import AlarmRunner
from local_platform.do_ids import DurableObjectId, checked_hex, hex_from_name, random_hex
from local_platform.do_instances import Instances
from local_platform.do_rpc import DurableObjectStub


class DurableObjectNamespace:
    """A Durable Object namespace binding over `<state_dir>/<class_name>/`."""

    def __init__(
        self,
        class_name: str,
        construct: Callable[[Any, Any], Any],
        *,
        state_dir: Path | str,
        clock: Clock,
        env_provider: Callable[[], Any],
    ) -> None:
        self.class_name = class_name
        self._instances = Instances(Path(state_dir) / class_name, construct, env_provider)
        self._alarms = AlarmRunner(self._instances, clock)

    # -- ids and stubs ----------------------------------------------------------------------

    def idFromName(self, name: str) -> DurableObjectId:
        return DurableObjectId(hex_from_name(self.class_name, name), name)

    def newUniqueId(self, options: Any = None) -> DurableObjectId:
        return DurableObjectId(random_hex())

    def idFromString(self, hex_id: str) -> DurableObjectId:
        checked = checked_hex(hex_id)
        return DurableObjectId(checked, self._instances.stored_name(checked))

    def get(self, object_id: DurableObjectId, options: Any = None) -> DurableObjectStub:
        return DurableObjectStub(self._instances, object_id)

    def getByName(self, name: str, options: Any = None) -> DurableObjectStub:
        return self.get(self.idFromName(name))

    # -- the platform's side ----------------------------------------------------------------

    def evict(self, object_id: DurableObjectId) -> None:
        """Drop the live instance; the next call constructs it again over the same storage."""
        self._instances.evict(object_id)

    def storage_path(self, object_id: DurableObjectId) -> Path:
        """The object's SQLite file (local platform only: tests open it to stage old layouts)."""
        return self._instances.path(object_id.toString())

    def evict_all(self) -> None:
        self._instances.evict_all()

    def close(self) -> None:
        self._instances.evict_all()

    def next_alarm_ms(self) -> int | float | None:
        """When the earliest alarm of any object (live or not) is due, for a scheduler."""
        return self._alarms.next_alarm_ms()

    async def run_due_alarms(self) -> list[DurableObjectId]:
        """Run `alarm()` on every object whose alarm is due by the clock; returns their ids."""
        return await self._alarms.run_due_alarms()
