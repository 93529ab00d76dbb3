"""The lifecycle of Durable Object instances in one namespace.

At most one live instance per object id, built lazily as `cls(ctx, env)` over the object's file.
`evict()` drops it (and closes the file); the next call builds a fresh instance that sees every
committed write. Calls wait until every pending `blockConcurrencyWhile` gate has finished; a gate
that fails resets the object, as the runtime does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from local_platform.do_ids import DurableObjectId
from local_platform.do_state import DurableObjectState
from local_platform.do_storage import DurableObjectStorage
from local_platform.do_storage_file import peek_metadata


class LiveObject:
    def __init__(self, object_id: DurableObjectId, storage: DurableObjectStorage) -> None:
        self.id = object_id
        self.storage = storage
        self.instance: Any = None
        self.gates: list[asyncio.Future[Any]] = []


class Instances:
    """Live instances of one class over `<directory>/<id hex>.sqlite`."""

    def __init__(
        self, directory: Path, construct: Callable[[Any, Any], Any], env_provider: Callable[[], Any]
    ) -> None:
        self.directory = directory
        self._construct_instance = construct  # the class, or what resolves it first (runtime)
        self._env_provider = env_provider
        self._live: dict[str, LiveObject] = {}
        self._background: set[asyncio.Future[Any]] = set()  # waitUntil work of every object

    def path(self, hex_id: str) -> Path:
        return self.directory / f"{hex_id}.sqlite"

    def live(self, hex_id: str) -> LiveObject | None:
        return self._live.get(hex_id)

    def stored_name(self, hex_id: str) -> str | None:
        live = self._live.get(hex_id)
        if live is not None:
            name: str | None = live.id.name or live.storage.metadata("name")
            return name
        stored: str | None = peek_metadata(self.path(hex_id), "name")
        return stored

    def evict(self, object_id: DurableObjectId) -> None:
        """Drop the live instance; the next call constructs it again over the same storage."""
        live = self._live.pop(object_id.toString(), None)
        if live is not None:
            live.storage.close()

    def evict_all(self) -> None:
        for live in list(self._live.values()):
            self.evict(live.id)

    async def ready(self, object_id: DurableObjectId) -> LiveObject:
        """The live object, once every pending `blockConcurrencyWhile` has finished."""
        live = self._live.get(object_id.toString()) or self._construct(object_id)
        while live.gates:
            gate = live.gates[0]
            await asyncio.wait([gate])
            if gate in live.gates:
                live.gates.remove(gate)
            failure = None if gate.cancelled() else gate.exception()
            if failure is not None:
                self.evict(live.id)  # the runtime resets an object whose gate callback threw
                raise failure
        return live

    def _construct(self, object_id: DurableObjectId) -> LiveObject:
        storage = DurableObjectStorage(self.path(object_id.toString()))
        storage.remember_name(object_id.name)
        named = DurableObjectId(object_id.toString(), object_id.name or storage.metadata("name"))
        live = LiveObject(named, storage)
        self._live[named.toString()] = live
        ctx = DurableObjectState(
            named,
            storage,
            gates=live.gates,
            evict=lambda: self.evict(named),
            pending=self._background,
        )
        try:
            live.instance = self._construct_instance(ctx, self._env_provider())
        except BaseException:
            self.evict(named)
            raise
        return live

    def with_storage(
        self, object_id: DurableObjectId, action: Callable[[DurableObjectStorage], None]
    ) -> None:
        """Act on an object's storage whether or not it is live (an abort may have evicted it)."""
        live = self._live.get(object_id.toString())
        if live is not None:
            action(live.storage)
            return
        storage = DurableObjectStorage(self.path(object_id.toString()))
        try:
            action(storage)
        finally:
            storage.close()
