"""Whether the audit's own network works, asked when a start URL got no answer at all.

A start URL that does not resolve, refuses the connection or times out is the site's failure
(crawl.start_verdict) only if the machine running the audit can reach the internet: a laptop
offline, a CI runner without DNS or a container without a route fails every name the same way,
and telling the site's owner to "check that the domain's DNS records exist" would blame the site
for our network. So before such a verdict stands, the audit asks a few reference sites that are
always up (`settings.CRAWL.network_probe_urls`, by default example.com, which IANA keeps for
this kind of use, RFC 2606 §3, and Cloudflare's 1.1.1.1 site): any HTTP answer from one of them,
whatever its status, shows that our network and DNS work, and the site's verdict stands. When
none answers, the failure is ours (`ErrorCode.NETWORK_UNAVAILABLE`) and nothing is said about
the site.

The probe is not asked for a site the SSRF policy calls private (a loopback or LAN address, a
`localhost` name): reaching those does not go through the internet, so a refusal there is the
site's. Only failures without an answer are probed; TLS failures and HTTP errors prove the
network reached the site.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from common import ports, settings
from common.failures import ErrorCode
from crawl.start_verdict import StartFailure
from urls.private_hosts import is_blocked_host

__all__ = ["PROBED_CODES", "network_down", "our_side", "reference_hosts"]

# The start URL's failures that a machine without a network gives as well.
PROBED_CODES = frozenset(
    {
        ErrorCode.SITE_DNS_ERROR,
        ErrorCode.SITE_CONNECTION_FAILED,
        ErrorCode.SITE_TIMEOUT,
        ErrorCode.SITE_NETWORK_ERROR,
    }
)


async def network_down(http: ports.HttpClient, site_url: str) -> bool:
    """Whether our network failed `site_url` rather than the site: the site is on the internet
    and none of the reference sites gives an HTTP answer (any status), all asked at once. False
    for a site reached without the internet, and when no reference site is configured."""
    urls = settings.CRAWL.network_probe_urls
    if not urls or is_blocked_host(urlsplit(site_url).hostname or ""):
        return False
    timeout_s, headers = settings.CRAWL.network_probe_timeout_s, settings.CRAWL.request_headers
    requests = [ports.FetchRequest(url, timeout_s, 0, dict(headers)) for url in urls]
    results = await asyncio.gather(*(http.fetch(request) for request in requests))
    return all(result.status == 0 for result in results)


def reference_hosts() -> str:
    """The reference sites' host names, as the failure sentences name them."""
    return " or ".join(urlsplit(url).hostname or url for url in settings.CRAWL.network_probe_urls)


# What the start URL's request met, without the advice to the site's owner its sentence gives.
_MET = {
    ErrorCode.SITE_DNS_ERROR: "its host name did not resolve",
    ErrorCode.SITE_CONNECTION_FAILED: "the connection failed",
    ErrorCode.SITE_TIMEOUT: "no answer in time",
    ErrorCode.SITE_NETWORK_ERROR: "no answer",
}


def our_side(failure: StartFailure, start_url: str) -> StartFailure:
    """The start URL's failure, said as our network's: what failed, and that nothing was learned
    about the site."""
    met = _MET.get(failure.error_code, "no answer")
    return StartFailure(
        ErrorCode.NETWORK_UNAVAILABLE,
        f"siteaudit could not reach {start_url} ({met}), nor {reference_hosts()}, which are always "
        "up: the network or DNS of the machine running siteaudit is not working, so nothing was "
        "learned about the site. Audit it again once that machine is online.",
    )
