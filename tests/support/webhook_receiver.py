"""A webhook receiver on 127.0.0.1 for alert tests: records each POST, answers scripted statuses.

`statuses` is the answer of each request in turn (the last one repeats), so a receiver that
fails once and then recovers is `[500, 200]`. `closed_port()` is a loopback port nobody listens
on: a receiver that is down.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Delivery:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str
    statuses: list[int]
    deliveries: list[Delivery] = field(default_factory=list)

    def answer(self) -> int:
        index = min(len(self.deliveries) - 1, len(self.statuses) - 1)
        return self.statuses[index]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        headers = {name.lower(): value for name, value in self.headers.items()}
        receiver = self.server.receiver
        receiver.deliveries.append(Delivery(self.path, headers, body))
        self.send_response(receiver.answer())
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        return


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    receiver: Receiver


@contextmanager
def serve_receiver(statuses: list[int] | None = None) -> Iterator[Receiver]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.receiver = Receiver(f"http://127.0.0.1:{server.server_port}/hooks", statuses or [200])
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.receiver
    finally:
        server.shutdown()
        server.server_close()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port
