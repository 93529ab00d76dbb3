"""The Workers shell's HTTP client (entry.WorkersHttpClient) streaming a body into a sink, here
over the local platform's fetch (h11): every byte arrives in order, the cap cuts exactly, a
timeout mid-body ends the exchange, and the sink's own time is not charged to the timeout, neither
its own fetch's nor that of any other fetch in flight.

The timeout tests move the loop's clock (tests/support/loop_clock.py) instead of racing real
pauses against a real timeout: the server holds the rest of a body on an event, and the sink's
time passes on the clock the timeout reads."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator

import pytest

from common import ports
from tests.support.loop_clock import LoopClock, loop_clock
from tests.support.site_server import StreamReply, serve_site

BODY = bytes(range(256)) * 12  # 3 KiB, every byte value


class Collect:
    def __init__(self, wants: int = 1 << 30, busy: tuple[LoopClock, float] | None = None) -> None:
        self.wants, self.busy = wants, busy
        self.opened: tuple[int, dict[str, str]] | None = None
        self.chunks: list[bytes] = []
        self.fed = 0
        self.changed = asyncio.Event()

    def open(self, status: int, headers: dict[str, str]) -> int:
        self.opened = (status, headers)
        return self.wants

    async def feed(self, chunk: bytes) -> None:
        if self.busy is not None:
            clock, seconds = self.busy
            clock.advance(seconds)  # CPU-bound work, as parsing is: no await, the loop is held
        self.chunks.append(chunk)
        self.fed += len(chunk)
        self.changed.set()

    async def fed_at_least(self, size: int) -> None:
        """Until `size` bytes have been fed."""
        while self.fed < size:
            self.changed.clear()
            await self.changed.wait()


def pieces(size: int) -> StreamReply:
    return StreamReply(lambda: (BODY[i : i + size] for i in range(0, len(BODY), size)))


async def fetch(url: str, sink: Collect, *, max_bytes: int = 1 << 20, timeout_s: float = 5.0):
    request = ports.FetchRequest(url, timeout_s, max_bytes, sink=sink)
    return await ports.http_client().fetch(request)


@pytest.mark.parametrize("size", [1, 100, 1000, len(BODY)])
async def test_every_chunking_reaches_the_sink_whole_and_in_order(size: int) -> None:
    sink = Collect()
    with serve_site({"/page": pieces(size)}) as site:
        result = await fetch(site.url("/page"), sink)

    assert (result.status, result.body, result.truncated) == (200, b"", False)
    assert sink.opened is not None and sink.opened[0] == 200
    assert sink.opened[1]["content-type"].startswith("text/html")
    assert b"".join(sink.chunks) == BODY


@pytest.mark.parametrize("cap", [0, 1, 999, len(BODY) - 1])
async def test_the_cap_cuts_the_streamed_body_exactly(cap: int) -> None:
    sink = Collect()
    with serve_site({"/page": pieces(100)}) as site:
        result = await fetch(site.url("/page"), sink, max_bytes=cap)

    assert (result.status, result.truncated) == (200, True)
    assert b"".join(sink.chunks) == BODY[:cap]


async def test_the_sink_may_want_less_than_the_cap() -> None:
    sink = Collect(wants=1000)
    with serve_site({"/page": pieces(100)}) as site:
        result = await fetch(site.url("/page"), sink, max_bytes=2000)

    assert (result.status, result.truncated, b"".join(sink.chunks)) == (200, True, BODY[:1000])


FIRST = b"<title>first part</title>"


def first_part_then(rest: threading.Event) -> Callable[[], Iterator[bytes]]:
    """The first part at once; the rest only once `rest` is set."""

    def pieces() -> Iterator[bytes]:
        yield FIRST
        rest.wait()
        yield b"x"

    return pieces


async def test_a_timeout_mid_body_ends_the_exchange_with_what_arrived_fed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock, sink, rest = loop_clock(monkeypatch), Collect(), threading.Event()
    with serve_site({"/stall": StreamReply(first_part_then(rest))}) as site:
        try:
            exchange = asyncio.ensure_future(fetch(site.url("/stall"), sink, timeout_s=30))
            await sink.fed_at_least(len(FIRST))
            clock.advance(30)  # the timeout passes with the rest of the body still held
            result = await exchange
        finally:
            rest.set()

    assert (result.status, result.error) == (0, "timed out after 30 s")
    assert b"".join(sink.chunks) == FIRST


async def test_the_sinks_own_time_is_not_charged_to_the_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sink = Collect(busy=(loop_clock(monkeypatch), 10.0))  # 40 s of parsing against a 5 s timeout
    reply = StreamReply(lambda: iter([b"a" * 10] * 4), pause_s=0.05)
    with serve_site({"/slow-to-parse": reply}) as site:
        result = await fetch(site.url("/slow-to-parse"), sink, timeout_s=5.0)

    assert (result.status, b"".join(sink.chunks)) == (200, b"a" * 40)


async def test_one_sinks_time_is_charged_to_no_other_fetch_in_flight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While one page is parsed the loop serves no other response: a page whose bytes wait in
    the socket meanwhile has not timed out because of the site."""
    clock, rest = loop_clock(monkeypatch), threading.Event()
    waiting = Collect()
    parsing = Collect(busy=(clock, 10.0))  # 40 s of parsing against the other's 30 s timeout
    reply = StreamReply(lambda: iter([b"a" * 10] * 4), pause_s=0.05)
    routes = {"/stall": StreamReply(first_part_then(rest)), "/slow-to-parse": reply}
    with serve_site(routes) as site:
        try:
            held = asyncio.ensure_future(fetch(site.url("/stall"), waiting, timeout_s=30))
            await waiting.fed_at_least(len(FIRST))
            parsed = await fetch(site.url("/slow-to-parse"), parsing, timeout_s=5.0)
            assert not held.done()
            rest.set()  # the server sends the rest: the held page arrives whole
            result = await held
        finally:
            rest.set()

    assert (parsed.status, result.status, result.error) == (200, 200, None)
    assert b"".join(waiting.chunks).startswith(FIRST) and len(b"".join(waiting.chunks)) > len(FIRST)
