"""A small HTTP/1.1 client for the local platform's `fetch()`: asyncio streams plus h11.

Why not httpx: its connection pool re-examines every pooled connection (a poll() syscall each) on
every request, which cost a third of a local crawl's CPU at 40 requests in flight
(bench/crawl_bench.py profile). A crawler needs much less: keep-alive connections kept per origin,
taken and returned in O(1), bodies streamed and decoded (gzip, deflate) as a browser's fetch does.
Redirects, timeouts and byte caps are the caller's (fetch.py and the Worker's HTTP client).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import socket
import ssl
import zlib
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import h11

READ_SIZE = 64 * 1024
MAX_IDLE_PER_ORIGIN = 64
CLOSE_WAIT_S = 1.0  # aclose()'s patience with a TLS peer that does not answer close_notify
_USER_AGENT = "siteaudit-local-platform"

Origin = tuple[str, str, int]


class HttpClientError(OSError):
    """The connection failed or the server broke the protocol."""


@dataclass(slots=True, eq=False)
class _Connection:
    origin: Origin
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    protocol: h11.Connection = field(default_factory=lambda: h11.Connection(h11.CLIENT))

    def reusable(self) -> bool:
        return self.protocol.our_state is h11.IDLE and not self.reader.at_eof()

    def close(self) -> None:
        self.writer.close()


@dataclass(slots=True)
class ClientResponse:
    status: int
    reason: str
    headers: list[tuple[str, str]]
    body: AsyncIterator[bytes] | None
    _release: _Release

    async def aclose(self) -> None:
        """Stop reading: the connection is closed rather than returned mid-body."""
        self._release.discard()


class _Release:
    """Returns a connection to its pool once, or closes it; whichever comes first wins."""

    def __init__(self, pool: ConnectionPool, connection: _Connection) -> None:
        self._pool: ConnectionPool | None = pool
        self._connection = connection

    def keep(self) -> None:
        if self._pool is not None:
            self._pool.give_back(self._connection)
            self._pool = None

    def discard(self) -> None:
        if self._pool is not None:
            self._pool.close_connection(self._connection)
            self._pool = None


def _literal_address(host: str) -> list[str] | None:
    """An IP address written as the host is its own answer: the loop's getaddrinfo would take a
    round trip through its thread pool on every new connection to say the same."""
    try:
        return [str(ipaddress.ip_address(host.strip("[]")))]
    except ValueError:
        return None


async def _resolved_addresses(host: str, port: int) -> list[str]:
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM
        )
    except (OSError, UnicodeError) as exc:
        # UnicodeError: the stdlib's IDNA 2003 codec refuses an empty or long label (`http://./`,
        # `http://a..b/`), which the URL Standard accepts; no DNS name answers to them either.
        raise HttpClientError(f"cannot resolve {host}: {exc}") from exc
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class ConnectionPool:
    """Keep-alive connections per origin. `address_allowed(ip)` is asked about every address a
    host name resolves to before connecting; only an allowed address is connected to (by address,
    so a second DNS answer cannot swap in another), and a host with none is refused."""

    def __init__(self, address_allowed: Callable[[str], bool] = lambda _: True) -> None:
        self._address_allowed = address_allowed
        self._idle: defaultdict[Origin, list[_Connection]] = defaultdict(list)
        self._open_connections: set[_Connection] = set()  # idle or busy: closed by aclose()
        self._ssl_context: ssl.SSLContext | None = None  # made on first use: loading the system
        # store takes tens of ms, which an http:// crawl never needs

    @property
    def _ssl(self) -> ssl.SSLContext:
        if self._ssl_context is None:
            self._ssl_context = ssl.create_default_context()
        return self._ssl_context

    def trust_ca_file(self, path: str | os.PathLike[str]) -> None:
        """Also trust the CA certificate(s) in the PEM file `path`, besides the system store.

        For local sites served with a private CA (tests, staging). Verification stays as strict as
        ever: chains must lead to a trusted CA and certificates must name the host. Connections
        opened from now on use it; it lasts as long as this pool.
        """
        self._ssl.load_verify_locations(cafile=path)

    async def request(
        self, method: str, url: str, headers: list[tuple[str, str]], payload: bytes | None
    ) -> ClientResponse:
        origin, target = _origin_and_target(url)
        connection = await self._connection(origin)
        release = _Release(self, connection)
        try:
            await _send(connection, method, target, origin, headers, payload)
            response = await _receive_head(connection)
        except BaseException:
            release.discard()
            raise
        body = (
            None
            if method == "HEAD" or response.status_code in (204, 304)
            else _body(connection, release, _decoder(response.headers))
        )
        if body is None:
            await _finish_message(connection, release)
        reason = response.reason.decode("latin-1")
        pairs = [
            (name.decode("latin-1"), value.decode("latin-1")) for name, value in response.headers
        ]
        return ClientResponse(response.status_code, reason, pairs, body, release)

    async def _connection(self, origin: Origin) -> _Connection:
        idle = self._idle[origin]
        while idle:
            connection = idle.pop()
            if connection.reusable():
                return connection
            self.close_connection(connection)
        return await self._open(origin)

    async def _open(self, origin: Origin) -> _Connection:
        scheme, host, port = origin
        address = await self._checked_address(host, port)
        try:
            reader, writer = await asyncio.open_connection(
                address,
                port,
                ssl=self._ssl if scheme == "https" else None,
                server_hostname=host if scheme == "https" else None,
                limit=READ_SIZE,
            )
        except (OSError, ssl.SSLError) as exc:
            raise HttpClientError(f"cannot connect to {host}:{port}: {exc}") from exc
        sock = writer.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        connection = _Connection(origin, reader, writer)
        self._open_connections.add(connection)
        return connection

    async def _checked_address(self, host: str, port: int) -> str:
        addresses = _literal_address(host) or await _resolved_addresses(host, port)
        for address in addresses:
            if self._address_allowed(address):
                return address
        raise HttpClientError(
            f"refused to connect to {host}:{port}: it resolves only to non-public addresses "
            f"({', '.join(addresses)}); set ALLOW_PRIVATE_HOSTS to reach them"
        )

    def give_back(self, connection: _Connection) -> None:
        connection.protocol.start_next_cycle()
        idle = self._idle[connection.origin]
        if len(idle) < MAX_IDLE_PER_ORIGIN:
            idle.append(connection)
        else:
            self.close_connection(connection)

    def close_connection(self, connection: _Connection) -> None:
        self._open_connections.discard(connection)
        connection.close()

    async def aclose(self) -> None:
        connections = list(self._open_connections)
        for connection in connections:
            connection.close()
        self._open_connections.clear()
        self._idle.clear()
        # A TLS connection closes with a close_notify exchange that takes a few loop turns: wait
        # for it (briefly), or a loop that ends right after this call leaks its sockets.
        waits = [connection.writer.wait_closed() for connection in connections]
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(CLOSE_WAIT_S):
                await asyncio.gather(*waits, return_exceptions=True)


def _origin_and_target(url: str) -> tuple[Origin, str]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = parts.hostname or ""
    port = parts.port or (443 if scheme == "https" else 80)
    # An empty query is sent as "?", as a browser's fetch sends it: `/a?` is not `/a`.
    has_query = bool(parts.query) or url.partition("#")[0].endswith("?")
    target = (parts.path or "/") + (f"?{parts.query}" if has_query else "")
    return (scheme, host, port), target


def _host_header(origin: Origin) -> str:
    scheme, host, port = origin
    shown = f"[{host}]" if ":" in host else host
    return shown if port == (443 if scheme == "https" else 80) else f"{shown}:{port}"


async def _send(
    connection: _Connection,
    method: str,
    target: str,
    origin: Origin,
    headers: list[tuple[str, str]],
    payload: bytes | None,
) -> None:
    names = {name.lower() for name, _ in headers}
    extra = [("host", _host_header(origin))]
    if "accept-encoding" not in names:
        extra.append(("accept-encoding", "gzip, deflate"))
    if "user-agent" not in names:
        extra.append(("user-agent", _USER_AGENT))
    if payload is not None:
        extra.append(("content-length", str(len(payload))))
    request = h11.Request(method=method, target=target, headers=[*extra, *headers])
    data = connection.protocol.send(request) or b""
    if payload:
        data += connection.protocol.send(h11.Data(data=payload)) or b""
    data += connection.protocol.send(h11.EndOfMessage()) or b""
    try:
        connection.writer.write(data)
        await connection.writer.drain()
    except (OSError, ConnectionError) as exc:
        raise HttpClientError(f"sending the request failed: {exc}") from exc


async def _next_event(connection: _Connection) -> object:
    while True:
        try:
            event = connection.protocol.next_event()
        except h11.RemoteProtocolError as exc:
            raise HttpClientError(f"the server broke HTTP/1.1: {exc}") from exc
        if event is not h11.NEED_DATA:
            return event
        try:
            data = await connection.reader.read(READ_SIZE)
        except (OSError, ConnectionError) as exc:
            raise HttpClientError(f"reading the response failed: {exc}") from exc
        connection.protocol.receive_data(data)


async def _receive_head(connection: _Connection) -> h11.Response:
    while True:
        event = await _next_event(connection)
        if isinstance(event, h11.Response):
            return event
        if isinstance(event, h11.ConnectionClosed):
            raise HttpClientError("the server closed the connection without a response")
        # h11.InformationalResponse (1xx) is skipped, as fetch does.


async def _body(
    connection: _Connection, release: _Release, decoder: _Decoder
) -> AsyncIterator[bytes]:
    try:
        while True:
            event = await _next_event(connection)
            if isinstance(event, h11.Data):
                chunk = decoder.feed(bytes(event.data))
                if chunk:
                    yield chunk
            elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
                tail = decoder.flush()
                if tail:
                    yield tail
                break
        await _finish_message(connection, release)
    finally:
        release.discard()  # no-op once kept; closes a connection abandoned mid-body


async def _finish_message(connection: _Connection, release: _Release) -> None:
    protocol = connection.protocol
    while protocol.their_state is h11.SEND_BODY:
        await _next_event(connection)
    if protocol.our_state is h11.DONE and protocol.their_state is h11.DONE:
        release.keep()
    else:
        release.discard()


class _Decoder:
    """Content-Encoding as a browser's fetch decodes it: gzip and deflate; anything else as is."""

    def __init__(self, encoding: str) -> None:
        self._encoding = encoding
        self._inflate = _inflater(encoding)

    def feed(self, data: bytes) -> bytes:
        if self._inflate is None:
            return data
        try:
            return self._inflate.decompress(data)
        except zlib.error:
            if self._encoding == "deflate" and not self._raw_tried:
                return self._retry_raw(data)
            raise HttpClientError("the response body is not valid " + self._encoding) from None

    _raw_tried = False

    def _retry_raw(self, data: bytes) -> bytes:
        # "deflate" is meant to be zlib-wrapped, but some servers send a raw deflate stream.
        self._raw_tried = True
        self._inflate = zlib.decompressobj(-zlib.MAX_WBITS)
        return self.feed(data)

    def flush(self) -> bytes:
        return b"" if self._inflate is None else self._inflate.flush()


def _inflater(encoding: str) -> zlib._Decompress | None:
    if encoding in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if encoding == "deflate":
        return zlib.decompressobj()
    return None


def _decoder(headers: Iterable[tuple[bytes, bytes]]) -> _Decoder:
    for name, value in headers:
        if name.lower() == b"content-encoding":
            return _Decoder(value.decode("latin-1").strip().lower())
    return _Decoder("identity")
