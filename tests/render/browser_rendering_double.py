"""A double of Browser Rendering's REST `/content` on 127.0.0.1, for both test tiers.

It answers as the endpoint does (render.browser_rendering's docstring): the API envelope with the
"rendered" HTML in `result` and `X-Browser-Ms-Used`, 401 without the account's token, and, when
asked, a 429 with `Retry-After: 0` first, so a caller's back-off is exercised without waiting. The
"rendering" is a stand-in: the HTML names the URL and the options it was sent, so a test can see
what the renderer asked for. Every call is kept (`calls`): its path, headers and JSON body.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ACCOUNT = "acc0unt"
TOKEN = "t0ken"


@dataclass
class Call:
    path: str
    headers: dict[str, str]
    body: dict[str, object]


@dataclass
class Double:
    endpoint: str
    calls: list[Call] = field(default_factory=list)
    refusals: list[int] = field(default_factory=list)  # statuses to answer first, in order


def _rendered(body: dict[str, object]) -> str:
    options = json.dumps(body, sort_keys=True).replace("<", "\\u003c")
    return (
        f"<!doctype html><html><head><title>Rendered {body.get('url')}</title></head>"
        f"<body><script type=application/json id=options>{options}</script></body></html>"
    )


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        headers = {k.lower(): v for k, v in self.headers.items()}
        double = self.server.double
        double.calls.append(Call(self.path, headers, body))
        if self.path != f"/client/v4/accounts/{ACCOUNT}/browser-rendering/content":
            return self._answer(
                404, {"success": False, "errors": [{"code": 7003, "message": "No route"}]}
            )
        if headers.get("authorization") != f"Bearer {TOKEN}":
            return self._answer(
                401,
                {"success": False, "errors": [{"code": 10000, "message": "Authentication error"}]},
            )
        if double.refusals:
            status = double.refusals.pop(0)
            error = {"code": 2001, "message": "Rate limit exceeded"}
            return self._answer(status, {"success": False, "errors": [error]}, {"retry-after": "0"})
        envelope = {"success": True, "result": _rendered(body), "errors": [], "messages": []}
        self._answer(200, envelope, {"x-browser-ms-used": "1234"})

    def _answer(self, status: int, envelope: object, headers: dict[str, str] | None = None) -> None:
        payload = json.dumps(envelope).encode()
        self.send_response(status)
        for name, value in {"content-type": "application/json", **(headers or {})}.items():
            self.send_header(name, value)
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    double: Double


@contextmanager
def serve_double(refusals: list[int] | None = None) -> Iterator[Double]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.double = Double(f"http://127.0.0.1:{server.server_address[1]}/client/v4")
    server.double.refusals = list(refusals or [])
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.double
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
