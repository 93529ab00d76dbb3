"""The SDK's HTTP surface: `Request`, `Response`, `FetchResponse`, header mapping, body streams."""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPMethod, HTTPStatus

import pytest

from local_platform.errors import JsException
from local_platform.http import (
    BodyStream,
    BodyUsedError,
    FetchResponse,
    Request,
    Response,
    headers_message,
)


@pytest.mark.parametrize(
    ("pairs", "name", "get", "get_all"),
    [
        ([("X-A", "1"), ("x-a", "2")], "X-a", "1, 2", ["1, 2"]),
        ([("Set-Cookie", "a=1"), ("set-cookie", "b=2, c")], "SET-COOKIE", "a=1", ["a=1", "b=2, c"]),
        ([("Content-Type", " text/html ")], "content-type", "text/html", ["text/html"]),
        ([], "missing", None, None),
    ],
)
def test_headers_message_joins_duplicates_except_set_cookie(pairs, name, get, get_all) -> None:
    headers = headers_message(pairs)
    assert headers.get(name) == get
    assert headers.get_all(name) == get_all


def test_headers_are_a_mapping_with_lowercase_sorted_names() -> None:
    headers = headers_message([("B", "2"), ("a", "1"), ("Set-Cookie", "s=1")])
    assert isinstance(headers, Mapping)
    assert list(headers) == ["Set-Cookie", "a", "b"]
    assert headers["A"] == "1"
    assert "b" in headers


async def test_request_surface() -> None:
    request = Request(
        "https://example.com/x?y=1",
        method="post",
        headers=[("X-One", "1"), ("x-one", "2")],
        body='{"k": [1, 2]}',
    )
    assert request.url == "https://example.com/x?y=1"
    assert request.method is HTTPMethod.POST
    assert request.headers.get("x-one") == "1, 2"
    assert request.headers.get("content-type") == "text/plain;charset=UTF-8"
    assert request.body is not None
    assert await request.json() == {"k": [1, 2]}
    with pytest.raises(OSError, match="Body already used"):
        await request.text()


@pytest.mark.parametrize(
    ("reader", "expected"),
    [("text", "héllo"), ("bytes", "héllo".encode()), ("buffer", memoryview("héllo".encode()))],
)
async def test_request_body_readers(reader: str, expected: object) -> None:
    request = Request("https://example.com/", method=HTTPMethod.PUT, body="héllo".encode())
    assert await getattr(request, reader)() == expected


@pytest.mark.parametrize(
    ("sent", "name", "member"),
    [("post", "POST", HTTPMethod.POST), (HTTPMethod.PATCH, "PATCH", HTTPMethod.PATCH)],
)
def test_a_standard_method_is_an_http_method(
    sent: str | HTTPMethod, name: str, member: HTTPMethod
) -> None:
    request = Request("https://example.com/", method=sent)
    assert (request.method, request.js_object.method) == (member, name)


def test_another_method_is_kept_as_sent_and_the_sdk_enum_cannot_name_it() -> None:
    request = Request("https://example.com/", method="PROPFIND")

    assert request.js_object.method == "PROPFIND"
    with pytest.raises(KeyError):
        _ = request.method  # as the SDK's HTTPMethod[js_request.method] fails


def test_a_method_that_is_not_a_token_is_a_type_error() -> None:
    with pytest.raises(JsException, match="Invalid HTTP method"):
        Request("https://example.com/", method="GET /x")


def test_request_without_body_has_none_body() -> None:
    assert Request("https://example.com/").body is None


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_get_or_head_request_with_body_is_refused(method: str) -> None:
    with pytest.raises(JsException, match="cannot have a body"):
        Request("https://example.com/", method=method, body="x")


def test_invalid_header_name_is_refused() -> None:
    with pytest.raises(JsException, match="Invalid header name"):
        Request("https://example.com/", headers={"bad name": "x"})


