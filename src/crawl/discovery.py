"""The discovery phase: anchor the site, read robots.txt, walk the sitemaps, seed the frontier.

Runs inside the `discover-urls` step. Seeds go from here straight into the audit's scratchpad in
batches; the step returns only counters, so no URL list ever travels through a step result (an
uncapped seed list once blew the 1 MiB step-output limit).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from common import ports, settings
from common.wire import JsonRecord
from crawl.host_robots import HostRobots
from crawl.network_probe import PROBED_CODES, network_down, our_side
from crawl.redirects import FollowedFetch, fetch_following
from crawl.robots import MAX_ROBOTS_BYTES, RobotsRules
from crawl.scope_rules import SiteRule
from crawl.sitemaps import (
    MAX_SITEMAP_BYTES,
    SEED_RPC_BATCH,
    SitemapWalk,
    discovered_url_cap,
    sitemap_seeds,
)
from crawl.start_verdict import (
    StartFailure,
    falls_back,
    http_twin,
    judge_start,
    robots_closed,
    scheme_note,
)
from crawl.url_policy import Decision, UrlPolicy
from durable.client import Scratchpad
from durable.records import CrawlConfig
from urls.credentials import CredentialScope
from urls.normalise import normalise_url, origin_of
from urls.private_hosts import PrivateHosts

# Sitemaps can be 10 MiB each and are read whole; two at a time bounds the memory they take.
SITEMAP_CONCURRENCY = 2


@dataclass(frozen=True, slots=True)
class StartResolution:
    final_url: str
    hops: int
    refused: str | None
    failure: StartFailure | None = None  # the start URL cannot be audited (crawl.start_verdict)
    scheme_note: str | None = None  # which scheme a start URL typed without one was audited with


@dataclass(frozen=True, slots=True)
class DiscoveryReport(JsonRecord):
    final_url: str
    start_hops: int
    robots_status: int
    robots_rules: int
    sitemap_documents: int
    sitemap_urls: int
    seeded: int
    sitemap_blocked: int
    start_allowed: bool
    start_failure: StartFailure | None = None  # set: nothing was seeded, the audit fails
    scheme_note: str | None = None
    list_refused: int = 0  # list mode: listed URLs the URL policy or robots.txt left out
    # Per host, the epoch second its next request may start at the audit's rate (crawl.pacing):
    # the first crawl chunk's pace starts there.
    next_request_at: dict[str, float] = field(default_factory=dict)

    @classmethod
    def failed(cls, start: StartResolution) -> DiscoveryReport:
        """The report of a discovery that stopped at its start URL: nothing read or seeded."""
        return cls(
            final_url=start.final_url,
            start_hops=start.hops,
            robots_status=0,
            robots_rules=0,
            sitemap_documents=0,
            sitemap_urls=0,
            seeded=0,
            sitemap_blocked=0,
            start_allowed=False,
            start_failure=start.failure,
            scheme_note=start.scheme_note,
        )


async def resolve_start(
    http: ports.HttpClient,
    url: str,
    *,
    private_hosts: PrivateHosts,
    scheme_assumed: bool = False,
    headers: dict[str, str] | None = None,
    credentials: CredentialScope | None = None,
) -> StartResolution:
    """Follow the start URL's redirects (each hop re-validated) to the page the site really serves,
    and judge it (`crawl.start_verdict`): a start URL that gets no answer, an HTTP error or no
    HTML page fails the audit.

    The audit's origin is anchored on the final URL, so apex -> www and cross-TLD redirects crawl
    the site instead of stopping after one page. A refused hop keeps the last good URL. A start
    URL typed without a scheme (`scheme_assumed`) is tried over https, then over http when https
    could not connect. A start URL without any answer is the site's failure only when our own
    network answers (`crawl.network_probe`). `credentials` are the audit's (the verdict on a 401
    or 403 names what to pass); `http` sends them.
    """
    followed = await _follow_start(http, url, private_hosts, headers)
    note = None
    if scheme_assumed and url.startswith("https://"):
        fell_back = falls_back(followed)
        note = scheme_note(url, fell_back)
        if fell_back is not None:
            url = http_twin(url)
            followed = await _follow_start(http, url, private_hosts, headers)
    failure = judge_start(url, followed, credentials)
    if (
        failure is not None
        and failure.error_code in PROBED_CODES
        and await network_down(http, followed.final_url)
    ):
        failure = our_side(failure, followed.final_url)  # no answer, and none from elsewhere
    return StartResolution(
        followed.final_url, len(followed.hops) - 1, followed.refused, failure, note
    )


async def _follow_start(
    http: ports.HttpClient, url: str, private_hosts: PrivateHosts, headers: dict[str, str] | None
) -> FollowedFetch:
    return await fetch_following(
        http,
        url,
        private_hosts=private_hosts,
        timeout_s=settings.CRAWL.start_probe_timeout_s,
        max_bytes=0,
        headers=headers or settings.CRAWL.request_headers,
    )


async def fetch_robots(
    http: ports.HttpClient,
    origin: str,
    *,
    private_hosts: PrivateHosts,
    headers: dict[str, str] | None = None,
) -> tuple[int, str]:
    """(status, text) of robots.txt; only a 2xx body counts, cut to the RFC 9309 minimum of 500 KiB.

    Missing or unreachable robots.txt means everything is allowed (as the original system did; a
    site under audit is better served by a crawl than by an empty report).
    """
    followed = await fetch_following(
        http,
        origin + "/robots.txt",
        private_hosts=private_hosts,
        timeout_s=settings.CRAWL.robots_timeout_s,
        max_bytes=MAX_ROBOTS_BYTES,
        headers=headers or settings.CRAWL.request_headers,
    )
    result = followed.result
    if not 200 <= result.status < 300:
        return result.status, ""
    return result.status, result.body[:MAX_ROBOTS_BYTES].decode("utf-8", "replace")


async def _robots_of(
    http: ports.HttpClient,
    origin: str | None,
    *,
    private_hosts: PrivateHosts,
    headers: dict[str, str] | None = None,
) -> tuple[int, str] | None:
    if origin is None:
        return None
    return await fetch_robots(http, origin, private_hosts=private_hosts, headers=headers)


async def walk_sitemaps(
    http: ports.HttpClient,
    walk: SitemapWalk,
    *,
    private_hosts: PrivateHosts,
    site: str | SiteRule,
    headers: dict[str, str] | None = None,
) -> None:
    """Fetch what the sans-IO walk asks for, a few documents at a time, until it is done;
    `site` is the start URL, or the audit's site rule (crawl.scope_rules), documents stay on."""
    rule = site if isinstance(site, SiteRule) else SiteRule.of(site)
    while not walk.done:
        requests = walk.next_requests(SITEMAP_CONCURRENCY)
        if not requests:
            return
        await asyncio.gather(
            *(
                _fetch_sitemap(http, walk, request.url, private_hosts, rule, headers)
                for request in requests
            )
        )


