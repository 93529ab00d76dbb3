"""entry.PulledBody (a streamed response body) over the local `js.ReadableStream` and `pyodide.ffi`.

The body is pulled one chunk per read (nothing is read ahead of the client), a reader that stops
early closes the Python iterator, a failing iterator cuts the stream, and the proxies the shell
made are destroyed once the stream is over, whichever way it ends.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

import pytest

from local_platform import js_streams, workers_sdk
from local_platform.errors import JsException
from local_platform.http import BodyUsedError, Response, _Reader

workers_sdk.install()
from entry import PulledBody  # noqa: E402  (the local `workers`, `js` and `pyodide` first)


class Source:
    """An export-like generator that records what it produced and whether it was closed."""

    def __init__(self, chunks: list[bytes], fail_at: int | None = None) -> None:
        self.chunks = chunks
        self.fail_at = fail_at
        self.produced = 0
        self.closed = False
        self.gate: asyncio.Event | None = None

    async def run(self) -> AsyncGenerator[bytes]:
        try:
            for n, chunk in enumerate(self.chunks):
                if n == self.fail_at:
                    raise RuntimeError("D1 went away")
                if self.gate is not None:
                    await self.gate.wait()
                self.produced += 1
                yield chunk
        finally:
            self.closed = True


def streamed(source: Source) -> tuple[PulledBody, Response]:
    body = PulledBody(source.run())
    return body, Response(body.readable(), status=200)


def destroyed(body: PulledBody) -> bool:
    return not body._proxies


async def test_the_whole_body_reads_back_and_the_proxies_are_released() -> None:
    source = Source([b"id,url\r\n", b"1,a\r\n", b"2,b\r\n"])
    body, response = streamed(source)

    assert await response.text() == "id,url\r\n1,a\r\n2,b\r\n"
    assert source.closed and destroyed(body)


async def read_bytes(reader: _Reader) -> bytes:
    """The next chunk, which the test expects to be there."""
    result = await reader.read()
    assert result.value is not None
    return result.value.to_bytes()


async def test_each_read_pulls_one_chunk_and_nothing_runs_ahead() -> None:
    source = Source([b"a", b"b", b"c"])
    _, response = streamed(source)
    reader = response.body.getReader()  # type: ignore[union-attr]

    assert source.produced == 0
    assert await read_bytes(reader) == b"a"
    assert source.produced == 1
    assert await read_bytes(reader) == b"b"
    assert source.produced == 2


async def test_a_reader_that_cancels_closes_the_iterator() -> None:
    source = Source([b"a", b"b", b"c"])
    body, response = streamed(source)
    reader = response.body.getReader()  # type: ignore[union-attr]
    await reader.read()

    await reader.cancel("client went away")

    assert source.closed and source.produced == 1 and destroyed(body)
    with pytest.raises(BodyUsedError):
        await response.text()


async def test_a_cancel_during_a_pull_waits_for_it_then_closes_the_iterator() -> None:
    source = Source([b"a", b"b"])
    source.gate = asyncio.Event()
    body, response = streamed(source)
    stream: Any = response.body
    reading = asyncio.ensure_future(stream.getReader().read())
    await asyncio.sleep(0)  # the read is waiting inside pull
    cancelling = asyncio.ensure_future(stream.cancel("gone"))
    await asyncio.sleep(0)
    assert not source.closed  # cancel waits for the pull in flight

    source.gate.set()
    await cancelling

    assert (await reading).done  # the chunk read meanwhile is dropped, not enqueued
    assert source.closed and destroyed(body)


async def test_an_iterator_that_fails_cuts_the_stream() -> None:
    source = Source([b"a", b"b", b"c"], fail_at=1)
    body, response = streamed(source)
    reader = response.body.getReader()  # type: ignore[union-attr]
    assert await read_bytes(reader) == b"a"

    with pytest.raises(RuntimeError, match="D1 went away"):
        await reader.read()
    assert source.closed and destroyed(body)


def test_the_local_js_surface_refuses_what_js_refuses() -> None:
    proxy = js_streams.create_proxy(lambda: 1)
    assert proxy() == 1
    proxy.destroy()
    with pytest.raises(JsException, match="already been destroyed"):
        proxy()
    controller = js_streams.ReadableStreamDefaultController()
    controller.close()
    with pytest.raises(JsException, match="closed"):
        controller.enqueue(js_streams.to_js(b"late"))


def test_to_js_makes_uint8arrays_and_js_objects() -> None:
    converted = js_streams.to_js(
        {"pull": 1, "data": b"x"}, dict_converter=js_streams.Object.fromEntries
    )
    assert converted.pull == 1 and converted.data.to_bytes() == b"x"
    assert js_streams.ReadableStream.new(object()).constructor.name == "ReadableStream"
