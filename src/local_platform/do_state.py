"""`ctx` as a Python Durable Object sees it: id, storage, `blockConcurrencyWhile`, `abort`.

The `waitUntil` part is the platform's one `ExecutionContext`.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

from local_platform.do_ids import DurableObjectId
from local_platform.do_storage import DurableObjectStorage
from local_platform.execution_context import ExecutionContext


class DurableObjectAbort(BaseException):
    """Raised by `ctx.abort()`; a BaseException so `except Exception` cannot swallow it (SDK)."""


class DurableObjectState(ExecutionContext):
    """`ctx` as a Python Durable Object sees it."""

    def __init__(
        self,
        object_id: DurableObjectId,
        storage: DurableObjectStorage,
        *,
        gates: list[asyncio.Future[Any]],
        evict: Callable[[], None],
        pending: set[asyncio.Future[Any]],
    ) -> None:
        super().__init__(pending=pending)
        self.id = object_id
        self.storage = storage
        self._gates = gates
        self._evict = evict

    def blockConcurrencyWhile(self, fn: Callable[[], Any]) -> asyncio.Future[Any]:
        """Start `fn` now and hold every later call until it finishes. Awaiting gives its result;
        a sync constructor may call it without awaiting."""
        gate = asyncio.ensure_future(call_maybe_async(fn))
        self._gates.append(gate)
        return gate

    def abort(self, reason: str | None = None) -> None:
        self._evict()
        raise DurableObjectAbort(reason or "Durable Object abort requested")


async def call_maybe_async(fn: Callable[..., Any], *args: Any) -> Any:
    """Call a handler the user may have written sync or async."""
    result = fn(*args)
    if inspect.isawaitable(result):
        result = await result
    return result
