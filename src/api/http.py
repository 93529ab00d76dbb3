"""The API's own request/response values, independent of the Workers SDK classes.

The shell converts `workers.Request` into an `ApiRequest` and an `ApiResponse` into a
`workers.Response`, so routing and validation run the same on every platform.

A response carries either `body` (bytes, the JSON answers) or `stream` (an async generator of
bytes chunks, the exports), never both. The shell turns a stream into the runtime's streamed body,
pulls one chunk at a time, and closes the generator when the client goes away, so a streamed
answer is never held whole.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from api.errors import ApiError


@dataclass(frozen=True, slots=True)
class ApiRequest:
    method: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""

    @property
    def path(self) -> str:
        return urlsplit(self.url).path or "/"

    @property
    def query(self) -> dict[str, list[str]]:
        return parse_qs(urlsplit(self.url).query)


@dataclass(frozen=True, slots=True)
class ApiResponse:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    stream: AsyncGenerator[bytes] | None = None  # a streamed body, read once, instead of `body`

    def __post_init__(self) -> None:
        if self.stream is not None and self.body:
            raise ValueError("a response has a body or a stream, not both")

    def json(self) -> Any:  # Any: decoded JSON of any shape, for callers and tests to index
        return json.loads(self.body)


def json_response(
    data: object, status: int = 200, headers: dict[str, str] | None = None
) -> ApiResponse:
    body = json.dumps(data, sort_keys=True, default=str).encode()
    merged = {"content-type": "application/json; charset=utf-8", **(headers or {})}
    return ApiResponse(status=status, body=body, headers=merged)


def error_response(error: ApiError) -> ApiResponse:
    body = {"error": {"code": str(error.code), "message": error.message}}
    return json_response(body, error.status_hint, error.headers)


def stream_response(chunks: AsyncGenerator[bytes], media_type: str, file_name: str) -> ApiResponse:
    """A 200 download: the chunks as they come, saved under `file_name` by browsers and `curl -OJ`."""
    headers = {
        "content-type": media_type,
        # RFC 6266; file names here are [A-Za-z0-9._-] only, so the quoted form needs no escapes.
        "content-disposition": f'attachment; filename="{file_name}"',
    }
    return ApiResponse(200, b"", headers, stream=chunks)
