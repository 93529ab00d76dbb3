"""A small HTTP site on a loopback address: fixed routes, dynamic handlers, a request log.

`siteaudit demo` serves the demo shop (demo.shop) with it, and the tests serve their fixture sites
with it (tests/support/site_server.py re-exports it). Threaded, HTTP/1.1 keep-alive, TCP_NODELAY
(without it Nagle plus delayed ACK adds ~40 ms to every response), bound to loopback only, one
fresh server per use. The standard library's http.server is enough: this never runs in a Worker.
"""

from __future__ import annotations

import contextlib
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import cast

__all__ = [
    "Reply",
    "Route",
    "Site",
    "SiteHTTPServer",
    "SiteHandler",
    "SiteRequest",
    "StreamReply",
    "html_page",
    "serve_site",
]


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(
        default_factory=lambda: {"content-type": "text/html; charset=utf-8"}
    )


@dataclass(frozen=True)
class StreamReply:
    """A body sent piece by piece (no Content-Length, connection closed at the end): for pages
    that are huge, trickle forever, or must be generated on the fly. `pause_s` between pieces."""

    chunks: Callable[[], Iterator[bytes]]
    status: int = 200
    headers: dict[str, str] = field(
        default_factory=lambda: {"content-type": "text/html; charset=utf-8"}
    )
    pause_s: float = 0.0


Route = Reply | StreamReply | Callable[["SiteRequest"], Reply | StreamReply]


@dataclass(frozen=True)
class SiteRequest:
    method: str
    path: str
    headers: dict[str, str]
    # When it arrived, on the monotonic clock: tests measure the pace of an audit's requests.
    at: float = field(default_factory=time.monotonic)


class SiteHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # `Server: BaseHTTP/0.6 Python/3.13.0` on every answer would be a version disclosure on
    # every fixture page (exposure-version-disclosed); a page that wants one sends its own.
    server_version = "fixture"
    sys_version = ""
    disable_nagle_algorithm = True
    server: SiteHTTPServer

    def do_GET(self) -> None:
        self._answer("GET")

    def do_HEAD(self) -> None:
        """GET's status and headers without the body (RFC 9110 §9.3.2)."""
        self._answer("HEAD")

    def _answer(self, method: str) -> None:
        request = SiteRequest(method, self.path, {k.lower(): v for k, v in self.headers.items()})
        self.server.log.append(request)
        route = self.server.routes.get(self.path.split("#")[0]) or self.server.routes.get(
            self.path.split("?")[0]
        )
        reply = (
            Reply(404, b"<title>Not found</title>")
            if route is None
            else (route(request) if callable(route) else route)
        )
        self.send_response(reply.status)
        for name, value in reply.headers.items():
            self.send_header(name, value)
        if isinstance(reply, StreamReply):
            self._stream(reply, method)
            return
        self.send_header("content-length", str(len(reply.body)))
        self.end_headers()
        if method != "HEAD":
            self.wfile.write(reply.body)

    def _stream(self, reply: StreamReply, method: str) -> None:
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True
        if method == "HEAD":
            return
        try:
            for piece in reply.chunks():
                self.wfile.write(piece)
                self.wfile.flush()
                if reply.pause_s:
                    time.sleep(reply.pause_s)
        except (ConnectionError, OSError):
            pass  # the client stopped reading at its cap or timeout

    def log_message(self, format: str, *args: object) -> None:
        pass


class SiteHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    routes: dict[str, Route]
    log: list[SiteRequest]
    # Every accepted connection, so stopping the site closes the keep-alive ones too: a stopped
    # site must stop answering, as a server that goes down does, not keep serving the clients
    # that still hold a connection from before.
    accepted: set[socket.socket]

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler]) -> None:
        self.accepted = set()
        super().__init__(address, handler)

    def get_request(self) -> tuple[socket.socket, object]:
        conn, address = super().get_request()
        self.accepted.add(conn)
        return conn, address

    def close_connections(self) -> None:
        for conn in list(self.accepted):
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: object, client_address: object) -> None:
        # A crawler that stops reading at its byte cap resets the connection: expected, not news.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


@dataclass
class Site:
    server: SiteHTTPServer

    @property
    def origin(self) -> str:
        host, port = self.server.server_address[:2]
        assert isinstance(host, str)  # bound to an IPv4 address given as text
        return f"http://{host}:{port}"

    def url(self, path: str) -> str:
        return self.origin + path

    @property
    def requests(self) -> list[SiteRequest]:
        return list(self.server.log)


@contextmanager
def serve_site[R: Route](
    routes: dict[str, R], host: str = "127.0.0.1", port: int = 0
) -> Iterator[Site]:
    """`routes` on `host` (a loopback address) at `port` (0: a free one)."""
    server = SiteHTTPServer((host, port), SiteHandler)
    # The server reads the very dict the test built (a test may add routes while the site runs),
    # whatever narrower kind of route its values were inferred as.
    server.routes = cast(dict[str, Route], routes)
    server.log = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Site(server)
    finally:
        server.shutdown()
        server.server_close()
        server.close_connections()
        thread.join()


def html_page(title: str, body: str = "", head: str = "") -> bytes:
    return (
        f"<!doctype html><html lang=en><head><title>{title}</title>{head}</head>"
        f"<body>{body}</body></html>"
    ).encode()
