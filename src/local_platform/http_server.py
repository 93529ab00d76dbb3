"""A small asyncio HTTP/1.1 server that hands each request to a Worker-style `fetch` handler.

`siteaudit serve` runs the Worker's `Default.fetch` behind this. Parsing and framing are h11's
(the sans-IO HTTP/1.1 library the local client uses too): keep-alive, Content-Length and chunked
request bodies, `Expect: 100-continue`. The request body is read whole, up to `max_body_bytes`
(413 beyond it, before reading more than the cap), because `workers.Request` offers `text()`,
`json()` and `bytes()` and the API's bodies are small. Response bodies stream: a body of known
length gets Content-Length, any other is sent chunked, and a client that goes away mid-body
cancels the body's stream at once (so whatever produces it stops).

A handler that raises gets a 500 `{"error": "internal error"}` and its traceback in the log, never
in the response.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from http import HTTPMethod, HTTPStatus

import h11

from local_platform.errors import JsException
from local_platform.http import FetchResponse, Request, Response

__all__ = ["MAX_REQUEST_BODY_BYTES", "Server", "serve"]

log = logging.getLogger(__name__)

MAX_REQUEST_BODY_BYTES = 10 * 1024 * 1024  # far above any API request; stops runaway uploads
_MAX_HEADER_BYTES = 64 * 1024  # h11's incomplete-event cap, as in most servers (nginx 8-64 KiB)
_READ_SIZE = 64 * 1024
# Framing is the server's job; a handler's own values for these would contradict it.
_FRAMING_HEADERS = frozenset({"content-length", "transfer-encoding", "connection", "keep-alive"})

Handler = Callable[[Request], Awaitable[Response]]


class _BodyTooLarge(Exception):
    pass


class Server:
    """A running server: `.host`, `.port` (the bound one when 0 was asked), `await close()`."""

    def __init__(self, handler: Handler, max_body_bytes: int) -> None:
        self._handler = handler
        self._max_body_bytes = max_body_bytes
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self.host = ""
        self.port = 0

    async def _start(self, host: str, port: int) -> None:
        self._server = await asyncio.start_server(self._accept, host, port)
        self.host, self.port = self._server.sockets[0].getsockname()[:2]

    async def close(self) -> None:
        """Stop listening, end open connections and wait for them."""
        if self._server is None:
            return
        self._server.close()
        for task in list(self._connections):
            task.cancel()
        await asyncio.gather(*self._connections, return_exceptions=True)
        await self._server.wait_closed()
        self._server = None

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            await _Connection(self, reader, writer).run()
        except (ConnectionError, asyncio.CancelledError):
            pass  # the client went away, or the server is closing
        finally:
            self._connections.discard(task)
            writer.close()


async def serve(
    handler: Handler,
    host: str = "127.0.0.1",
    port: int = 8787,
    *,
    max_body_bytes: int = MAX_REQUEST_BODY_BYTES,
) -> Server:
    server = Server(handler, max_body_bytes)
    await server._start(host, port)
    return server


class _Connection:
    """One client connection: a loop of read request -> call handler -> write response."""

    def __init__(self, server: Server, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self._server = server
        self._reader = reader
        self._writer = writer
        self._h11 = h11.Connection(h11.SERVER, max_incomplete_event_size=_MAX_HEADER_BYTES)

    async def run(self) -> None:
        while True:
            try:
                received = await self._read_request()
            except h11.RemoteProtocolError as exc:
                await self._send_error(exc.error_status_hint, "bad request")
                return
            except _BodyTooLarge:
                await self._send_error(413, "request body too large")
                return
            if received is None:
                return
            request_event, body = received
            response = await self._respond(request_event, body)
            await self._write(response, request_event.method == b"HEAD")
            if self._h11.our_state is not h11.DONE or self._h11.their_state is not h11.DONE:
                return
            self._h11.start_next_cycle()

    async def _next_event(self) -> object:
        while True:
            event = self._h11.next_event()
            if event is not h11.NEED_DATA:
                return event
            if self._h11.they_are_waiting_for_100_continue:
                self._send(h11.InformationalResponse(status_code=100, headers=[]))
            self._h11.receive_data(await self._reader.read(_READ_SIZE))

    async def _read_request(self) -> tuple[h11.Request, bytes] | None:
        request = await self._next_event()
        if not isinstance(request, h11.Request):
            return None  # ConnectionClosed between requests
        declared = _header(request, b"content-length")
        if (
            declared is not None
            and declared.isdigit()
            and int(declared) > self._server._max_body_bytes
        ):
            raise _BodyTooLarge
        body = bytearray()
        while not isinstance(event := await self._next_event(), h11.EndOfMessage):
            if isinstance(event, h11.ConnectionClosed):
                return None
            body += event.data  # type: ignore[attr-defined]
            if len(body) > self._server._max_body_bytes:
                raise _BodyTooLarge
        return request, bytes(body)

    async def _respond(self, event: h11.Request, body: bytes) -> FetchResponse:
        try:
            request = _to_request(event, body, self._server)
        except JsException as exc:
            return _json_response(501, f"unsupported request: {exc.message}")
        try:
            response = await self._server._handler(request)
            if not isinstance(response, FetchResponse):
                raise TypeError(f"handler returned {type(response).__name__}, not a Response")
            return response
        except Exception:
            log.exception("handler failed for %s %s", request.js_object.method, request.url)
            return _json_response(500, "internal error")

    async def _write(self, response: FetchResponse, head_only: bool, close: bool = False) -> None:
        stream = response.body
        headers = [(k, v) for k, v in response.headers.items() if k.lower() not in _FRAMING_HEADERS]
        if close:
            headers.append(("connection", "close"))  # h11 then ends the connection after this
        if stream is None and response.status not in (204, 304):
            headers.append(("content-length", "0"))
        elif stream is not None and stream.length is not None:
            headers.append(("content-length", str(stream.length)))
        self._send(
            h11.Response(
                status_code=response.status,
                headers=headers,
                reason=response.status_text or _reason(response.status),
            )
        )
        if stream is not None and not head_only:
            await self._write_body(response)
        elif stream is not None:
            await stream.cancel()
        self._send(h11.EndOfMessage())
        await self._writer.drain()

    async def _write_body(self, response: FetchResponse) -> None:
        # Closed on every exit, so a client that goes away cancels the body's stream (and with
        # it whatever produces it) now, not when the garbage collector finds the generator.
        chunks = aiter(response.body)  # type: ignore[arg-type]
        try:
            async for chunk in chunks:
                self._send(h11.Data(data=chunk.to_bytes()))
                await self._writer.drain()
        except ConnectionError:
            raise  # the client went away
        except Exception:
            # Headers are gone already; all that is left is to cut the connection short.
            log.exception("response body failed mid-stream")
            raise ConnectionAbortedError from None
        finally:
            await chunks.aclose()  # type: ignore[attr-defined]

    async def _send_error(self, status: int, message: str) -> None:
        if self._h11.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
            return
        # h11 refuses to answer a request it could not parse at all: then just close.
        with contextlib.suppress(h11.LocalProtocolError):
            await self._write(_json_response(status, message), head_only=False, close=True)

    def _send(self, event: h11.Event) -> None:
        data = self._h11.send(event)
        if data:
            self._writer.write(data)


def _header(event: h11.Request, name: bytes) -> str | None:
    for key, value in event.headers:
        if key == name:
            return value.decode("latin-1")
    return None


def _to_request(event: h11.Request, body: bytes, server: Server) -> Request:
    host = _header(event, b"host") or f"{server.host}:{server.port}"
    method = event.method.decode("ascii")
    with_body = body and method not in (HTTPMethod.GET, HTTPMethod.HEAD)
    return Request(
        f"http://{host}{event.target.decode('latin-1')}",
        method=method,
        headers=[(k.decode("latin-1"), v.decode("latin-1")) for k, v in event.headers],
        body=body if with_body else None,
    )


def _json_response(status: int, message: str) -> Response:
    return Response.from_json({"error": message}, status=status)


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""
