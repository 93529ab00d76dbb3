"""The Python-facing `step` object: a port of the SDK's `_WorkflowStepWrapper` (implicit mode).

Our compatibility date (>= 2026-04-21) turns on `python_workflows_implicit_dependencies`, so
`step.do(name=None, *, concurrent=False, config=None)` resolves a step function's parameters by
name: each must name an already-decorated step (its result is injected, memoized per run) or be
`ctx`. Legacy `depends=[...]` mode is not implemented. Control flow follows the SDK's
`entrypoints.py` line for line so its quirks survive (a dependency that has not run yet is run
by the dependant; every `await fn()` is a new engine occurrence).

The engine side (`js_step`) is `workflow_runtime.EngineStep`, which speaks the JS API: `do(name,
[config,] callback)`, `sleep`, `sleepUntil`, `waitForEvent`. Between the two sits what Pyodide
and the SDK's `workflows.js` do in production: Python exceptions leaving a step callback become
JS errors (`to_js_error`), and a rejected step comes back through `_from_js_error`
(`from_js_error`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import inspect
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

from local_platform.errors import JsException, NonRetryableError
from local_platform.rpc import crossing

_NON_RETRYABLE = "NonRetryableError"
StepFunction = Callable[..., Any]


class WorkflowStep:
    def __init__(self, js_step: Any) -> None:
        self._js_step = js_step
        self._memoized_dependencies: dict[Any, Any] = {}
        self._in_flight: dict[Any, asyncio.Task[Any]] = {}
        self.step_closures: dict[str, Callable[[], Awaitable[Any]]] = {}

    def do(
        self,
        name: str | None = None,
        *,
        concurrent: bool = False,
        config: dict[str, Any] | None = None,
    ) -> Callable[[StepFunction], Callable[[], Awaitable[Any]]]:
        def decorator(func: StepFunction) -> Callable[[], Awaitable[Any]]:
            step_name = func.__name__ if name is None else name

            async def wrapper() -> Any:
                dependencies = self._build_dependency_list(func)
                results = await self._gather_results(dependencies, concurrent)
                return await _do_call(self, step_name, wrapper, config, func, *results)

            wrapper._step_name = step_name  # type: ignore[attr-defined]
            self.step_closures[step_name] = wrapper
            return wrapper

        return decorator

    def _build_dependency_list(self, func: StepFunction) -> list[Any]:
        dependencies: list[Any] = []
        for p in inspect.signature(func).parameters.values():
            if p.name in self.step_closures:
                dependencies.append(self.step_closures[p.name])
            elif p.name == "ctx":
                dependencies.append(p)
            else:
                raise TypeError(f"Received unexpected parameter {p.name}")
        return dependencies

    async def _gather_results(self, dependencies: list[Any], concurrent: bool) -> list[Any]:
        if concurrent:
            return list(await asyncio.gather(*[self._resolve_dependency(d) for d in dependencies]))
        return [await self._resolve_dependency(d) for d in dependencies]

    async def _resolve_dependency(self, dep: Any) -> Any:
        if isinstance(dep, inspect.Parameter) and dep.name == "ctx":
            return dep
        if dep in self._memoized_dependencies:
            return self._memoized_dependencies[dep]
        if dep in self._in_flight:
            return await self._in_flight[dep]
        return await dep()

    def sleep(self, name: str, duration: float | str) -> Awaitable[None]:
        slept: Awaitable[None] = self._js_step.sleep(name, duration)
        return slept

    def sleep_until(self, name: str, timestamp: dt.datetime | float) -> Awaitable[None]:
        if not isinstance(timestamp, str):
            timestamp = crossing(timestamp)
        slept: Awaitable[None] = self._js_step.sleepUntil(name, timestamp)
        return slept

    async def wait_for_event(
        self, name: str, event_type: str, /, timeout: float | str = "24 hours"
    ) -> Any:
        return crossing(
            await self._js_step.waitForEvent(name, {"type": event_type, "timeout": timeout})
        )


async def _do_call(
    entrypoint: WorkflowStep,
    name: str,
    key: Any,
    config: dict[str, Any] | None,
    callback: StepFunction,
    *results: Any,
) -> Any:
    async def _callback(ctx: Any = None) -> Any:
        resolved = tuple(
            ctx if isinstance(r, inspect.Parameter) and r.name == "ctx" else r for r in results
        )
        try:
            result = callback(*resolved)
            if inspect.iscoroutine(result):
                result = await result
            # The step result crosses the RPC boundary back to the Workflows engine.
            return crossing(result)
        except Exception as exc:
            raise to_js_error(exc) from exc

    async def _closure() -> Any:
        try:
            if config is None:
                return await entrypoint._js_step.do(name, _callback)
            return await entrypoint._js_step.do(name, config, _callback)
        except JsException as exc:
            raise from_js_error(exc) from exc

    task = asyncio.create_task(_closure())
    entrypoint._in_flight[key] = task
    try:
        result = await task
        entrypoint._memoized_dependencies[key] = result
    finally:
        entrypoint._in_flight.pop(key, None)
    return result


def to_js_error(exc: Exception) -> JsException:
    """The JS error the engine sees when a Python exception leaves a step callback.

    A JsException is the JS error it wraps (Pyodide rethrows the original). A NonRetryableError
    (detected by class name, as `workflows.js` checks `e.type`) becomes an Error named
    "NonRetryableError" carrying the message. Anything else is a Pyodide `PythonError` whose
    message is the formatted traceback, last line `<qualified type>: <message>`.
    """
    if isinstance(exc, JsException):
        return exc
    text = "".join(traceback.format_exception(exc))
    if type(exc).__name__ == _NON_RETRYABLE:
        return JsException(_NON_RETRYABLE, _python_exception_message(text))
    return JsException("PythonError", text)


def _python_exception_message(text: str) -> str:
    # `workflows.js` pythonExceptionMessage: the last non-empty line, after the first ": ".
    lines = [line for line in text.split("\n") if line.strip()]
    last = lines[-1] if lines else ""
    _, sep, message = last.partition(": ")
    return message if sep else ""


def from_js_error(exc: JsException) -> Exception:
    """Port of the SDK's `utils._from_js_error`: what `await step_fn()` raises."""
    message = exc.message or ""
    if exc.name == _NON_RETRYABLE:
        return NonRetryableError(message)
    if message == _NON_RETRYABLE:
        return NonRetryableError()
    if message.startswith(_NON_RETRYABLE + ": "):
        return NonRetryableError(message[len(_NON_RETRYABLE) + 2 :])
    if exc.name != "PythonError" and not message.startswith("PythonError"):
        return _to_python_exception(exc)
    lines = message.rstrip().split("\n")
    if len(lines) < 2:
        return _to_python_exception(exc)
    last = lines[-1]
    if last.startswith("TypeError"):
        return TypeError(last)
    if last.startswith("ValueError"):
        return ValueError(last)
    if last.startswith("workers.workflows.NonRetryableError"):
        return NonRetryableError(last)
    return _to_python_exception(exc)


def _to_python_exception(exc: JsException) -> Exception:
    if exc.name == "RangeError":
        return ValueError(exc.message)
    if exc.name == "TypeError":
        return TypeError(exc.message)
    return exc
