"""Which of a rendered page's requests may leave: the crawler's SSRF policy, and the budget.

The browser asks about every request its page makes (the document, every subresource, XHR and
fetch, a worker's requests, each redirect hop) before anything is sent; this module answers,
without I/O. The host test is the crawler's own (urls.private_hosts.host_refused, the one SSRF
decision every fetch path asks), applied to the URL as the WHATWG URL parser reads it, so
`http://2130706433/` is judged as 127.0.0.1 here too. Names that resolve to private addresses
are the fetch layer's to catch (the local platform checks the address at connect time; Workers
run with `global_fetch_strictly_public`).
"""

from __future__ import annotations

from render.records import SKIPPED_RESOURCE_TYPES, BlockReason, RenderBudget
from urls.normalise import split_url
from urls.private_hosts import PrivateHosts, host_refused

__all__ = ["page_refusal", "request_refusal"]


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
