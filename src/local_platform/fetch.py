"""Outbound `fetch()` for the local platform, shaped like `workers.fetch` (platform.md §8).

One `httpx.AsyncClient` per event loop carries every request (HTTP/1.1 keep-alive, no proxy
environment, no timeouts: callers bound time with asyncio, as Workers code bounds it with an
AbortSignal). Redirects are followed here rather than by httpx so that the browser rules apply:
at most 20 hops, 301/302 turn a POST into a GET and 303 turns anything but HEAD into a GET, and
Authorization is dropped when the origin changes. Bodies stream; gzip and deflate are decoded as a
browser's fetch decodes them (brotli only when httpx has a brotli decoder installed, and only then
is it advertised in Accept-Encoding), so byte caps apply to decoded bytes.

Failures raise `FetchError`, an `OSError` like Pyodide's `AbortError`, so callers catch `OSError`
exactly as in production.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from http import HTTPMethod
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from local_platform.errors import JsException
from local_platform.http import BodyStream, FetchResponse, HeadersInit, Request

__all__ = ["FetchError", "aclose_shared_client", "fetch"]

MAX_REDIRECTS = 20  # the Fetch standard's limit, which browsers and workerd follow
_POOL_LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=100)
_REDIRECT_MODES = frozenset({"follow", "manual", "error"})
_NO_BODY_STATUSES = frozenset({101, 103, 204, 205, 304})

_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx.AsyncClient] = (
    weakref.WeakKeyDictionary()
)


class FetchError(OSError):
    """A network failure, refused connection, too many redirects or an aborted body stream."""


def _shared_client() -> httpx.AsyncClient:
    # httpx connections belong to the loop that opened them, so each loop gets its own client.
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None or client.is_closed:
        client = httpx.AsyncClient(
            http1=True,
            http2=False,
            trust_env=False,
            timeout=None,
            follow_redirects=False,
            limits=_POOL_LIMITS,
        )
        _clients[loop] = client
    return client


async def aclose_shared_client() -> None:
    """Close the current event loop's client (at shutdown; the next fetch opens a new one)."""
    client = _clients.pop(asyncio.get_running_loop(), None)
    if client is not None:
        await client.aclose()


async def fetch(
    url_or_request: str | Request,
    *,
    method: HTTPMethod | str = "GET",
    headers: HeadersInit = None,
    body: str | bytes | memoryview | None = None,
    redirect: str = "follow",
    **ignored_js_options: Any,
) -> FetchResponse:
    """`await fetch(url, method=..., headers=..., body=..., redirect=...)`.

    `cf`, `signal` and other JS options are accepted and ignored: the local platform has no
    Cloudflare cache, and time limits come from the caller's asyncio timeouts.
    """
    if redirect not in _REDIRECT_MODES:
        raise JsException("TypeError", f"Invalid redirect value: {redirect!r}")
    request = (
        url_or_request
        if isinstance(url_or_request, Request)
        else Request(url_or_request, method=method, headers=headers, body=body)
    )
    _checked_url(request.url)
    payload = await request.bytes() if request.body is not None else None
    return await _fetch_following(request, payload, redirect)


def _checked_url(url: str) -> str:
    if not isinstance(url, str):
        raise TypeError(f"fetch() expects a URL string or a Request, not {type(url).__name__}")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        # Assumption: workerd's text; the condition (only absolute http(s) URLs) is the standard's.
        raise JsException("TypeError", f"Fetch API cannot load: {url}")
    return url


async def _fetch_following(
    request: Request, payload: bytes | None, redirect: str
) -> FetchResponse:
    method, url, headers = request.method, request.url, request._raw_headers()
    for hops in range(MAX_REDIRECTS + 1):
        response = await _send(method, url, headers, payload)
        location = response.headers.get("location")
        if response.status_code not in (301, 302, 303, 307, 308) or location is None:
            return await _wrap(response, method, url, redirected=hops > 0)
        if redirect == "manual":
            return await _wrap(response, method, url, redirected=hops > 0)
        await response.aclose()
        if redirect == "error":
            raise FetchError(f"fetch to {url} was redirected and redirect mode is 'error'")
        next_url = urljoin(url, location)
        method, payload, headers = _redirected_request(response.status_code, method, payload, headers)
        headers = _strip_cross_origin(url, next_url, headers)
        url = next_url
    raise FetchError(f"fetch to {request.url} exceeded {MAX_REDIRECTS} redirects")


def _redirected_request(
    status: int, method: HTTPMethod, payload: bytes | None, headers: list[tuple[str, str]]
) -> tuple[HTTPMethod, bytes | None, list[tuple[str, str]]]:
    """The Fetch standard's method rewrite on redirect (HTTP-redirect fetch, step 12)."""
    to_get = (status in (301, 302) and method == HTTPMethod.POST) or (
        status == 303 and method not in (HTTPMethod.GET, HTTPMethod.HEAD)
    )
    if not to_get:
        return method, payload, headers
    body_headers = {"content-type", "content-length", "content-encoding", "content-language",
                    "content-location"}
    kept = [(k, v) for k, v in headers if k.lower() not in body_headers]
    return HTTPMethod.GET, None, kept


def _strip_cross_origin(
    old_url: str, new_url: str, headers: list[tuple[str, str]]
) -> list[tuple[str, str]]:
    old, new = urlsplit(old_url), urlsplit(new_url)
    if (old.scheme, old.netloc) == (new.scheme, new.netloc):
        return headers
    return [(k, v) for k, v in headers if k.lower() != "authorization"]


async def _send(
    method: HTTPMethod, url: str, headers: list[tuple[str, str]], payload: bytes | None
) -> httpx.Response:
    client = _shared_client()
    try:
        built = client.build_request(method.value, url, headers=headers, content=payload)
        return await client.send(built, stream=True)
    except httpx.InvalidURL as exc:
        raise JsException("TypeError", f"Fetch API cannot load: {url} ({exc})") from None
    except httpx.HTTPError as exc:
        raise FetchError(f"fetch to {url} failed: {_describe(exc)}") from exc


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


async def _wrap(
    response: httpx.Response, method: HTTPMethod, url: str, *, redirected: bool
) -> FetchResponse:
    return FetchResponse(
        status=response.status_code,
        status_text=response.reason_phrase,
        headers=response.headers.multi_items(),
        url=url,
        redirected=redirected,
        body=await _body_stream(response, method),
    )


async def _body_stream(response: httpx.Response, method: HTTPMethod) -> BodyStream | None:
    # A HEAD response and the null-body statuses have a null body in JS (`resp.body is None`).
    if method == HTTPMethod.HEAD or response.status_code in _NO_BODY_STATUSES:
        await response.aclose()
        return None
    return BodyStream(_decoded_chunks(response), on_cancel=response.aclose)


async def _decoded_chunks(response: httpx.Response) -> AsyncIterator[bytes]:
    try:
        async for chunk in response.aiter_bytes():
            yield chunk
    except httpx.HTTPError as exc:
        raise FetchError(f"reading the body of {response.url} failed: {_describe(exc)}") from exc