async def _fetch_sitemap(
    http: ports.HttpClient,
    walk: SitemapWalk,
    url: str,
    private_hosts: PrivateHosts,
    site: SiteRule,
    headers: dict[str, str] | None,
) -> None:
    followed = await fetch_following(
        http,
        url,
        private_hosts=private_hosts,
        timeout_s=settings.CRAWL.sitemap_timeout_s,
        max_bytes=MAX_SITEMAP_BYTES + 1,
        headers=headers or settings.CRAWL.request_headers,
        stay_on=site.covers_url,
    )
    result = followed.result
    if result.status == 0:
        walk.fail(url, result.error or "fetch failed")
        return
    walk.receive(
        url,
        result.status,
        result.header("content-type"),
        [result.body],
        final_url=followed.final_url,
    )


async def discover(
    http: ports.HttpClient,
    pad: Scratchpad,
    *,
    start_url: str,
    policy_for: Callable[[str, RobotsRules], UrlPolicy],
    max_pages: int,
    private_hosts: PrivateHosts,
    scheme_assumed: bool = False,
    headers: dict[str, str] | None = None,
    credentials: CredentialScope | None = None,
) -> DiscoveryReport:
    """Run discovery and seed `pad` (the audit's scratchpad), or stop at a start URL that cannot
    be audited (`DiscoveryReport.start_failure`: nothing is stored then).

    `policy_for(final_url, robots_rules)` builds the audit's URL policy once the origin is known;
    `headers` are the audit's request headers (its User-Agent, auditdb.scope).
    """
    # robots.txt of the start URL's origin is asked for while its redirects are followed: most
    # start URLs do not leave their origin, and then its answer is the one needed.
    guessed = origin_of(start_url)
    start, early = await asyncio.gather(
        resolve_start(
            http,
            start_url,
            private_hosts=private_hosts,
            scheme_assumed=scheme_assumed,
            headers=headers,
            credentials=credentials,
        ),
        _robots_of(http, guessed, private_hosts=private_hosts, headers=headers),
    )
    if start.failure is not None:
        return DiscoveryReport.failed(start)
    origin = origin_of(start.final_url) or start.final_url
    if early is None or origin != guessed:
        early = await fetch_robots(http, origin, private_hosts=private_hosts, headers=headers)
    robots_status, robots_text = early
    rules = RobotsRules.from_text(robots_text)
    await pad.save_crawl_config(CrawlConfig(final_url=start.final_url, robots_txt=robots_text))
    policy: UrlPolicy = policy_for(start.final_url, rules)
    start_decision = policy.decide(start.final_url, 0)
    start_allowed = start_decision is Decision.ALLOWED
    if start_allowed:
        await pad.seed_start(start.final_url)
    walk = SitemapWalk(
        lambda url, base: _stripped(policy, normalise_url(url, base)),
        policy.site.covers_url,
        max_urls=discovered_url_cap(max_pages),
    )
    robots_closes = start_decision is Decision.ROBOTS_DISALLOWED
    if not (robots_closes and rules.closes_site):  # a closed site's sitemaps name nothing open
        walk.add_seeds(sitemap_seeds(origin, rules.sitemaps), origin)
        await walk_sitemaps(
            http, walk, private_hosts=private_hosts, site=policy.site, headers=headers
        )
    robots_of_hosts = host_robots_of(http, policy, private_hosts, headers)
    seeded, blocked, opened = await seed_sitemap_urls(pad, walk, policy, robots_of_hosts)
    if robots_closes and opened == 0:
        failure = robots_closed(start.final_url, origin)
        return DiscoveryReport.failed(replace(start, failure=failure))
    summary = walk.summary()
    return DiscoveryReport(
        final_url=start.final_url,
        start_hops=start.hops,
        robots_status=robots_status,
        robots_rules=len(rules.rules),
        sitemap_documents=len(summary.documents),
        sitemap_urls=summary.urls_collected,
        seeded=seeded + int(start_allowed),
        sitemap_blocked=blocked,
        start_allowed=start_allowed,
        scheme_note=start.scheme_note,
    )


