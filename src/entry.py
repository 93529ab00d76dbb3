"""The Workers shells: the only module that imports the Workers SDK.

Each class adapts the runtime's calling convention to the platform-free core and does nothing else.
The API (which uses pydantic) is imported on first request, so the workflow and the Durable Object
load even where pydantic cannot (the Pyodide test tier).
"""

import asyncio
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from http import HTTPMethod
from typing import Any, Protocol, cast

import js
from pyodide.ffi import JsException, create_proxy, to_js
from workers import (
    DurableObject,
    Request,
    Response,
    WorkerEntrypoint,
    WorkflowEntrypoint,
    fetch,
)
from workers.workflows import NonRetryableError

from api.http import ApiRequest
from api.json_body import MAX_BODY_BYTES
from common import ports
from common.bindings import Env, MessageBatch, WorkflowEvent, WorkflowStep
from common.deployment import DeploymentVars
from common.sealing import SealBroken
from common.wire import JsonObject
from durable.scratchpad import ScratchpadMethods
from service.monitor_runs import consume_batch
from service.scheduled import run_scheduled
from workflow.site_audit import run_site_audit


class WorkersHttpClient:
    """`ports.HttpClient` over `workers.fetch`: manual redirects, a timeout and a body byte cap;
    with `request.sink`, the body goes to the sink chunk by chunk as it arrives."""

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        started = time.monotonic()
        try:
            async with asyncio.timeout(request.timeout_s) as limit:
                _IN_FLIGHT.add(limit)
                try:
                    return await self._exchange(request, started, limit)
                finally:
                    _IN_FLIGHT.discard(limit)
        except TimeoutError:
            return _failure(request, started, f"timed out after {request.timeout_s:g} s")
        except OSError as exc:  # fetch failures and aborts are OSError subclasses in the SDK
            return _failure(request, started, str(exc) or type(exc).__name__)

    async def _exchange(
        self, request: ports.FetchRequest, started: float, limit: asyncio.Timeout
    ) -> ports.FetchResult:
        # body None crosses as `undefined` (pyodide's to_js), so a GET carries no body.
        response = await fetch(
            request.url,
            method=HTTPMethod(request.method),
            headers=request.headers,
            body=request.body,
            redirect="manual",
        )
        elapsed_ms = (time.monotonic() - started) * 1000
        headers = {name.lower(): value for name, value in response.headers.items()}
        if request.sink is None:
            body, truncated = await _read_capped(response, request.max_bytes)
        else:
            wanted = request.sink.open(response.status, headers)
            sink = _Unhurried(request.sink, limit)
            cap = min(request.max_bytes, wanted)
            body, truncated = b"", await _each_chunk(response, cap, sink.feed)
        return ports.FetchResult(request.url, response.status, headers, body, truncated, elapsed_ms)


class _Streamed(Protocol):
    """A request or response of the SDK: `body` is its JS ReadableStream, or null."""

    @property
    def body(self) -> Any: ...  # Any: a js.ReadableStream, which the runtime alone types


async def _read_capped(response: _Streamed, max_bytes: int) -> tuple[bytes, bool]:
    chunks: list[bytes] = []

    async def keep(data: bytes) -> None:
        chunks.append(data)

    truncated = await _each_chunk(response, max_bytes, keep)
    return b"".join(chunks), truncated


# The timeouts of the fetches in flight in this isolate (or process): see `_Unhurried`.
_IN_FLIGHT: set[asyncio.Timeout] = set()


class _Unhurried:
    """Feeds a sink without charging its time to any fetch's timeout: a timeout bounds how long
    the server takes, and parsing a 20 MiB page (and sending its links on) is our time. The
    loop runs one thing at a time, so while one page is parsed every other response in flight
    waits as well, its bytes kept in the socket: each of their deadlines moves on as much.
    Else a crawl of many pages at once on a slow machine would blame the site for our CPU."""

    def __init__(self, sink: ports.BodySink, limit: asyncio.Timeout) -> None:
        self.sink, self.limit = sink, limit

    async def feed(self, chunk: bytes) -> None:
        # Measured on the clock the deadline is on: asyncio.timeout's is the loop's `time()`.
        clock = asyncio.get_running_loop().time
        begun = clock()
        await self.sink.feed(chunk)
        spent = clock() - begun
        for limit in {self.limit, *_IN_FLIGHT}:
            deadline = limit.when()
            if deadline is not None:
                limit.reschedule(deadline + spent)


