"""Which of a rendered page's requests may leave: the crawler's SSRF policy, and the budget.

The browser asks about every request its page makes (the document, every subresource, XHR and
fetch, a worker's requests, each redirect hop) before anything is sent; this module answers,
without I/O. The host test is the crawler's own (urls.private_hosts.host_refused, the one SSRF
decision every fetch path asks), applied to the URL as the WHATWG URL parser reads it, so
`http://2130706433/` is judged as 127.0.0.1 here too. Names that resolve to private addresses
are the fetch layer's to catch (the local platform checks the address at connect time; Workers
run with `global_fetch_strictly_public`).

robots.txt is the workflow's to read (crawl.robots, a layer above this one), so a renderer is
handed a `RobotsGate`: the audit's rules as the crawl applies them (crawl.render_robots). Google's
renderer fetches no resource robots.txt disallows and renders the page without it (Google Search
Central, "Understand the JavaScript SEO basics"; Search Console's URL Inspection lists such
resources as blocked), so a render refuses such a request too and records it
(`BlockReason.ROBOTS_TXT`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from render.records import SKIPPED_RESOURCE_TYPES, BlockReason, RenderBudget
from urls.normalise import split_url
from urls.private_hosts import PrivateHosts, host_refused

__all__ = ["RobotsGate", "page_refusal", "request_refusal"]


class RobotsGate(Protocol):
    """The audit's robots.txt rules for the audited site's hosts, as a renderer needs them."""

    async def allows(self, url: str) -> bool:
        """Whether robots.txt lets the audit fetch `url` (True off the audited site, and for
        every URL when the audit ignores robots.txt)."""
        ...

    def rejected_patterns(self) -> Sequence[str]:
        """JavaScript regular expressions matching the URLs robots.txt disallows on the hosts
        whose rules are known now, for a renderer that can only be given patterns (Browser
        Rendering's `rejectRequestPattern`)."""
        ...


def page_refusal(url: str, private_hosts: PrivateHosts) -> BlockReason | None:
    """Why a URL may not be requested at all, whatever asks for it; None: it may."""
    parts = split_url(url)
    if parts is None:
        return BlockReason.NOT_HTTP
    if host_refused(parts.host, private_hosts):
        return BlockReason.PRIVATE_ADDRESS
    return None


def request_refusal(
    url: str, resource_type: str, budget: RenderBudget, private_hosts: PrivateHosts
) -> BlockReason | None:
    """Why one of the page's requests is aborted; None: it may be fetched.

    The address comes first, so an image on a private host is reported as the SSRF refusal it
    is, not as an image the budget skipped.
    """
    refusal = page_refusal(url, private_hosts)
    if refusal is not None:
        return refusal
    if not budget.load_media and resource_type.lower() in SKIPPED_RESOURCE_TYPES:
        return BlockReason.RESOURCE_TYPE
    return None
