"""Calling `handle_request` as the Worker shell does, with or without a Bearer credential; or
the Worker over HTTP, as `siteaudit serve` runs it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx

from api.app import handle_request
from api.http import ApiRequest, ApiResponse
from common.bindings import Env
from local_platform.http_server import serve
from local_platform.runtime import LocalPlatform


async def send(
    env: Env,
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


@asynccontextmanager
async def served(platform: LocalPlatform) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client of the platform's Worker (`Default.fetch`) behind the local HTTP server,
    sending the CLI's own API key."""
    server = await serve(platform.fetch, port=0)
    headers = {"authorization": f"Bearer {await platform.local_key()}"}
    base = f"http://127.0.0.1:{server.port}"
    try:
        async with httpx.AsyncClient(base_url=base, headers=headers, trust_env=False) as client:
            yield client
    finally:
        await server.close()


class AcceptingWorkflow:
    """A Workflow binding that accepts every instance and runs none, keeping their params."""

    def __init__(self) -> None:
        self.created: dict[str, Any] = {}

    async def create(self, *, id: str, params: Any) -> None:
        self.created[id] = params