async def _each_chunk(
    response: _Streamed, max_bytes: int, take: Callable[[bytes], Awaitable[None]]
) -> bool:
    """Hand each network chunk of the body to `take` until `max_bytes`; True if cut there."""
    stream = response.body
    # JS null arrives as None or, from Pyodide 0.28 on, as the falsy `pyodide.ffi.jsnull` (a GET
    # request's body is null); a ReadableStream's proxy is truthy.
    if stream is None or not stream:
        return False
    reader = stream.getReader()
    size = 0
    while True:
        chunk = await reader.read()
        if chunk.done:
            return False
        data = chunk.value.to_bytes()
        if size + len(data) > max_bytes:
            await take(data[: max_bytes - size])
            await reader.cancel()
            return True
        await take(data)
        size += len(data)


def _failure(request: ports.FetchRequest, started: float, error: str) -> ports.FetchResult:
    elapsed_ms = (time.monotonic() - started) * 1000
    return ports.FetchResult(request.url, 0, {}, b"", False, elapsed_ms, error)


class WebCryptoCipher:
    """`common.sealing.Cipher` over the runtime's WebCrypto (`crypto.subtle`, W3C Web Cryptography
    API §AES-GCM): a 12-byte IV, the associated data, a 128-bit tag, which `encrypt` appends to
    the ciphertext exactly as `cryptography`'s AESGCM does (local_platform.cipher), so either
    side opens the other's values. `cryptography` itself has no Pyodide wheel."""

    async def encrypt(self, key: bytes, nonce: bytes, plaintext: bytes, aad: bytes) -> bytes:
        subtle = js.crypto.subtle
        sealed = await subtle.encrypt(
            _gcm(nonce, aad), await self._key(key, "encrypt"), to_js(plaintext)
        )
        return bytes(sealed.to_bytes())

    async def decrypt(self, key: bytes, nonce: bytes, sealed: bytes, aad: bytes) -> bytes:
        subtle = js.crypto.subtle
        try:
            plain = await subtle.decrypt(
                _gcm(nonce, aad), await self._key(key, "decrypt"), to_js(sealed)
            )
        except JsException:  # OperationError: the tag did not verify
            raise SealBroken from None
        return bytes(plain.to_bytes())

    async def _key(self, key: bytes, usage: str) -> Any:  # Any: a JS CryptoKey
        usages = to_js([usage])
        return await js.crypto.subtle.importKey("raw", to_js(key), "AES-GCM", False, usages)


def _gcm(nonce: bytes, aad: bytes) -> Any:  # Any: the JS AesGcmParams object
    params = {"name": "AES-GCM", "iv": to_js(nonce), "additionalData": to_js(aad), "tagLength": 128}
    return to_js(params, dict_converter=js.Object.fromEntries)


ports.configure(http=WorkersHttpClient(), cipher=WebCryptoCipher())


