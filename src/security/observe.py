"""Fetch a site the way the Observatory's retriever does, under the SSRF policy.

mdn/mdn-http-observatory `src/retriever/retriever.js` requests the host's http and https entry
points (following redirects), takes the https answer as `auto` when there is one (else http's),
and asks `auto`'s URL once more with an `Origin` header for the CORS test (an OPTIONS preflight
there; a GET here, the only method `common.ports.FetchRequest` sends: docs/security.md). Here every hop is a
separate request through `common.ports` (the platform's fetch, redirects not followed), and each
Location is checked against the private-host policy before it is requested, as crawl.redirects
does for the crawler.
"""

from __future__ import annotations

import asyncio
import re
from urllib.parse import urljoin, urlsplit

from common import ports
from security.observed import (
    CORS_PROBE_ORIGIN,
    ObservedResponse,
    ObservedSite,
    RedirectHop,
    split_set_cookie,
)
from urls.private_hosts import PrivateHosts, host_refused

MAX_HOPS = 10
TIMEOUT_S = 15.0
MAX_BODY_BYTES = 2 * 1024 * 1024
_TLS_FAILURE = re.compile(r"certificate", re.IGNORECASE)  # not every TLS error: only a bad chain


class ScanRefused(Exception):
    """The site cannot be graded (the Observatory's scan errors): message for the user."""


async def observe_site(
    url: str,
    *,
    private_hosts: PrivateHosts,
    headers: dict[str, str] | None = None,
    client: ports.HttpClient | None = None,
) -> ObservedSite:
    """The site as the Observatory sees it, fetched through `client` (the platform's by
    default; an audit's sends its credentials to their origins, crawl.credentials)."""
    fetcher = client or ports.http_client()
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if parts.scheme not in ("http", "https") or not host:
        raise ScanRefused(f"not an http(s) URL: {url}")
    netloc = parts.netloc.rsplit("@", 1)[-1]
    path = parts.path or "/"
    sent = dict(headers or {})
    # The two entry points are independent: asked at once, as a browser would open two tabs.
    http, https = await asyncio.gather(
        _follow(fetcher, f"http://{netloc}{path}", private_hosts, sent),
        _follow(fetcher, f"https://{netloc}{path}", private_hosts, sent),
    )
    auto = https if https is not None and https.tls_verified else http
    if auto is None:
        raise ScanRefused("the site seems to be down")
    if not (200 <= auto.status < 400 or auto.status in (401, 403)):
        raise ScanRefused(f"the site answered with HTTP status {auto.status}")
    cors = await _fetch(fetcher, auto.url, {**sent, "origin": CORS_PROBE_ORIGIN})
    return ObservedSite(host, auto, http, https, None if cors is None else _final(cors, []))


async def _follow(
    http: ports.HttpClient, url: str, private_hosts: PrivateHosts, headers: dict[str, str]
) -> ObservedResponse | None:
    hops: list[RedirectHop] = []
    while True:
        if host_refused(urlsplit(url).hostname or "", private_hosts):
            raise ScanRefused(f"{url}: a private or reserved address")
        result = await _fetch(http, url, headers)
        if result is None:
            return None
        location = result.header("location") if 300 <= result.status < 400 else None
        if location is None or len(hops) >= MAX_HOPS:
            return _final(result, hops)
        hops.append(RedirectHop(url, result.status, _headers(result)))
        url = urljoin(url, location.strip())
        if urlsplit(url).scheme not in ("http", "https"):
            return _final(result, hops[:-1])


async def _fetch(
    http: ports.HttpClient, url: str, headers: dict[str, str]
) -> ports.FetchResult | None:
    request = ports.FetchRequest(url, TIMEOUT_S, MAX_BODY_BYTES, dict(headers))
    result = await http.fetch(request)
    if result.status == 0:
        if result.error and _TLS_FAILURE.search(result.error):
            return ports.FetchResult(url, 0, {}, b"", False, result.elapsed_ms, "tls")
        return None
    return result


def _final(result: ports.FetchResult, hops: list[RedirectHop]) -> ObservedResponse:
    if result.status == 0:  # a TLS failure: an answer whose certificate did not verify
        return ObservedResponse(result.url, 0, {}, None, hops, tls_verified=False)
    html = result.body.decode("utf-8", errors="replace") if result.body else None
    return ObservedResponse(result.url, result.status, _headers(result), html, hops)


def _headers(result: ports.FetchResult) -> dict[str, list[str]]:
    headers = {name: [value] for name, value in result.headers.items()}
    if "set-cookie" in headers:
        headers["set-cookie"] = split_set_cookie(result.headers["set-cookie"])
    return headers
