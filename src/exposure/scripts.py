"""Scripts of a page: libraries by URL for all, by content for same-site ones within a budget.

By URL costs nothing, so every script URL is scanned. By content costs a fetch, so only scripts
the URL did not already identify, and only same-site ones (the site's own copies, which a CDN
URL cannot describe), are read — at most `script_max_bytes` each and `budget_bytes` in all. The
budget belongs to the caller: `scan_contents` takes what is left and returns what it used, so an
audit can carry one budget across pages and steps.

"Same site" here is the page's host or a subdomain of it (a leading `www.` ignored on both
sides): without the Public Suffix List this is a conservative stand-in for the registrable
domain.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from common import ports, settings
from common.wire import JsonRecord
from exposure.libraries import LibraryFinding, scan_content, scan_url
from urls.private_hosts import PrivateHosts, host_refused

__all__ = ["ContentScan", "same_site", "scan_contents", "scan_urls"]


@dataclass(frozen=True, slots=True)
class ContentScan(JsonRecord):
    findings: tuple[LibraryFinding, ...]
    bytes_read: int
    scanned: tuple[str, ...]  # script URLs whose content was read
    skipped: tuple[str, ...] = ()  # same-site scripts left unread: budget spent, or not fetched


def scan_urls(script_urls: Iterable[str]) -> list[LibraryFinding]:
    return [finding for url in dict.fromkeys(script_urls) for finding in scan_url(url)]


def _site_host(url: str) -> str:
    host = (urlsplit(url).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host


def same_site(script_url: str, page_url: str) -> bool:
    script, page = _site_host(script_url), _site_host(page_url)
    return bool(page) and (script == page or script.endswith("." + page))


async def scan_contents(
    script_urls: Iterable[str],
    page_url: str,
    *,
    budget_bytes: int,
    private_hosts: PrivateHosts = PrivateHosts.DENY,
    max_scripts: int | None = None,
    user_agent: str | None = None,
    http: ports.HttpClient | None = None,
) -> ContentScan:
    """Read the same-site scripts the URL did not identify: at most `budget_bytes` in all and
    `max_scripts` fetches (None: no limit); the rest are listed as skipped. `user_agent`: the
    audit's own (auditdb.scope), ours by default. `http` is the platform's client by default (an
    audit's sends its credentials, crawl.credentials)."""
    client = http or ports.http_client()
    findings: list[LibraryFinding] = []
    scanned: list[str] = []
    skipped: list[str] = []
    used = fetched = 0
    for url in dict.fromkeys(script_urls):
        if not same_site(url, page_url) or scan_url(url):
            continue
        remaining = budget_bytes - used
        host = urlsplit(url).hostname or ""
        out_of_fetches = max_scripts is not None and fetched >= max_scripts
        if remaining <= 0 or out_of_fetches or host_refused(host, private_hosts):
            skipped.append(url)
            continue
        fetched += 1
        limit = min(remaining, settings.EXPOSURE.script_max_bytes)
        body = await _fetch(client, url, limit, user_agent)
        if body is None:
            skipped.append(url)
            continue
        used += len(body)
        scanned.append(url)
        findings.extend(scan_content(body.decode("utf-8", "replace"), url))
    return ContentScan(tuple(findings), used, tuple(scanned), tuple(skipped))


async def _fetch(
    http: ports.HttpClient, url: str, max_bytes: int, user_agent: str | None
) -> bytes | None:
    request = ports.FetchRequest(
        url=url,
        timeout_s=settings.EXPOSURE.script_timeout_s,
        max_bytes=max_bytes,
        headers={"user-agent": user_agent or settings.CRAWL.user_agent, "accept": "*/*"},
    )
    result = await http.fetch(request)
    # A script cut at the cap is still scanned: version banners open the file.
    return result.body if result.status == 200 else None
