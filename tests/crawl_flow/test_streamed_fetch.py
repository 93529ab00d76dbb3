"""The Workers shell's HTTP client (entry.WorkersHttpClient) streaming a body into a sink, here
over the local platform's fetch (h11): every byte arrives in order, the cap cuts exactly, a
timeout mid-body ends the exchange, and the sink's own time is not charged to the timeout."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

import pytest

from common import ports
from tests.support.site_server import StreamReply, serve_site

BODY = bytes(range(256)) * 12  # 3 KiB, every byte value


class Collect:
    def __init__(self, delay_s: float = 0.0, wants: int = 1 << 30) -> None:
        self.delay_s, self.wants = delay_s, wants
        self.opened: tuple[int, dict[str, str]] | None = None
        self.chunks: list[bytes] = []

    def open(self, status: int, headers: dict[str, str]) -> int:
        self.opened = (status, headers)
        return self.wants

    async def feed(self, chunk: bytes) -> None:
        if self.delay_s:
            time.sleep(self.delay_s)  # CPU-bound work, as parsing is: it blocks the loop
        self.chunks.append(chunk)


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


def stalls() -> Iterator[bytes]:
    yield b"<title>first part</title>"
    yield from itertools.repeat(b"x", 3)  # one byte a second


async def test_a_timeout_mid_body_ends_the_exchange_with_what_arrived_fed() -> None:
    sink = Collect()
    with serve_site({"/stall": StreamReply(stalls, pause_s=1.0)}) as site:
        result = await fetch(site.url("/stall"), sink, timeout_s=0.5)

    assert (result.status, result.error) == (0, "timed out after 0.5 s")
    assert b"".join(sink.chunks) == b"<title>first part</title>"


async def test_the_sinks_own_time_is_not_charged_to_the_timeout() -> None:
    sink = Collect(delay_s=0.3)  # four chunks: 1.2 s of parsing against a 0.8 s timeout
    reply = StreamReply(lambda: iter([b"a" * 10] * 4), pause_s=0.05)
    with serve_site({"/slow-to-parse": reply}) as site:
        result = await fetch(site.url("/slow-to-parse"), sink, timeout_s=0.8)

    assert (result.status, b"".join(sink.chunks)) == (200, b"a" * 40)
