"""What the core asks of the world besides bindings: outbound HTTP, the time and AES-GCM.

The Workers shell (entry.py) configures these with `workers.fetch`, the runtime clock and WebCrypto;
the local platform keeps the shell's HTTP client (running over its own `workers.fetch`), swaps the
cipher for `cryptography`'s (local_platform.cipher) and may swap the clock for one that tests move
by hand. Bindings (D1, Durable Objects, Workflows, ...) are not
here: the core reaches them through `env`, duck-typed, exactly as the SDK presents them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from common.sealing import Cipher


class BodySink(Protocol):
    """Where a streamed response body goes, network chunk by network chunk (the crawl's pages).

    A client that honours `FetchRequest.sink` calls `open` once the response headers arrive (it
    answers how many body bytes it wants: a body it will not parse needs less), then awaits
    `feed` with each body chunk as it arrives (at most the smaller of that and `max_bytes` in
    all, the last chunk cut there, `truncated` set if the body went on), and returns a
    `FetchResult` whose `body` is empty. A client that
    does not stream returns the body whole in `body` and never calls the sink: the caller feeds
    it then (crawl.page_stream), so plain clients and test doubles keep working. A timeout
    mid-body ends the exchange like any other timeout (status 0), whatever was fed already.
    """

    def open(self, status: int, headers: dict[str, str]) -> int: ...

    async def feed(self, chunk: bytes) -> None: ...


@dataclass(frozen=True, slots=True)
class FetchRequest:
    """One outbound request: a crawl's GET, or an alert's POST with its `body`; `sink` streams
    the response body instead of returning it (`BodySink`)."""

    url: str
    timeout_s: float
    max_bytes: int
    headers: dict[str, str] = field(default_factory=dict)
    method: str = "GET"
    body: bytes | None = None
    sink: BodySink | None = None


@dataclass(frozen=True, slots=True)
class FetchResult:
    """One HTTP exchange, redirects not followed.

    `status` 0 means no response (DNS, connection, TLS or timeout failure, described by `error`).
    `headers` maps lowercase names to values, repeated headers joined with ", " as fetch does.
    `elapsed_ms` runs from the request start to the response headers. `body` is empty when the
    request's sink received it.
    """

    url: str
    status: int
    headers: dict[str, str]
    body: bytes
    truncated: bool
    elapsed_ms: float
    error: str | None = None

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())


class HttpClient(Protocol):
    async def fetch(self, request: FetchRequest) -> FetchResult: ...


def _wall_clock_ms() -> float:
    # On Workers, Date.now() only advances across I/O (a Spectre mitigation); that is precise
    # enough for timestamps and deadlines measured around fetches.
    return time.time() * 1000.0


@dataclass(slots=True)
class Ports:
    http: HttpClient | None = None
    now_ms: Callable[[], float] = _wall_clock_ms
    cipher: Cipher | None = None


_PORTS = Ports()


def configure(
    *,
    http: HttpClient | None = None,
    now_ms: Callable[[], float] | None = None,
    cipher: Cipher | None = None,
) -> None:
    """Install the platform's implementations; called once by the shell, or by the local platform."""
    if http is not None:
        _PORTS.http = http
    if now_ms is not None:
        _PORTS.now_ms = now_ms
    if cipher is not None:
        _PORTS.cipher = cipher


def http_client() -> HttpClient:
    if _PORTS.http is None:
        raise RuntimeError("no HTTP client configured: the Worker shell configures one at import")
    return _PORTS.http


def cipher() -> Cipher:
    """AES-256-GCM (common.sealing), as the platform provides it."""
    if _PORTS.cipher is None:
        raise RuntimeError("no cipher configured: the Worker shell configures one at import")
    return _PORTS.cipher


def now_ms() -> float:
    return _PORTS.now_ms()


def iso_now() -> str:
    """The current UTC time as the D1 tables store it: YYYY-MM-DDTHH:MM:SS.sssZ."""
    return iso_from_ms(now_ms())


def iso_from_ms(ms: float) -> str:
    seconds, millis = divmod(int(ms), 1000)
    return f"{_iso_second(seconds)}.{millis:03d}Z"


@lru_cache(maxsize=4)
def _iso_second(seconds: int) -> str:
    """Cached: a crawl stamps many pages within each second."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
