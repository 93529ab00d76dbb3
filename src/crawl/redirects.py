"""Following redirects by hand, re-checking every hop before it is fetched.

Outbound fetches never follow redirects automatically: each Location is resolved, normalised and
checked against the SSRF policy (and, where asked, kept on the audited site) before the next
request, so a redirect cannot smuggle the crawler to a private address.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from common import ports
from urls.normalise import normalise_url, split_url
from urls.private_hosts import PrivateHosts, host_refused

MAX_REDIRECT_HOPS = 5


@dataclass(frozen=True, slots=True)
class FollowedFetch:
    result: ports.FetchResult  # the last response received (a 3xx when a hop was refused)
    final_url: str  # the URL that produced `result`
    hops: list[str] = field(default_factory=list)  # every URL requested, in order
    refused: str | None = None  # why the next hop was not followed, if one was refused


def hop_refusal(url: str, *, private_hosts: PrivateHosts) -> str | None:
    """Why a URL may not be fetched at all, or None."""
    parts = split_url(url)
    if parts is None:
        return "not an http(s) URL"
    if host_refused(parts.host, private_hosts):
        return f"{parts.host} is a private or reserved address"
    return None


async def fetch_following(
    http: ports.HttpClient,
    url: str,
    *,
    private_hosts: PrivateHosts,
    timeout_s: float,
    max_bytes: int,
    headers: dict[str, str],
    stay_on: Callable[[str], bool] | None = None,
    max_hops: int = MAX_REDIRECT_HOPS,
) -> FollowedFetch:
    hops = [url]
    while True:
        result = await http.fetch(ports.FetchRequest(url, timeout_s, max_bytes, dict(headers)))
        location = result.header("location") if 300 <= result.status < 400 else None
        if location is None:
            return FollowedFetch(result, url, hops)
        target = normalise_url(location, url)
        refusal = _refuse_hop(target, hops, max_hops, private_hosts, stay_on)
        if refusal is not None:
            return FollowedFetch(result, url, hops, refusal)
        assert target is not None
        hops.append(target)
        url = target


def _refuse_hop(
    target: str | None,
    hops: list[str],
    max_hops: int,
    private_hosts: PrivateHosts,
    stay_on: Callable[[str], bool] | None,
) -> str | None:
    if target is None:
        return "the Location header is not a valid http(s) URL"
    if target in hops:
        return "redirect loop"
    if len(hops) > max_hops:
        return f"more than {max_hops} redirects"
    if stay_on is not None and not stay_on(target):
        return "redirect leaves the site"
    return hop_refusal(target, private_hosts=private_hosts)
