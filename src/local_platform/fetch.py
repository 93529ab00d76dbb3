"""Outbound `fetch()` for the local platform, shaped like `workers.fetch` (docs/platform.md §8).

One connection pool per event loop (`http_client.ConnectionPool`: HTTP/1.1 keep-alive, no proxy
environment, no timeouts: callers bound time with asyncio, as Workers code bounds it with an
AbortSignal) carries every request. Redirects are followed here so that the browser rules apply:
at most 20 hops, 301/302 turn a POST into a GET and 303 turns anything but HEAD into a GET, and
Authorization is dropped when the origin changes. Bodies stream; gzip and deflate are decoded as a
browser's fetch decodes them (brotli is not offered in Accept-Encoding), so byte caps apply to
decoded bytes.

Failures raise `FetchError`, an `OSError` like Pyodide's `AbortError`, so callers catch `OSError`
exactly as in production.
"""

from __future__ import annotations

import asyncio
import os
import weakref
from collections.abc import AsyncIterator
from http import HTTPMethod
from typing import Any
from urllib.parse import urljoin, urlsplit

from local_platform.errors import JsException
from local_platform.http import BodyStream, FetchResponse, HeadersInit, Request
from local_platform.http_client import ClientResponse, ConnectionPool, HttpClientError
from urls.private_hosts import PrivateHosts, host_refused

__all__ = [
    "FetchError",
    "aclose_shared_client",
    "fetch",
    "restrict_addresses",
    "trust_ca_file",
]

MAX_REDIRECTS = 20  # the Fetch standard's limit, which browsers and workerd follow
_REDIRECT_MODES = frozenset({"follow", "manual", "error"})
_NO_BODY_STATUSES = frozenset({101, 103, 204, 205, 304})

_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, ConnectionPool] = (
    weakref.WeakKeyDictionary()
)


class FetchError(OSError):
    """A network failure, refused connection, too many redirects or an aborted body stream."""


# Which non-public addresses outbound fetches may connect to. The Worker runs with the
# `global_fetch_strictly_public` compatibility flag, so production never reaches private networks;
# a LocalPlatform imitates that from its ALLOW_PRIVATE_HOSTS setting (`restrict_addresses`). A bare
# `fetch()` outside any platform (the platform's own tests) is unrestricted.
_private_hosts = PrivateHosts.ALLOW


def restrict_addresses(private_hosts: PrivateHosts) -> PrivateHosts:
    """Apply `private_hosts` to the address every later connection resolves to; returns the
    previous setting (a closing platform restores it)."""
    global _private_hosts
    previous, _private_hosts = _private_hosts, private_hosts
    return previous


def _address_allowed(address: str) -> bool:
    return not host_refused(address, _private_hosts)


def _shared_pool() -> ConnectionPool:
    # Connections belong to the loop that opened them, so each loop gets its own pool.
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        pool = _pools[loop] = ConnectionPool(_address_allowed)
    return pool


def trust_ca_file(path: str | os.PathLike[str]) -> None:
    """Let the current event loop's fetches also trust the CA certificate(s) in the PEM file
    `path`, on top of the system store: for local sites served with a private CA (tests, staging).

    Nothing else about verification changes (chain and host name are still checked). The trust
    belongs to this loop's pool, so it ends with it (`aclose_shared_client`, the platform's close);
    other loops never see it. Production Workers have no such hook: `workers.fetch` trusts the
    public CAs only.
    """
    _shared_pool().trust_ca_file(path)


async def aclose_shared_client() -> None:
    """Close the current event loop's pool (at shutdown; the next fetch opens a new one)."""
    pool = _pools.pop(asyncio.get_running_loop(), None)
    if pool is not None:
        await pool.aclose()


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


async def _fetch_following(request: Request, payload: bytes | None, redirect: str) -> FetchResponse:
    method, url, headers = request.method, request.url, request._raw_headers()
    for hops in range(MAX_REDIRECTS + 1):
        response = await _send(method, url, headers, payload)
        location = _header(response, "location")
        if response.status not in (301, 302, 303, 307, 308) or location is None:
            return await _wrap(response, method, url, redirected=hops > 0)
        if redirect == "manual":
            return await _wrap(response, method, url, redirected=hops > 0)
        await response.aclose()
        if redirect == "error":
            raise FetchError(f"fetch to {url} was redirected and redirect mode is 'error'")
        next_url = urljoin(url, location)
        method, payload, headers = _redirected_request(response.status, method, payload, headers)
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
    body_headers = {
        "content-type",
        "content-length",
        "content-encoding",
        "content-language",
        "content-location",
    }
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
) -> ClientResponse:
    try:
        return await _shared_pool().request(method.value, url, headers, payload)
    except HttpClientError as exc:
        raise FetchError(f"fetch to {url} failed: {exc}") from exc
    except ValueError as exc:  # h11 refuses a malformed request target or header
        raise JsException("TypeError", f"Fetch API cannot load: {url} ({exc})") from None


def _header(response: ClientResponse, name: str) -> str | None:
    return next((value for key, value in response.headers if key.lower() == name), None)


async def _wrap(
    response: ClientResponse, method: HTTPMethod, url: str, *, redirected: bool
) -> FetchResponse:
    return FetchResponse(
        status=response.status,
        status_text=response.reason,
        headers=response.headers,
        url=url,
        redirected=redirected,
        body=_body_stream(response, method),
    )


def _body_stream(response: ClientResponse, method: HTTPMethod) -> BodyStream | None:
    # A HEAD response and the null-body statuses have a null body in JS (`resp.body is None`).
    if response.body is None or method == HTTPMethod.HEAD or response.status in _NO_BODY_STATUSES:
        return None
    return BodyStream(_decoded_chunks(response, url=None), on_cancel=response.aclose)


async def _decoded_chunks(response: ClientResponse, url: str | None) -> AsyncIterator[bytes]:
    assert response.body is not None
    try:
        async for chunk in response.body:
            yield chunk
    except HttpClientError as exc:
        raise FetchError(f"reading the response body failed: {exc}") from exc
