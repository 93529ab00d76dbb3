"""External links, sans-IO: which links leave the site, and what one check's answers mean.

An external link is an `<a href>` or `<area href>` whose target is an http(s) URL on another
site (`urls.normalise.same_site`), normalised so that each distinct URL is checked once per audit
however many pages link it (crawl.external_check does the requests; durable.external_links keeps
the URLs and their referrers). Embeds, scripts and images of other sites are resources of those
sites, not links a reader follows, so they are left out.

Theory of operation
-------------------
* A check follows redirects by hand (`next_hop`), every hop under the SSRF policy, and the last
  answer decides (`judge`): a 4xx/5xx the fetch classifier calls ok, or more redirects than
  `settings.EXTERNAL.max_hops`, is broken; a 2xx or another non-error answer reached through
  redirects is a redirect (its final target is kept); a fetch without an answer is read by
  `common.net_failure` (`failure_outcome`): a name that does not resolve is `unresolved` (broken
  only while other names resolve: audit.external_links, "Our side is never the site's defect"),
  a timeout, a refused connection, a private address the audit may not request or another
  network error is reported as what it is; an access wall for robots (401/403/429, challenge
  pages) too, as the link may well work for people. None of those is "broken".
* Each check also says how far it got with its last host (`HostReach`): the audit counts the
  external host names that resolved and those that did not, to tell a dead name from a machine
  without DNS.
* Politeness (`next_ready`): at most `per_host` requests in flight to one host, and a pause of
  `host_spacing_s` between two requests to it; the next URL is the first in line whose host has
  room, so one slow host never holds the others back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from audit.external_links import DnsTally, ExternalOutcome, HostReach
from common.fetch_class import FetchClass
from common.net_failure import NetFailure, classify_net_failure
from durable.records import ExternalCheck
from urls.private_hosts import parse_ip

__all__ = [
    "HostNames",
    "failure_outcome",
    "host_of",
    "judge",
    "next_hop",
    "next_ready",
    "private_target",
    "too_many_redirects",
    "unresolved_again",
]

# What a fetch without an answer means for the link, and what it tells about the host's name.
_OUTCOME_OF: Mapping[NetFailure, tuple[ExternalOutcome, HostReach]] = {
    NetFailure.DNS: (ExternalOutcome.UNRESOLVED, HostReach.UNRESOLVED),
    NetFailure.REFUSED: (ExternalOutcome.REFUSED, HostReach.CONNECTED),
    NetFailure.TLS: (ExternalOutcome.ERROR, HostReach.CONNECTED),
    NetFailure.PRIVATE: (ExternalOutcome.PRIVATE, HostReach.CONNECTED),
    NetFailure.TIMEOUT: (ExternalOutcome.TIMEOUT, HostReach.SILENT),
    NetFailure.OTHER: (ExternalOutcome.ERROR, HostReach.SILENT),
}
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


def failure_outcome(error: str | None) -> tuple[ExternalOutcome, str, HostReach]:
    """What a fetch that got no answer (status 0) means, the reason to report, and what it
    tells about the host's name."""
    kind = classify_net_failure(error)
    outcome, reach = _OUTCOME_OF[kind]
    reason = kind.description if kind is not NetFailure.OTHER else (error or "no answer")
    return outcome, reason[:_MAX_REASON], reach


def judge(
    url: str, final_url: str, hops: int, status: int, fetch_class: FetchClass, error: str | None
) -> ExternalCheck:
    """One URL's check from its last answer: `final_url` answered `status` after `hops`
    redirects (status 0: no answer, `error` says why)."""
    final = final_url if hops else None
    host, answered = host_of(final_url), HostReach.ANSWERED.value
    if status == 0:
        outcome, reason, reach = failure_outcome(error)
        return ExternalCheck(url, outcome.value, 0, final, reason, host, reach.value)
    if fetch_class is not FetchClass.OK:
        blocked = ExternalOutcome.BLOCKED.value
        return ExternalCheck(url, blocked, status, final, str(fetch_class), host, answered)
    if status >= 400:
        broken = ExternalOutcome.BROKEN.value
        return ExternalCheck(url, broken, status, final, f"HTTP {status}", host, answered)
    outcome = ExternalOutcome.REDIRECT if hops else ExternalOutcome.OK
    return ExternalCheck(url, outcome.value, status, final, None, host, answered)


def unresolved_again(url: str) -> ExternalCheck:
    """`url`'s check when an earlier URL of its host found that the name does not resolve: the
    same answer, without asking the resolver (and the host's pause) again."""
    reason = NetFailure.DNS.description
    host, unresolved = host_of(url), HostReach.UNRESOLVED.value
    return ExternalCheck(url, ExternalOutcome.UNRESOLVED.value, 0, None, reason, host, unresolved)


def too_many_redirects(url: str, last_url: str, status: int, max_hops: int) -> ExternalCheck:
    reason = f"more than {max_hops} redirects"
    broken, answered = ExternalOutcome.BROKEN.value, HostReach.ANSWERED.value
    return ExternalCheck(url, broken, status, last_url, reason, host_of(last_url), answered)


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


@dataclass(slots=True)
class HostNames:
    """What the checks learnt of external host names so far (IP literals are no names): those
    that resolved, and those that did not resolve."""

    resolved: set[str] = field(default_factory=set)
    unresolved: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, resolved: Iterable[str], unresolved: Iterable[str]) -> HostNames:
        return cls(set(resolved), set(unresolved))

    def learn(self, check: ExternalCheck) -> None:
        if not check.host or check.reach is None or parse_ip(check.host) is not None:
            return
        reach = HostReach(check.reach)
        if reach in (HostReach.ANSWERED, HostReach.CONNECTED):
            self.resolved.add(check.host)
        elif reach is HostReach.UNRESOLVED:
            self.unresolved.add(check.host)

    def known_unresolved(self, url: str) -> bool:
        host = host_of(url)
        return host in self.unresolved and host not in self.resolved

    @property
    def tally(self) -> DnsTally:
        return DnsTally(len(self.resolved), len(self.unresolved - self.resolved))
