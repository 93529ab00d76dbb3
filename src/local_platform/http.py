"""The `workers` SDK's HTTP surface (`Request`, `Response`, `FetchResponse`) for CPython.

Shapes follow the SDK's `request.py`, `response.py` and `utils.py` (docs/platform.md §1.2,
§8): methods are `http.HTTPMethod`, headers are an `http.client.HTTPMessage` that is also a
`Mapping`, duplicate header values are joined with ", " except Set-Cookie (the
`python_request_headers_preserve_commas` behaviour, default from 2026-02-17), and a body is either
None or a stream of chunks that look like a JS `Uint8Array` seen from Python (`.to_bytes()`).

A body can be read once. Reading it again raises `BodyUsedError`, an `OSError` whose text is
Pyodide's "Response body is already used".
"""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from http import HTTPMethod, HTTPStatus
from typing import Any

from local_platform.errors import JsException

__all__ = [
    "BodyStream",
    "BodyUsedError",
    "FetchResponse",
    "HTTPMessageMapping",
    "HeadersInit",
    "JsRequest",
    "Request",
    "Response",
    "Uint8Array",
    "header_pairs",
    "headers_message",
]

HeadersInit = Mapping[str, str] | Iterable[tuple[str, str]] | http.client.HTTPMessage | None

# RFC 9110 token characters; JS `Headers` refuses anything else in a name.
_TOKEN = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
_NULL_BODY_STATUSES = frozenset({101, 204, 205, 304})
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


class BodyUsedError(OSError):
    """Pyodide's `pyodide.http.BodyUsedError`: the body was already read or cancelled."""

    def __init__(self) -> None:
        super().__init__("Response body is already used")


class HTTPMessageMapping(http.client.HTTPMessage, Mapping[str, str]):  # type: ignore[misc]
    """The SDK's header type: an `HTTPMessage` (`get`, `get_all`, case-insensitive) and a Mapping."""