def host_robots_of(
    http: ports.HttpClient,
    policy: UrlPolicy,
    private_hosts: PrivateHosts,
    headers: dict[str, str] | None,
) -> HostRobots:
    """The robots.txt reader for hosts only the `subdomains` option brings in."""

    async def read(origin: str) -> str:
        return (await fetch_robots(http, origin, private_hosts=private_hosts, headers=headers))[1]

    return HostRobots(policy, read)


async def seed_sitemap_urls(
    pad: Scratchpad, walk: SitemapWalk, policy: UrlPolicy, host_robots: HostRobots
) -> tuple[int, int, int]:
    """Seed what the walk collected that the policy (and each host's robots.txt) allows;
    (seeded: newly inserted, blocked by robots.txt and noted for the sitemap-url-blocked check,
    opened: allowed, inserted now or by an earlier try of the step)."""
    seeded = blocked = opened = 0
    while batch := walk.drain_urls(SEED_RPC_BATCH):
        allowed, disallowed = [], []
        for url in batch:
            decision = policy.decide(url, None)
            if decision is Decision.ALLOWED and not await host_robots.allows(url):
                decision = Decision.ROBOTS_DISALLOWED
            if decision is Decision.ALLOWED:
                allowed.append(url)
            elif decision is Decision.ROBOTS_DISALLOWED:
                disallowed.append(url)
        if allowed:
            opened += len(allowed)
            seeded += (await pad.seed_sitemap_urls(allowed)).inserted
        if disallowed:
            await pad.note_sitemap_blocked(disallowed)
            blocked += len(disallowed)
    return seeded, blocked, opened


def _stripped(policy: UrlPolicy, url: str | None) -> str | None:
    """A sitemap entry without the query parameters the audit strips (crawl.scope_rules)."""
    return None if url is None else policy.stripped(url)
