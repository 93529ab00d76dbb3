"""The slice of Pyodide's `js` and `pyodide.ffi` modules that entry.py uses, for CPython.

entry.py streams a response body as a pull-based JS `ReadableStream` (`entry.PulledBody`), which is
what `workers.Response` accepts for a body that is not held whole. These are the pieces it touches,
installed in `sys.modules` by `workers_sdk.install()` so the same shell code runs here:

- `pyodide.ffi.create_proxy(obj)`: a callable proxy with `destroy()`; calling it afterwards raises,
  as Pyodide does for a destroyed proxy.
- `pyodide.ffi.to_js(value, dict_converter=None)`: bytes become a `Uint8Array` (a copy), a dict
  becomes `dict_converter([[key, value], ...])`; other values pass through (numbers, proxies).
- `js.Object.fromEntries(entries)`: a JS object whose properties read as attributes.
- `js.ReadableStream.new(source, strategy)`: the WHATWG Streams model for a pull source. The
  consumer (the local HTTP server, `Response.text()`) reads chunks; each read with nothing queued
  calls `source.pull(controller)` and awaits what it returns (the Promise a Python coroutine
  becomes); `controller.enqueue(chunk)`, `close()` and `error(e)` settle it. A pull that raises
  errors the stream, and the reader sees that exception. A reader that stops early cancels the
  stream, which calls `source.cancel(reason)` once, and never after the stream closed or errored.
  Reads are on demand (highWaterMark 0, the only strategy entry.py asks for).

The stream is a `local_platform.http.BodyStream`, so the local `Response` takes it as a body.
"""

from __future__ import annotations

import enum
import inspect
import sys
import types
from collections import deque
from collections.abc import AsyncIterator, Iterable
from typing import Any

from local_platform.errors import JsException
from local_platform.http import BodyStream, Uint8Array


class PyProxy:
    """`create_proxy(obj)`: calls go to `obj` until `destroy()`."""

    def __init__(self, obj: Any) -> None:
        self._obj = obj
        self.destroyed = False

    def __call__(self, *args: Any) -> Any:
        if self.destroyed:
            raise JsException("Error", "Object has already been destroyed")
        return self._obj(*args)

    def destroy(self) -> None:
        self.destroyed = True


def create_proxy(obj: Any) -> PyProxy:
    return PyProxy(obj)


def to_js(value: Any, *, dict_converter: Any = None) -> Any:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return Uint8Array(bytes(value))
    if isinstance(value, dict):
        entries = [[key, to_js(item, dict_converter=dict_converter)] for key, item in value.items()]
        return dict_converter(entries) if dict_converter is not None else JsObject(entries)
    return value


class JsObject(types.SimpleNamespace):
    """A plain JS object seen from Python: its properties are attributes."""

    def __init__(self, entries: Iterable[Any] = ()) -> None:
        super().__init__(**{str(key): value for key, value in entries})


class Object:
    @staticmethod
    def fromEntries(entries: Iterable[Any]) -> JsObject:
        return JsObject(entries)


class _State(enum.Enum):
    READABLE = "readable"
    CLOSED = "closed"
    ERRORED = "errored"


class ReadableStreamDefaultController:
    """What `pull(controller)` receives."""

    def __init__(self) -> None:
        self.queue: deque[bytes] = deque()
        self.state = _State.READABLE
        self.close_requested = False
        self.failure: BaseException | None = None

    def enqueue(self, chunk: Uint8Array) -> None:
        if self.close_requested or self.state is not _State.READABLE:
            # The condition is the Streams standard's; workerd's exact wording is an assumption.
            raise JsException("TypeError", "This ReadableStream is closed.")
        self.queue.append(chunk.to_bytes())

    def close(self) -> None:
        if self.close_requested or self.state is not _State.READABLE:
            raise JsException("TypeError", "This ReadableStream is closed.")
        self.close_requested = True

    def error(self, reason: object = None) -> None:
        if self.state is _State.READABLE:
            self.state = _State.ERRORED
            failed = reason if isinstance(reason, BaseException) else None
            self.failure = failed or JsException("Error", str(reason))


class ReadableStream(BodyStream):
    """`new ReadableStream(source, strategy)` over a pull source (see the module docstring)."""

    def __init__(self, source: Any, strategy: Any = None) -> None:
        self._underlying = source
        self._controller = ReadableStreamDefaultController()
        self._pulled = self._pull_chunks()
        super().__init__(self._pulled, on_cancel=self._cancel_source)

    @classmethod
    def new(cls, source: Any, strategy: Any = None) -> ReadableStream:
        return cls(source, strategy)

    @property
    def constructor(self) -> JsObject:
        # The SDK reads `body.constructor.name` to accept a JS body (`_get_js_constructor_name`).
        return JsObject([["name", "ReadableStream"]])

    async def _pull_chunks(self) -> AsyncIterator[bytes]:
        controller = self._controller
        while True:
            if controller.queue:
                yield controller.queue.popleft()
            elif controller.state is _State.ERRORED:
                raise controller.failure  # type: ignore[misc]
            elif controller.close_requested or controller.state is _State.CLOSED:
                controller.state = _State.CLOSED
                return
            else:
                try:
                    await _settle(self._underlying.pull(controller))
                except BaseException as exc:
                    controller.error(exc)
                    raise

    async def _cancel_source(self) -> None:
        """Cancel once, and only a stream still readable: a read waiting on a pull then ends."""
        controller = self._controller
        if controller.state is not _State.READABLE or controller.close_requested:
            return
        controller.state = _State.CLOSED
        controller.queue.clear()
        await _settle(self._underlying.cancel(None))
        if not self._pulled.ag_running:  # type: ignore[attr-defined]
            await self._pulled.aclose()  # type: ignore[attr-defined]


async def _settle(result: Any) -> Any:
    """What JS does with a pull or cancel result: wait for it if it is a Promise."""
    return await result if inspect.isawaitable(result) else result


def build_modules() -> dict[str, types.ModuleType]:
    js = types.ModuleType("js", "The JS globals entry.py uses (local_platform.js_streams).")
    js.ReadableStream = ReadableStream  # type: ignore[attr-defined]
    js.Object = Object  # type: ignore[attr-defined]
    pyodide = types.ModuleType("pyodide", "Pyodide's FFI as entry.py uses it (local platform).")
    pyodide.__path__ = []  # a package, so `import pyodide.ffi` resolves
    ffi = types.ModuleType("pyodide.ffi")
    ffi.create_proxy = create_proxy  # type: ignore[attr-defined]
    ffi.to_js = to_js  # type: ignore[attr-defined]
    ffi.JsException = JsException  # type: ignore[attr-defined]
    pyodide.ffi = ffi  # type: ignore[attr-defined]
    return {"js": js, "pyodide": pyodide, "pyodide.ffi": ffi}


def install() -> None:
    """Make `import js` and `from pyodide.ffi import ...` resolve to this module's pieces."""
    for name, module in build_modules().items():
        module.__local_platform__ = True  # type: ignore[attr-defined]
        sys.modules[name] = module