class Uint8Array:
    """A chunk of a body stream as Pyodide presents a JS `Uint8Array`."""

    __slots__ = ("_data",)

    def __init__(self, data: bytes) -> None:
        self._data = data

    def to_bytes(self) -> bytes:
        return self._data

    def to_py(self) -> memoryview:
        return memoryview(self._data)

    @property
    def byteLength(self) -> int:
        return len(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"Uint8Array({len(self._data)} bytes)"


class _ReadResult:
    """What `reader.read()` resolves to in JS: `{done, value}`."""

    __slots__ = ("done", "value")

    def __init__(self, done: bool, value: Uint8Array | None) -> None:
        self.done = done
        self.value = value


class BodyStream:
    """A one-shot body: an async iterable of `Uint8Array` chunks, like a JS ReadableStream.

    `source` yields raw bytes; `on_cancel` releases whatever feeds it (an HTTP connection) when the
    reader stops early. `length` is the byte count when known up front (an in-memory body).
    """

    def __init__(
        self,
        source: AsyncIterator[bytes],
        *,
        length: int | None = None,
        on_cancel: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._source = source
        self._on_cancel = on_cancel
        self.length = length
        self.used = False
        self._closed = False

    @classmethod
    def from_bytes(cls, data: bytes) -> BodyStream:
        return cls(_single_chunk(data), length=len(data))

    @property
    def locked(self) -> bool:
        return self.used

    def __aiter__(self) -> AsyncIterator[Uint8Array]:
        self._claim()
        return self._chunks()

    def getReader(self) -> _Reader:
        self._claim()
        return _Reader(self, self._chunks())

    async def cancel(self, reason: object = None) -> None:
        """Stop reading and release the source; later reads raise `BodyUsedError`."""
        self.used = True
        await self._release()

    async def read_all(self) -> bytes:
        self._claim()
        return b"".join([chunk.to_bytes() async for chunk in self._chunks()])

    def _claim(self) -> None:
        if self.used:
            raise BodyUsedError()
        self.used = True

    async def _chunks(self) -> AsyncIterator[Uint8Array]:
        try:
            async for data in self._source:
                if self._closed:
                    return
                if data:
                    yield Uint8Array(bytes(data))
        finally:
            await self._release()

    async def _release(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._on_cancel is not None:
            await self._on_cancel()


class _Reader:
    """`stream.getReader()`: `await read()` -> `{done, value}`, `await cancel()`."""

    def __init__(self, stream: BodyStream, chunks: AsyncIterator[Uint8Array]) -> None:
        self._stream = stream
        self._chunks = chunks

    async def read(self) -> _ReadResult:
        try:
            return _ReadResult(False, await anext(self._chunks))
        except StopAsyncIteration:
            return _ReadResult(True, None)

    async def cancel(self, reason: object = None) -> None:
        await self._chunks.aclose()  # type: ignore[attr-defined]
        await self._stream.cancel(reason)

    def releaseLock(self) -> None:
        """Nothing to release locally; present because JS code calls it."""


async def _single_chunk(data: bytes) -> AsyncIterator[bytes]:
    yield data


def header_pairs(headers: HeadersInit) -> list[tuple[str, str]]:
    """Normalise the SDK's accepted header inputs (dict, list of pairs, HTTPMessage) to pairs."""
    if headers is None:
        return []
    if isinstance(headers, http.client.HTTPMessage):
        items: Iterable[tuple[str, str]] = headers.items()
    elif isinstance(headers, Mapping):
        items = headers.items()
    elif isinstance(headers, (str, bytes)):
        raise TypeError("Received unexpected type for headers argument")
    else:
        items = headers
    return [_checked_header(name, value) for name, value in items]


def _checked_header(name: str, value: str) -> tuple[str, str]:
    # JS Headers refuses bad names/values with a TypeError; exact workerd texts are assumptions.
    if not isinstance(name, str) or not _TOKEN.match(name):
        raise JsException("TypeError", f"Invalid header name: {name!r}")
    value = str(value).strip(" \t")
    if "\r" in value or "\n" in value or "\0" in value:
        raise JsException("TypeError", f"Invalid header value for {name!r}")
    return name, value


def headers_message(pairs: Iterable[tuple[str, str]]) -> HTTPMessageMapping:
    """Headers as the SDK hands them to Python (`_js_headers_to_http_message`).

    JS `Headers` iterates lower-cased names in sorted order with duplicates joined by ", ";
    Set-Cookie values stay separate and the SDK adds them first.
    """
    combined: dict[str, list[str]] = {}
    cookies: list[str] = []
    for name, value in pairs:
        key = name.lower()
        if key == "set-cookie":
            cookies.append(value.strip())
        else:
            combined.setdefault(key, []).append(value.strip())
    result = HTTPMessageMapping()
    for cookie in cookies:
        result.add_header("Set-Cookie", cookie)
    for key in sorted(combined):
        result.add_header(key, ", ".join(combined[key]))
    return result


def _encode_body(body: object, kind: str) -> tuple[BodyStream | None, str | None]:
    """A body argument -> (stream, default content type), as JS `Request`/`Response` accept it."""
    if body is None:
        return None, None
    if isinstance(body, BodyStream):
        return body, None
    if isinstance(body, str):
        return BodyStream.from_bytes(body.encode("utf-8")), "text/plain;charset=UTF-8"
    if isinstance(body, (bytes, bytearray, memoryview)):
        return BodyStream.from_bytes(bytes(body)), None
    raise TypeError(f"Unsupported type in {kind}: {type(body).__name__}")


class _Body:
    """Headers and body readers shared by requests and responses (`text`, `json`, `bytes`, ...)."""

    _stream: BodyStream | None
    _header_pairs: list[tuple[str, str]]

    @property
    def headers(self) -> HTTPMessageMapping:
        return headers_message(self._header_pairs)

    @property
    def body(self) -> BodyStream | None:
        return self._stream

    @property
    def body_used(self) -> bool:
        return self._stream is not None and self._stream.used

    @property
    def bodyUsed(self) -> bool:
        return self.body_used

    async def bytes(self) -> bytes:
        if self._stream is None:
            return b""
        return await self._stream.read_all()

    async def text(self) -> str:
        return (await self.bytes()).decode("utf-8", errors="replace")

    async def json(self, **kwargs: Any) -> Any:
        return json.loads(await self.text(), **kwargs)

    async def buffer(self) -> memoryview:
        return memoryview(await self.bytes())

    async def memoryview(self) -> memoryview:
        return memoryview(await self.bytes())


class Request(_Body):
    """What `fetch(self, request)` receives; also accepted by the local `fetch()`."""

    def __init__(
        self,
        url: str | Request,
        *,
        method: HTTPMethod | str = "GET",
        headers: HeadersInit = None,
        body: str | bytes | memoryview | BodyStream | None = None,
    ) -> None:
        if isinstance(url, Request):
            url = url.url
        self._url = url
        self._method = _method(method)
        self._header_pairs = header_pairs(headers)
        self._stream, content_type = _encode_body(body, "Request")
        if self._stream is not None and self._method in (HTTPMethod.GET, HTTPMethod.HEAD):
            raise JsException("TypeError", "Request with a GET or HEAD method cannot have a body.")
        _default_content_type(self._header_pairs, content_type)

    def __repr__(self) -> str:
        return f"Request(method={self._method!r}, url={self._url!r})"

    @property
    def url(self) -> str:
        return self._url

    @property
    def method(self) -> HTTPMethod:
        # The SDK's `HTTPMethod[js_request.method]`: a KeyError for a method the enum cannot name
        # (PROPFIND, QUERY), which JS accepts. `js_object.method` reads any method.
        return HTTPMethod[self._method]

    @property
    def js_object(self) -> JsRequest:
        return JsRequest(self._method, self._url)

    def _raw_headers(self) -> list[tuple[str, str]]:
        return list(self._header_pairs)

    async def bytes(self) -> bytes:
        if self.body_used:
            raise OSError("Body already used")  # the SDK's Request text differs from Response's
        return await super().bytes()


@dataclass(frozen=True, slots=True)
class JsRequest:
    """What the SDK's `Request.js_object` offers the shell here: the method as sent, the URL."""

    method: str
    url: str


def _method(method: HTTPMethod | str) -> str:
    """The method as JS's `new Request` keeps it: any RFC 9110 token (Fetch standard, "Request
    class": a method is a token; only the standard names are upper-cased, which here covers every
    `HTTPMethod` name); anything else is a TypeError."""
    name = method.value if isinstance(method, HTTPMethod) else str(method)
    if name.upper() in HTTPMethod.__members__:
        return name.upper()
    if not _TOKEN.fullmatch(name):
        raise JsException("TypeError", f"Invalid HTTP method: {method!r}")
    return name


def _default_content_type(pairs: list[tuple[str, str]], content_type: str | None) -> None:
    """Add the body's implied Content-Type unless the caller gave one, as JS does."""
    if content_type and not any(key.lower() == "content-type" for key, _ in pairs):
        pairs.append(("content-type", content_type))


class FetchResponse(_Body):
    """What `fetch()` returns: `workers.FetchResponse` (Pyodide's FetchResponse plus `.body`)."""

    def __init__(
        self,
        *,
        status: int,
        status_text: str = "",
        headers: Iterable[tuple[str, str]] = (),
        url: str = "",
        redirected: bool = False,
        body: BodyStream | None = None,
    ) -> None:
        self._status = status
        self._status_text = status_text
        self._header_pairs = list(headers)
        self._url = url
        self._redirected = redirected
        self._stream = body

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self._status}, url={self._url!r})"

    @property
    def status(self) -> int:
        return self._status

    @property
    def status_text(self) -> str:
        return self._status_text

    @property
    def ok(self) -> bool:
        return 200 <= self._status <= 299

    @property
    def url(self) -> str:
        return self._url

    @property
    def redirected(self) -> bool:
        return self._redirected

    @property
    def type(self) -> str:
        return "basic" if self._url else "default"

    def raise_for_status(self) -> None:
        if 400 <= self._status < 600:
            kind = "Client" if self._status < 500 else "Server"
            raise OSError(f"{self._status} {kind} Error: {self._status_text} for url: {self._url}")

    async def bytes(self) -> bytes:
        if self.body_used:
            raise BodyUsedError()
        return await super().bytes()


class Response(FetchResponse):
    """What a Worker's `fetch` handler returns (`workers.Response`)."""

    def __init__(
        self,
        body: str | bytes | memoryview | BodyStream | None = None,
        status: HTTPStatus | int | None = None,
        status_text: str = "",
        headers: HeadersInit = None,
    ) -> None:
        code = _status_code(status)
        stream, content_type = _encode_body(body, "Response")
        if stream is not None and code in _NULL_BODY_STATUSES:
            # Assumption: workerd's wording; the condition itself is the Fetch standard's.
            raise JsException("TypeError", "Response with null body status cannot have body")
        pairs = header_pairs(headers)
        _default_content_type(pairs, content_type)
        super().__init__(status=code, status_text=status_text, headers=pairs, body=stream)

    @staticmethod
    def from_json(
        data: Any,
        status: HTTPStatus | int = HTTPStatus.OK,
        status_text: str = "",
        headers: HeadersInit = None,
    ) -> Response:
        pairs = header_pairs(headers)
        _default_content_type(pairs, "application/json")
        return Response(json.dumps(data), status=status, status_text=status_text, headers=pairs)

    def json(self, *args: Any, **kwargs: Any) -> Any:
        """On an instance: read the body as JSON. Called statically: `Response.json(data, ...)`.

        The SDK allows both (`Response.json(data)` means `Response.from_json(data)`).
        """
        if isinstance(self, Response):
            return FetchResponse.json(self, *args, **kwargs)
        return Response.from_json(self, *args, **kwargs)

    @staticmethod
    def redirect(url: str, status: HTTPStatus | int = HTTPStatus.FOUND) -> Response:
        code = int(status)
        if code not in _REDIRECT_STATUSES:
            # The SDK turns the JS RangeError into ValueError (`_to_python_exception`).
            raise ValueError(f"Invalid status code: {code}")
        return Response(None, status=code, headers=[("location", url)])


def _status_code(status: HTTPStatus | int | None) -> int:
    code = 200 if status is None else int(status)
    if not 200 <= code <= 599:
        raise JsException(
            "RangeError",
            "Responses may only be constructed with status codes in the range 200 to 599, "
            "inclusive.",
        )
    return code
