"""Calling a Durable Object over RPC: the stub and the call on the object's side (docs/platform.md
§1.3).

Arguments and results cross with `rpc_crossing` (tuples refused, bytes become memoryview, dicts
become JsDict, 32 MiB cap); only public plain functions of the class (mixins included) are
callable; an exception in the callee reaches the caller as `JsException("Error", "PythonError:
<traceback>")`. A `JsException` raised inside the callee (a SQL error, say) passes through
unchanged, as Pyodide rethrows the original JS error.
"""

from __future__ import annotations

import asyncio
import inspect
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

from local_platform.do_ids import DurableObjectId
from local_platform.do_instances import Instances
from local_platform.do_state import DurableObjectAbort, call_maybe_async
from local_platform.errors import JsException, js_error, js_type_error
from local_platform.rpc import rpc_crossing


class DurableObjectStub:
    """`ns.get(id)`: `await stub.method(*args)` runs the method over (simulated) RPC."""

    def __init__(self, instances: Instances, object_id: DurableObjectId) -> None:
        self._instances = instances
        self.id = object_id
        self.name = object_id.name

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]:
        if name.startswith("__"):
            raise AttributeError(name)
        return lambda *args, **kwargs: self._send(name, args, kwargs)

    def _send(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Awaitable[Any]:
        # Python keyword arguments become one trailing JS object (Pyodide's calling convention).
        message = [*args, kwargs] if kwargs else list(args)
        sent = rpc_crossing(message)  # raises the SDK's TypeError before anything is sent
        return invoke(self._instances, self.id, name, sent)


async def invoke(
    instances: Instances, object_id: DurableObjectId, name: str, args: list[Any]
) -> Any:
    """Run `name(*args)` on the object and return its result as the caller receives it."""
    await asyncio.sleep(0)
    try:
        live = await instances.ready(object_id)
        method = _rpc_method(type(live.instance), name)
        result = await call_maybe_async(method, live.instance, *args)
        return rpc_crossing(result)
    except JsException:
        raise
    except DurableObjectAbort as abort:
        raise js_error(str(abort)) from None
    except Exception as exc:
        raise python_error(exc) from None


def python_error(exc: BaseException) -> JsException:
    """What the caller sees when a Python exception leaves a Durable Object."""
    text = "".join(traceback.format_exception(exc)).rstrip("\n")
    return js_error(f"PythonError: {text}")


def _rpc_method(cls: type, name: str) -> Callable[..., Any]:
    """Public plain functions only (incl. mixins); not static/class methods, not `_private`."""
    attr = None if name.startswith("_") else inspect.getattr_static(cls, name, None)
    if not inspect.isfunction(attr):
        raise js_type_error(f"Method {name} does not exist")
    return attr
