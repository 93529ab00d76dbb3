"""Calling `handle_request` as the Worker shell does, with or without a Bearer credential."""

from __future__ import annotations

from typing import Any

from api.app import handle_request
from api.http import ApiRequest, ApiResponse


async def send(
    env: Any,
    method: str,
    path: str,
    token: str | None = None,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
) -> ApiResponse:
    sent = {} if token is None else {"authorization": f"Bearer {token}"}
    sent.update(headers or {})
    return await handle_request(
        ApiRequest(method, f"http://siteaudit.local{path}", sent, body), env
    )
