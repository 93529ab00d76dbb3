"""Discovery of a list audit (auditdb.scope, `mode: "list"`): exactly the given URLs, or those one
sitemap lists, seeded into the frontier; no start URL is judged and no site sitemap is walked.

The crawl then fetches them through the same chunks and per-page rules as any audit, but follows
no link (crawl.page_links, `follow_links`): a listed page's redirect is the one target it adds
(the same page, moved), so the redirect checks see where it lands. What a list cannot tell
(orphan pages, crawl depth, sitemap coverage of the site) is not checked, and the report says so
(docs/manual/scope.md).

Each listed URL is normalised and loses the parameters the audit strips, as crawled links do, and
goes through the audit's URL policy: off-site URLs were refused by the service already; a URL that
robots.txt (its own host's, with `subdomains`) or the include/exclude patterns leave out is not
fetched and is counted in `DiscoveryReport.list_refused`. Listed URLs have no depth (no click path
leads to them), so every one weighs the same in the verdict (audit.verdict, importance).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from common import ports
from crawl.discovery import (
    DiscoveryReport,
    fetch_robots,
    host_robots_of,
    seed_sitemap_urls,
    walk_sitemaps,
)
from crawl.host_robots import HostRobots
from crawl.robots import RobotsRules
from crawl.sitemaps import SEED_RPC_BATCH, SitemapWalk, discovered_url_cap
from crawl.url_policy import Decision, UrlPolicy
from durable.client import Scratchpad
from durable.records import CrawlConfig, DiscoveredUrl, LinkBatch
from urls.normalise import normalise_url, origin_of
from urls.private_hosts import PrivateHosts

__all__ = ["ListSource", "discover_list", "listed_urls"]


@dataclass(frozen=True, slots=True)
class ListSource:
    """What a list audit audits: its URLs, or the URL of the sitemap that lists them."""

    urls: tuple[str, ...] = ()
    sitemap_url: str | None = None


def listed_urls(urls: Sequence[str], policy: UrlPolicy) -> list[str]:
    """The listed URLs normalised and stripped as the crawl spells them, each once, in order."""
    seen: dict[str, None] = {}
    for url in urls:
        normalised = normalise_url(url)
        if normalised is not None:
            seen.setdefault(policy.stripped(normalised), None)
    return list(seen)


async def discover_list(
    http: ports.HttpClient,
    pad: Scratchpad,
    *,
    start_url: str,
    source: ListSource,
    policy_for: Callable[[str, RobotsRules], UrlPolicy],
    max_pages: int,
    private_hosts: PrivateHosts,
    headers: dict[str, str] | None = None,
) -> DiscoveryReport:
    origin = origin_of(start_url) or start_url
    robots_status, robots_text = await fetch_robots(
        http, origin, private_hosts=private_hosts, headers=headers
    )
    rules = RobotsRules.from_text(robots_text)
    await pad.save_crawl_config(CrawlConfig(final_url=start_url, robots_txt=robots_text))
    policy = policy_for(start_url, rules)
    host_robots = host_robots_of(http, policy, private_hosts, headers)
    if source.sitemap_url is None:
        seeded, refused = await _seed_urls(
            pad, listed_urls(source.urls, policy), policy, host_robots
        )
        documents = collected = blocked = 0
    else:
        walk = SitemapWalk(
            lambda url, base: _stripped(policy, normalise_url(url, base)),
            policy.site.covers_url,
            max_urls=discovered_url_cap(max_pages),
        )
        walk.add_seeds([source.sitemap_url], origin)
        await walk_sitemaps(
            http, walk, private_hosts=private_hosts, site=policy.site, headers=headers
        )
        seeded, blocked, _ = await seed_sitemap_urls(pad, walk, policy, host_robots)
        summary = walk.summary()
        documents, collected, refused = len(summary.documents), summary.urls_collected, 0
    return DiscoveryReport(
        final_url=start_url,
        start_hops=0,
        robots_status=robots_status,
        robots_rules=len(rules.rules),
        sitemap_documents=documents,
        sitemap_urls=collected,
        seeded=seeded,
        sitemap_blocked=blocked,
        start_allowed=seeded > 0,
        list_refused=refused,
    )


async def _seed_urls(
    pad: Scratchpad, urls: list[str], policy: UrlPolicy, host_robots: HostRobots
) -> tuple[int, int]:
    """Seed the allowed URLs as links without depth; (seeded, refused)."""
    allowed = [
        url
        for url in urls
        if policy.decide(url, None) is Decision.ALLOWED and await host_robots.allows(url)
    ]
    seeded = 0
    for start in range(0, len(allowed), SEED_RPC_BATCH):
        batch = tuple(DiscoveredUrl(url) for url in allowed[start : start + SEED_RPC_BATCH])
        seeded += (await pad.record_links(LinkBatch(discovered=batch))).enqueued
    return seeded, len(urls) - len(allowed)


def _stripped(policy: UrlPolicy, url: str | None) -> str | None:
    return None if url is None else policy.stripped(url)
