"""External links, sans-IO: which links leave the site, and what one check's answers mean.

An external link is an `<a href>` or `<area href>` whose target is an http(s) URL on another
site (`urls.normalise.same_site`), normalised so that each distinct URL is checked once per audit
however many pages link it (crawl.external_check does the requests; durable.external_links keeps
the URLs and their referrers). Embeds, scripts and images of other sites are resources of those
sites, not links a reader follows, so they are left out.

Theory of operation
-------------------
* A check follows redirects by hand (`next_hop`), every hop under the SSRF policy, and the last
  answer decides (`judge`): a 4xx/5xx the fetch classifier calls ok, a host name that does not
  resolve, or more redirects than `settings.EXTERNAL.max_hops` is broken; a 2xx or another
  non-error answer reached through redirects is a redirect (its final target is kept); the rest
  is reported as what it is (`failure_outcome`): a timeout, a refused connection, an access wall
  for robots (401/403/429, challenge pages: the link may well work for people), a private
  address the audit may not request, another network error. None of those is "broken".
* Politeness (`next_ready`): at most `per_host` requests in flight to one host, and a pause of
  `host_spacing_s` between two requests to it; the next URL is the first in line whose host has
  room, so one slow host never holds the others back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from urllib.parse import urljoin, urlsplit

from audit.external_links import ExternalOutcome
from common.fetch_class import FetchClass
from durable.records import ExternalCheck

__all__ = [
    "failure_outcome",
    "host_of",
    "judge",
    "next_hop",
    "next_ready",
    "private_target",
    "too_many_redirects",
]

# How fetch failures read (entry.WorkersHttpClient, local_platform.http_client), most specific
# first; whatever matches none is an ERROR with its text.
_FAILURES: tuple[tuple[re.Pattern[str], ExternalOutcome, str], ...] = (
    (re.compile(r"timed? ?out|timeout", re.I), ExternalOutcome.TIMEOUT, "timeout"),
    (re.compile(r"non-public|private", re.I), ExternalOutcome.PRIVATE, "private address"),
    (
        re.compile(r"resolve|getaddrinfo|name or service|nodename|ENOTFOUND|\bdns\b", re.I),
        ExternalOutcome.BROKEN,
        "the host name does not resolve (DNS)",
    ),
    (
        re.compile(r"refused|ECONNREFUSED|connect call failed", re.I),
        ExternalOutcome.REFUSED,
        "connection refused",
    ),
)
_MAX_REASON = 200


def host_of(url: str) -> str:
    return (urlsplit(url).hostname or "").lower()


def next_hop(current: str, status: int, location: str | None) -> str | None:
    """The URL a 3xx answer sends the check to, or None when the answer is the last one
    (not a redirect, no Location, or a Location that is not http(s))."""
    if not 300 <= status < 400 or not location:
        return None
    target = urljoin(current, location.strip())
    return target if urlsplit(target).scheme in ("http", "https") else None


def failure_outcome(error: str | None) -> tuple[ExternalOutcome, str]:
    """What a fetch that got no answer (status 0) means, and the reason to report."""
    text = error or "no answer"
    for pattern, outcome, reason in _FAILURES:
        if pattern.search(text):
            return outcome, reason
    return ExternalOutcome.ERROR, text[:_MAX_REASON]


def judge(
    url: str, final_url: str, hops: int, status: int, fetch_class: FetchClass, error: str | None
) -> ExternalCheck:
    """One URL's check from its last answer: `final_url` answered `status` after `hops`
    redirects (status 0: no answer, `error` says why)."""
    final = final_url if hops else None
    if status == 0:
        outcome, reason = failure_outcome(error)
        return ExternalCheck(url, outcome.value, 0, final, reason)
    if fetch_class is not FetchClass.OK:
        return ExternalCheck(url, ExternalOutcome.BLOCKED.value, status, final, str(fetch_class))
    if status >= 400:
        return ExternalCheck(url, ExternalOutcome.BROKEN.value, status, final, f"HTTP {status}")
    outcome = ExternalOutcome.REDIRECT if hops else ExternalOutcome.OK
    return ExternalCheck(url, outcome.value, status, final)


def too_many_redirects(url: str, last_url: str, status: int, max_hops: int) -> ExternalCheck:
    reason = f"more than {max_hops} redirects"
    return ExternalCheck(url, ExternalOutcome.BROKEN.value, status, last_url, reason)


def private_target(url: str, target: str, hops: int) -> ExternalCheck:
    """Not requested: the SSRF policy refuses `target`'s host (the link itself, or a hop)."""
    reason = f"not requested: {host_of(target)} is a private or reserved address"
    final = target if hops else None
    return ExternalCheck(url, ExternalOutcome.PRIVATE.value, 0, final, reason)


def next_ready(
    queue: Sequence[str],
    busy: Mapping[str, int],
    free_at: Mapping[str, float],
    now: float,
    per_host: int,
) -> int | None:
    """The index in `queue` of the first URL whose host has fewer than `per_host` requests in
    flight and whose pause is over; None when every queued host must wait."""
    for index, url in enumerate(queue):
        host = host_of(url)
        if busy.get(host, 0) < per_host and free_at.get(host, 0.0) <= now:
            return index
    return None
