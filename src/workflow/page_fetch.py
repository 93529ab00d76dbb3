"""Fetch one page and turn the exchange into an `audit_pages` row (the vertical slice's crawl).

The crawl issue replaces this with the chunked rolling crawl; the fetch contract stays: manual
redirects, a per-fetch timeout and a body byte cap, all enforced by the platform's HTTP client.
"""

from __future__ import annotations

import hashlib

import ports
from auditdb.records import PageRecord

USER_AGENT = "siteaudit/0.1 (+https://github.com/siteaudit)"
FETCH_TIMEOUT_S = 15.0
MAX_BODY_BYTES = 2 * 1024 * 1024
_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"


def page_id(audit_id: str, url: str) -> str:
    return hashlib.sha256(f"{audit_id}|{url}".encode()).hexdigest()[:36]


def fetch_class(status: int) -> str:
    if status == 0:
        return "error"
    if status == 429:
        return "rate_limited"
    if status in (401, 403):
        return "blocked"
    return "ok"


async def fetch_page_record(audit_id: str, url: str, *, depth: int | None) -> PageRecord:
    request = ports.FetchRequest(
        url=url,
        timeout_s=FETCH_TIMEOUT_S,
        max_bytes=MAX_BODY_BYTES,
        headers={"user-agent": USER_AGENT, "accept": _ACCEPT},
    )
    result = await ports.http_client().fetch(request)
    return PageRecord(
        id=page_id(audit_id, url),
        audit_id=audit_id,
        url=url,
        crawled_at=ports.iso_now(),
        status_code=result.status,
        fetch_class=fetch_class(result.status),
        final_url=result.url,
        redirect_url=result.header("location") if 300 <= result.status < 400 else None,
        content_type=result.header("content-type"),
        response_time_ms=round(result.elapsed_ms),
        html_bytes=len(result.body),
        truncated=result.truncated,
        crawl_depth=depth,
    )
