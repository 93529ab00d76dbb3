"""One request per internal resource: HEAD, or a capped GET where HEAD is refused.

A resource (image, script, stylesheet, media, crawl.references) is checked, never crawled: its
body is not parsed and its own references are not followed. HEAD answers the question without
the body (RFC 9110 §9.3.2: the same status and headers as GET); servers that refuse the method
answer 405 Method Not Allowed or 501 Not Implemented (RFC 9110 §15.5.6, §15.6.2), and then a
GET reads at most `GET_MAX_BYTES` of the body, enough for the fetch classifier's challenge-page
test. Redirects are not followed: a resource that redirects is not reported as broken.
"""

from __future__ import annotations

from common import ports, settings
from common.fetch_class import classify_fetch
from durable.records import ResourceCheck

__all__ = ["GET_MAX_BYTES", "HEAD_REFUSED", "check_resource", "head_or_get"]

GET_MAX_BYTES = 16 * 1024
HEAD_REFUSED = frozenset({405, 501})


async def head_or_get(
    http: ports.HttpClient,
    url: str,
    timeout_s: float,
    base_headers: dict[str, str] | None = None,
) -> ports.FetchResult:
    """One answer for `url` (redirects not followed): HEAD, or a capped GET where it is refused.
    `base_headers`: the audit's (its User-Agent), the crawl's by default."""
    headers = {**(base_headers or settings.CRAWL.request_headers), "accept": "*/*"}
    head = ports.FetchRequest(url, timeout_s, GET_MAX_BYTES, headers, method="HEAD")
    result = await http.fetch(head)
    if result.status in HEAD_REFUSED:
        result = await http.fetch(ports.FetchRequest(url, timeout_s, GET_MAX_BYTES, headers))
    return result


async def check_resource(
    http: ports.HttpClient,
    url: str,
    timeout_s: float,
    headers: dict[str, str] | None = None,
) -> ResourceCheck:
    result = await head_or_get(http, url, timeout_s, headers)
    body_head = result.body[: settings.CRAWL.body_head_chars].decode("latin-1")
    fetch_class = classify_fetch(result.status, result.headers, body_head)
    content_type = result.headers.get("content-type")
    return ResourceCheck(url, result.status, fetch_class.value, content_type)
