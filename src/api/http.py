"""The API's own request/response values, independent of the Workers SDK classes.

The shell converts `workers.Request` into an `ApiRequest` and an `ApiResponse` into a
`workers.Response`, so routing and validation run the same on every platform.
"""

from __future__ import annotations

import json
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
