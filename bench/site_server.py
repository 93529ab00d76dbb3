"""A local HTTP site for the benchmarks: a static directory and/or generated routes, with latency.

Generated routes are either a dict of `Page`s (`routes`) or a function of the path (`generated`,
returning None for 404), which builds each page on request so a large synthetic site
(bench/synthetic_site.py) costs the server no memory.

What bench/README.md ("Fair measurement") asks of a local server, and nothing else:
* threaded (`ThreadingHTTPServer`), HTTP/1.1 keep-alive, TCP_NODELAY (without it Nagle plus
  delayed ACK adds ~40 ms to every response), bound to 127.0.0.1 only; one fresh server per run;
* an optional injected latency per request (slept in the handler thread before answering), and
  per-path stalls (a path that answers only after N seconds, for head-of-line tests);
* a server-side request log, so every crawler is counted the same way: `distinct_html_200s()` is
  the number of distinct paths answered 200 with an HTML content type.

`stdlib_defaults=True` answers as `python3 -m http.server` does instead: HTTP/1.0, so a new
connection per request, and socketserver's listen backlog of 5 (`TCPServer.request_queue_size`).
A crawler with more connections than that in flight sees some connections wait for a SYN
retransmission (a second or more): the server the repeat-audit test (tests/test_same_verdict.py)
serves the PostgreSQL manual with, because that is where identical audits disagreed (issue 24).

Use as a context manager: `with SiteServer(root=Path(...), latency_s=0.05) as site: site.url("/")`.
"""

from __future__ import annotations

import contextlib
import mimetypes
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Self
from urllib.parse import unquote, urlsplit


@dataclass(frozen=True, slots=True)
class Page:
    """A generated route's answer."""

    body: bytes
    content_type: str = "text/html; charset=utf-8"
    status: int = 200


@dataclass(frozen=True, slots=True)
class Logged:
    """One answered request, as the server saw it."""

    path: str
    status: int
    content_type: str
    at: float  # time.monotonic() when the answer was sent


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive
    disable_nagle_algorithm = True  # TCP_NODELAY
    server: _Server

    def do_GET(self) -> None:
        self._answer(send_body=True)

    def do_HEAD(self) -> None:
        self._answer(send_body=False)

    def _answer(self, *, send_body: bool) -> None:
        site = self.server.site
        path = urlsplit(self.path).path
        delay = site.latency_s + site.stalls.get(path, 0.0)
        if delay > 0:
            time.sleep(delay)
        page = site.lookup(path)
        self.send_response(page.status)
        self.send_header("content-type", page.content_type)
        self.send_header("content-length", str(len(page.body)))
        self.end_headers()
        if send_body:
            # The client may have given up (a fetch timeout); the request is still logged below.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(page.body)
        site.record(Logged(path, page.status, page.content_type, time.monotonic()))

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128
    site: SiteServer

    def handle_error(self, request: object, client_address: object) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a client that hung up is normal
            super().handle_error(request, client_address)  # type: ignore[arg-type]


class _StdlibHandler(_Handler):
    protocol_version = "HTTP/1.0"  # http.server's default: the connection closes after each answer


class _StdlibServer(_Server):
    request_queue_size = 5  # socketserver.TCPServer's default, which http.server keeps


NOT_FOUND = Page(b"<!doctype html><title>Not found</title><h1>Not found</h1>", status=404)


class SiteServer:
    def __init__(
        self,
        root: Path | None = None,
        routes: dict[str, Page] | None = None,
        *,
        latency_s: float = 0.0,
        stalls: dict[str, float] | None = None,
        generated: Callable[[str], Page | None] | None = None,
        stdlib_defaults: bool = False,
    ) -> None:
        self.root = None if root is None else Path(root).resolve()
        self.routes = dict(routes or {})
        self.latency_s = latency_s
        self.stalls = dict(stalls or {})
        self.generated = generated
        self.stdlib_defaults = stdlib_defaults
        self.log: list[Logged] = []
        self._lock = threading.Lock()
        self._cache: dict[str, Page] = {}
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- serving ------------------------------------------------------------------------------

    def lookup(self, path: str) -> Page:
        if path in self.routes:
            return self.routes[path]
        if self.generated is not None:
            return self.generated(path) or NOT_FOUND
        if self.root is None:
            return NOT_FOUND
        cached = self._cache.get(path)
        if cached is None:
            cached = self._cache[path] = self._read(path)
        return cached

    def _read(self, path: str) -> Page:
        assert self.root is not None
        relative = unquote(path).lstrip("/") or "index.html"
        file = (self.root / relative).resolve()
        if not file.is_relative_to(self.root) or not file.is_file():
            return NOT_FOUND
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        if kind.startswith("text/"):
            kind += "; charset=utf-8"
        return Page(file.read_bytes(), kind)

    def record(self, entry: Logged) -> None:
        with self._lock:
            self.log.append(entry)

    # -- measuring ----------------------------------------------------------------------------

    def distinct_html_200s(self) -> int:
        with self._lock:
            return len(
                {
                    e.path
                    for e in self.log
                    if e.status == 200 and e.content_type.startswith("text/html")
                }
            )

    def requests(self) -> int:
        with self._lock:
            return len(self.log)

    def reset_log(self) -> None:
        with self._lock:
            self.log.clear()

    # -- lifecycle ----------------------------------------------------------------------------

    @property
    def origin(self) -> str:
        assert self._server is not None, "the server is not running"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def url(self, path: str = "/") -> str:
        return self.origin + path

    def __enter__(self) -> Self:
        server, handler = (
            (_StdlibServer, _StdlibHandler) if self.stdlib_defaults else (_Server, _Handler)
        )
        self._server = server(("127.0.0.1", 0), handler)
        self._server.site = self
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="bench-site",
            daemon=True,
        )
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        assert self._server is not None and self._thread is not None
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
        self._server = self._thread = None


if __name__ == "__main__":
    # Serve a folder by hand: python bench/site_server.py DIR [latency_ms] [--stdlib-defaults]
    words = [word for word in sys.argv[1:] if word != "--stdlib-defaults"]
    with SiteServer(
        Path(words[0]),
        latency_s=float(words[1] if len(words) > 1 else 0) / 1000,
        stdlib_defaults="--stdlib-defaults" in sys.argv,
    ) as s:
        print(s.url("/"), flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            print(f"{s.distinct_html_200s()} distinct HTML 200s, {s.requests()} requests")