class PulledBody:
    """A streamed response body: the underlying source of a pull-based JS ReadableStream.

    `workers.Response` takes str, bytes, FormData or a JS body type, so a stream must be a JS
    `ReadableStream` (workers-runtime-sdk 1.9.5 `response.py`, `utils.RESPONSE_ACCEPTED_TYPES`).
    The SDK's own asgi.py writes into a `TransformStream` from a background task; a pull source
    needs no task at all: the runtime calls `pull` when the client wants more, and each call reads
    one chunk (one keyset page of rows) from the Python iterator, so nothing runs ahead of the
    client and nothing is left running once the response is done (WHATWG Streams, "underlying
    source": pull, cancel; highWaterMark 0 means no chunk is read before it is asked for).

    When the client goes away the runtime calls `cancel`; it waits for a pull in flight, then
    closes the iterator (its `finally` blocks run). Pyodide turns the coroutine each call returns
    into a Promise and destroys that proxy itself (pyodide 0.28 `PyAwaitable.then`); the two
    function proxies made here are destroyed once the stream is closed, errored or cancelled.
    """

    def __init__(self, chunks: AsyncGenerator[bytes]) -> None:
        self._chunks = chunks
        self._turn = asyncio.Lock()  # a cancel waits for the pull in flight
        self._done = False
        self._proxies: list[Any] = [create_proxy(self.pull), create_proxy(self.cancel)]  # JsProxy

    def readable(self) -> Any:  # Any: a js.ReadableStream, which the runtime alone types
        pull, cancel = self._proxies
        source = to_js({"pull": pull, "cancel": cancel}, dict_converter=js.Object.fromEntries)
        strategy = to_js({"highWaterMark": 0}, dict_converter=js.Object.fromEntries)
        return js.ReadableStream.new(source, strategy)

    async def pull(self, controller: Any) -> None:  # Any: the JS stream controller
        async with self._turn:
            try:
                chunk = await anext(self._chunks, None)
            except BaseException:
                self._finish()  # the rejected pull errors the stream: the client sees it cut
                raise
            if self._done:
                return  # cancelled while this chunk was being read
            if chunk is None:
                self._finish()
                controller.close()
            else:
                controller.enqueue(to_js(chunk))

    async def cancel(self, reason: object = None) -> None:
        self._done = True
        async with self._turn:
            await self._chunks.aclose()
        self._finish()

    def _finish(self) -> None:
        self._done = True
        while self._proxies:
            self._proxies.pop().destroy()


class ScheduledController(Protocol):
    """The runtime's `controller` for a cron trigger (docs/platform.md §5)."""

    cron: str
    scheduledTime: float


def _env(entrypoint: WorkerEntrypoint | WorkflowEntrypoint) -> Env:
    # The runtime's env is a JS object the SDK does not type; bindings.Env states what it holds.
    return cast(Env, entrypoint.env)


def _checked_env(entrypoint: WorkerEntrypoint) -> Env:
    """`env` with the deployment's vars checked: a handler is the Worker's start (env exists
    only there), so a bad value fails here, naming itself, before any work
    (common.deployment)."""
    env = _env(entrypoint)
    DeploymentVars.from_env(env)
    return env


async def _request_body(request: Request) -> bytes:
    """The body, read no further than one byte past the API's limit: `handle_request` refuses a
    larger one with 413 whatever it holds (api.hardening), so the rest is never buffered. A body
    whose Content-Length is already over the limit is not read at all."""
    declared = request.headers.get("content-length") or ""
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return b""  # the declared length alone gets the 413
    body, _ = await _read_capped(request, MAX_BODY_BYTES + 1)
    return body


class Default(WorkerEntrypoint):
    async def fetch(self, request: Request) -> Response:
        from api.app import handle_request

        env = _checked_env(self)
        api_request = ApiRequest(
            # The JS method name: the SDK's `request.method` is an HTTPMethod, and raises
            # KeyError for a method the enum cannot name (PROPFIND), which must get a 405.
            method=request.js_object.method,
            url=request.url,
            headers={name.lower(): value for name, value in request.headers.items()},
            body=await _request_body(request),
        )
        api_response = await handle_request(api_request, env)
        if api_response.stream is not None:
            body = PulledBody(api_response.stream).readable()
        else:
            # A 204 must have a null body (fetch spec): an empty one is refused like any other.
            body = api_response.body or None
        return Response(body, status=api_response.status, headers=api_response.headers)

    async def scheduled(self, controller: ScheduledController, env: object, ctx: object) -> None:
        await run_scheduled(controller.cron, _checked_env(self))

    async def queue(self, batch: MessageBatch, env: object, ctx: object) -> None:
        # The monitor queue, the only one this Worker consumes; each message is acked or retried.
        await consume_batch(_checked_env(self), batch)


class SiteAuditWorkflow(WorkflowEntrypoint):
    async def run(self, event: WorkflowEvent, step: WorkflowStep) -> JsonObject:
        return await run_site_audit(event, step, _env(self), NonRetryableError)


# The SDK's __init_subclass__ (which wraps the class for the runtime) is untyped, and it types
# `ctx` as its own DurableObjectContext where the core states what it uses as a Protocol.
class AuditScratchpad(DurableObject, ScratchpadMethods):  # type: ignore[no-untyped-call, misc]
    def __init__(self, ctx: object, env: object) -> None:
        super().__init__(ctx, env)
        self.open_scratchpad()