@pytest.mark.parametrize(
    ("body", "content_type", "data"),
    [
        ("text", "text/plain;charset=UTF-8", b"text"),
        (b"\x00\x01", None, b"\x00\x01"),
        (memoryview(b"mv"), None, b"mv"),
        (None, None, b""),
    ],
)
async def test_response_bodies(body, content_type, data: bytes) -> None:
    response = Response(body)
    assert response.status == 200
    assert response.headers.get("content-type") == content_type
    assert (response.body is None) == (body is None)
    assert await response.bytes() == data


def test_response_refuses_unsupported_body_types() -> None:
    with pytest.raises(TypeError, match="Unsupported type in Response: dict"):
        Response({"a": 1})  # type: ignore[arg-type]


@pytest.mark.parametrize("status", [0, 199, 600])
def test_response_status_out_of_range_is_refused(status: int) -> None:
    with pytest.raises(JsException, match="range 200 to 599"):
        Response("x", status=status)


def test_null_body_status_cannot_have_a_body() -> None:
    with pytest.raises(JsException, match="null body status"):
        Response("x", status=204)
    assert Response(None, status=204).status == 204


async def test_response_json_static_and_instance_forms() -> None:
    # The SDK's static form, which mypy reads as the instance method called unbound.
    response = Response.json({"a": [1, "b"]}, status=HTTPStatus.CREATED, headers={"X-Y": "z"})  # type: ignore[arg-type]
    assert response.status == 201
    assert response.headers.get("content-type") == "application/json"
    assert response.headers.get("x-y") == "z"
    assert await response.json() == {"a": [1, "b"]}


def test_response_json_keeps_an_explicit_content_type() -> None:
    # The static form again (see above).
    response = Response.json([1], headers={"Content-Type": "application/problem+json"})  # type: ignore[arg-type]
    assert response.headers.get_all("content-type") == ["application/problem+json"]


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_redirect(status: int) -> None:
    response = Response.redirect("https://example.com/next", status)
    assert response.status == status
    assert response.headers.get("location") == "https://example.com/next"


def test_redirect_default_is_302_and_bad_status_is_a_value_error() -> None:
    assert Response.redirect("/x").status == 302
    with pytest.raises(ValueError, match="Invalid status code"):
        Response.redirect("/x", 200)


async def _chunks(*parts: bytes):
    for part in parts:
        yield part


async def test_fetch_response_surface_and_body_once() -> None:
    response = FetchResponse(
        status=404,
        status_text="Not Found",
        headers=[("A", "1")],
        url="https://e.com/",
        redirected=True,
        body=BodyStream(_chunks(b'{"x"', b": 1}")),
    )
    assert (response.status, response.ok, response.status_text) == (404, False, "Not Found")
    assert (response.url, response.redirected) == ("https://e.com/", True)
    assert await response.json() == {"x": 1}
    assert response.body_used
    for read in (response.text, response.bytes, response.json):
        with pytest.raises(BodyUsedError, match="Response body is already used"):
            await read()


async def test_body_stream_chunks_look_like_uint8array() -> None:
    stream = BodyStream(_chunks(b"ab", b"", b"cd"))
    chunks = [chunk async for chunk in stream]
    assert [chunk.to_bytes() for chunk in chunks] == [b"ab", b"cd"]  # empty chunks are skipped
    assert chunks[0].byteLength == 2
    with pytest.raises(BodyUsedError):
        aiter(stream)


async def test_body_stream_cancel_runs_the_release_hook_once() -> None:
    released: list[str] = []

    async def release() -> None:
        released.append("closed")

    stream = BodyStream(_chunks(b"a", b"b", b"c"), on_cancel=release)
    async for _ in stream:
        break
    await stream.cancel()
    await stream.cancel()
    assert released == ["closed"]
    with pytest.raises(BodyUsedError):
        await stream.read_all()


async def test_body_stream_reader_protocol() -> None:
    reader = BodyStream(_chunks(b"x", b"y")).getReader()
    first = await reader.read()
    assert first.value is not None
    assert (first.done, first.value.to_bytes()) == (False, b"x")
    await reader.cancel()
