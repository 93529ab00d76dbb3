"""`local_platform.http_server.serve` on a real 127.0.0.1 socket, driven by httpx and raw bytes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from http import HTTPMethod

import httpx
import pytest

from local_platform.http import BodyStream, Request, Response
from local_platform.http_server import Server, serve

CAP = 1000


async def app(request: Request) -> Response:
    path = request.url.split("/", 3)[3].partition("?")[0]
    if path == "echo":
        body = await request.bytes()
        return Response.from_json(
            {
                "method": request.js_object.method,
                "url": request.url,
                "length": len(body),
                "body": body.decode(),
                "x-test": request.headers.get("x-test"),
                "has_body": request.body is not None,
            }
        )
    if path == "boom":
        raise RuntimeError("secret detail")
    if path == "stream":
        return Response(BodyStream(_parts()), headers={"content-type": "text/plain"})
    if path == "cookies":
        return Response(
            "ok",
            status=201,
            headers=[("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"), ("X-Two", "1"), ("X-Two", "2")],
        )
    if path == "empty":
        return Response(None, status=204)
    if path == "not-a-response":
        return "oops"  # type: ignore[return-value]
    return Response("missing", status=404)


async def _parts() -> AsyncIterator[bytes]:
    for part in (b"one ", b"two ", b"three"):
        yield part


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    server = await serve(app, port=0, max_body_bytes=CAP)
    yield server
    await server.close()


@pytest.fixture
async def client(server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.port}", trust_env=False) as c:
        yield c


def test_port_zero_picks_a_free_port(server) -> None:
    assert server.port > 0 and server.host == "127.0.0.1"


async def test_get_becomes_a_request(client, server) -> None:
    response = await client.get("/echo?q=1", headers={"X-Test": "yes"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {
        "method": "GET",
        "url": f"http://127.0.0.1:{server.port}/echo?q=1",
        "length": 0,
        "body": "",
        "x-test": "yes",
        "has_body": False,
    }


async def test_content_length_body(client) -> None:
    response = await client.post("/echo", content=b"hello body")
    assert response.json()["body"] == "hello body"
    assert response.json()["has_body"] is True


async def test_chunked_request_body(client) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        for part in (b"chunk-1 ", b"chunk-2"):
            yield part

    response = await client.put("/echo", content=chunks())
    assert response.json()["body"] == "chunk-1 chunk-2"
    assert response.json()["method"] == "PUT"


@pytest.mark.parametrize("size", [CAP, CAP + 1])
async def test_content_length_cap(client, size: int) -> None:
    response = await client.post("/echo", content=b"x" * size)
    if size <= CAP:
        assert response.json()["length"] == size
    else:
        assert response.status_code == 413
        assert response.json() == {"error": "request body too large"}


async def test_chunked_body_over_the_cap_is_413(client) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(5):
            yield b"x" * 300

    response = await client.post("/echo", content=chunks())
    assert response.status_code == 413


async def test_handler_exception_is_a_500_without_details(client, caplog) -> None:
    with caplog.at_level(logging.ERROR, logger="local_platform.http_server"):
        response = await client.get("/boom")
    assert response.status_code == 500
    assert response.json() == {"error": "internal error"}
    assert "secret detail" not in response.text
    assert "RuntimeError: secret detail" in caplog.text  # the traceback is logged


async def test_handler_returning_a_non_response_is_a_500(client) -> None:
    assert (await client.get("/not-a-response")).status_code == 500


async def test_streamed_response_is_chunked(client) -> None:
    response = await client.get("/stream")
    assert response.headers.get("transfer-encoding") == "chunked"
    assert response.text == "one two three"


async def test_status_and_repeated_headers(client) -> None:
    response = await client.get("/cookies")
    assert response.status_code == 201
    assert response.headers.get_list("set-cookie") == ["a=1", "b=2"]
    assert response.headers["x-two"] == "1, 2"
    assert response.headers["content-length"] == "2"


async def test_no_content_and_head(client) -> None:
    assert (await client.get("/empty")).status_code == 204
    head = await client.head("/stream")
    assert head.status_code == 200 and head.content == b""
    missing = await client.get("/nowhere")
    assert (missing.status_code, missing.text) == (404, "missing")


async def _exchange(server: Server, raw: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(raw)
    await writer.drain()
    data = await reader.read()  # until the server closes
    writer.close()
    return data


async def test_keep_alive_serves_several_requests_on_one_connection(server) -> None:
    raw = (
        b"GET /echo HTTP/1.1\r\nHost: a\r\n\r\n"
        b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
        b"GET /echo HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
    )
    data = await _exchange(server, raw)
    assert data.count(b"HTTP/1.1 200 OK") == 3
    assert b'"body": "abc"' in data


async def test_malformed_request_is_400(server) -> None:
    data = await _exchange(server, b"NONSENSE\r\n\r\n")
    assert data.startswith(b"HTTP/1.1 400")


async def test_a_method_http_method_cannot_name_reaches_the_handler(server) -> None:
    # Any token is a method to JS's Request (and workerd hands WebDAV methods to a Worker); the
    # handler decides what it answers (the API: 405).
    data = await _exchange(server, b"BREW /echo HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
    assert data.startswith(b"HTTP/1.1 200")
    assert b'"method": "BREW"' in data


async def test_close_ends_open_keep_alive_connections(server) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"GET /echo HTTP/1.1\r\nHost: a\r\n\r\n")
    await writer.drain()
    await reader.readuntil(b"}")
    await server.close()
    assert await reader.read() == b""
    writer.close()
    with pytest.raises(OSError):
        await asyncio.open_connection("127.0.0.1", server.port)


async def test_request_methods_are_httpmethod(client) -> None:
    seen: list[HTTPMethod] = []

    async def record(request: Request) -> Response:
        seen.append(request.method)
        return Response("")

    other = await serve(record, port=0)
    try:
        async with httpx.AsyncClient(trust_env=False) as c:
            await c.delete(f"http://127.0.0.1:{other.port}/x")
            await c.patch(f"http://127.0.0.1:{other.port}/x", content=b"p")
    finally:
        await other.close()
    assert seen == [HTTPMethod.DELETE, HTTPMethod.PATCH]
