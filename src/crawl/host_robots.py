"""robots.txt of the other hosts an audit's `subdomains` option brings in (RFC 9309 §2.3: the
rules of one origin apply to that origin only).

The start host's robots.txt is read by discovery and rebuilt into every chunk's URL policy. A host
that only `subdomains` puts on the site (crawl.scope_rules.SiteRule.other_host) is met later, as
links are found, so its robots.txt is read the first time one of its URLs would be enqueued, and
kept for the rest of the chunk (the next chunk reads it again: one small request per host and
chunk). URLs it disallows are dropped before the frontier sees them and counted as
`robots_disallowed`, exactly as the start host's are by the policy.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence

from crawl.robots import RobotsRules
from crawl.url_policy import Decision, UrlPolicy
from durable.records import DiscoveredUrl, LinkBatch
from urls.normalise import split_url

__all__ = ["HostRobots", "ReadRobots"]

# An origin's robots.txt text ('' when it has none): crawl.discovery.fetch_robots's answer.
ReadRobots = Callable[[str], Awaitable[str]]


class HostRobots:
    def __init__(self, policy: UrlPolicy, read: ReadRobots) -> None:
        self.policy, self.read = policy, read
        self.rules: dict[str, RobotsRules] = dict(policy.host_robots)
        self.disallowed = 0

    async def allows(self, url: str) -> bool:
        """Whether `url` may be crawled by its own host's robots.txt (True for the start host,
        which the policy already judged)."""
        parts = split_url(url)
        if parts is None or not self.policy.site.other_host(parts):
            return True
        rules = self.rules.get(parts.origin)
        if rules is None:
            text = await self.read(parts.origin)
            rules = self.rules[parts.origin] = RobotsRules.from_text(text)
        return rules.allows_target(parts.request_target)

    async def keep(self, discovered: Sequence[DiscoveredUrl]) -> list[DiscoveredUrl]:
        """The discovered URLs their hosts' robots.txt allows; the others are counted."""
        if not self.policy.subdomains:
            return list(discovered)
        kept = [item for item in discovered if await self.allows(item.url)]
        self.disallowed += len(discovered) - len(kept)
        return kept

    async def batch(self, batch: LinkBatch) -> LinkBatch:
        """`batch` with only the discovered URLs their hosts allow."""
        if not self.policy.subdomains or not batch.discovered:
            return batch
        return dataclasses.replace(batch, discovered=tuple(await self.keep(batch.discovered)))

    def counts(self) -> dict[str, int]:
        return {Decision.ROBOTS_DISALLOWED.value: self.disallowed} if self.disallowed else {}
