"""Which URLs an audit may crawl: one decision, with its reason, for every URL the crawl meets.

Every discovered link, redirect target and sitemap entry goes through `UrlPolicy.decide` before
it is enqueued (original system §4.4 "discovered map: internal, same-origin, crawlable,
robots-allowed"; §4.7 `isCrawlableUrl`). The checks run in a fixed order and the first that
fails names the reason, so a URL is counted once, under the most important reason:

1. `not_http` / `malformed` — nothing fetchable (mailto:, javascript:, bad ports, bad hosts).
2. `blocked_host` — private, loopback, link-local or metadata hosts (`urls.private_hosts`), unless
   the deployment allows private hosts (local development). Checked before `off_site` so an SSRF
   attempt is visible as one even when it also leaves the site.
3. `off_site` — not the audited site (`urls.normalise.same_site` against the audit's *final*
   start URL, after start redirects, so apex→www sites do not dead-end; original §4.1), or with
   the audit's `subdomains` option any host under its registrable domain (crawl.scope_rules).
4. `reserved_path` — `/cdn-cgi/…` is Cloudflare's own namespace on every zone (e-mail
   protection, challenge scripts), never site content; crawling it produced false "broken
   links" (docs/field.md §5.2) and the original excluded it in its newest URL policy.
5. `excluded`, then `not_included` — the user's patterns; an exclusion beats an inclusion.
6. `too_deep` — more clicks from the start URL than allowed (unknown depth is never too deep).
7. `robots_disallowed` — robots.txt for our product token (`crawl.robots`): the start URL's for
   the start host and its `www.` twin; another host's own (`host_robots`, by origin) for a host
   the `subdomains` option brings in. Such a host's robots.txt not read yet allows for now: the
   crawl reads it before it enqueues the URL (crawl.host_robots).

Pattern syntax (include/exclude): robots.txt path patterns, so users write what they already know
from robots.txt and Google's documentation. A pattern is matched against the URL's path and
query (`/blog/post?page=2`), case-sensitively, as a prefix; `*` matches any run of characters
(including `/`) and a final `$` anchors the end. So `/blog/` covers everything under /blog/,
`/*.pdf$` all PDFs, `/*?sort=` sorted listings. A pattern must start with `/` or `*`. The start
URL gets no exemption: include patterns that do not match it leave only sitemap seeds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from types import MappingProxyType

from crawl.robots import RobotsRules, pattern_matches
from crawl.scope_rules import SiteRule, strip_url
from urls.normalise import UrlParts, normalise_request_target, normalise_url, split_url
from urls.private_hosts import PrivateHosts, host_refused

__all__ = ["DECIDED_URLS_CACHED", "RESERVED_PATH_PREFIX", "Decision", "LinkTarget", "UrlPolicy"]

RESERVED_PATH_PREFIX = "/cdn-cgi/"
# Distinct URLs whose depth-independent checks one policy remembers (least recently used first
# out). A page asks about each of its targets once (crawl.page_links), but a site repeats its
# navigation on every page: a link-heavy site's pages asked about ~270 targets each, and robots.txt
# matched every one of them against every rule (~1,600 `pattern_matches` calls a page, issue 29).
# The same size as `urls.normalise.split_url`'s cache: about 2 MB when full, and as much again
# for the link targets a policy remembers (`link_target`).
DECIDED_URLS_CACHED = 8192

type _Checks = tuple[Decision | None, Decision]
# A link's URL as the crawl keys it (normalised, less the stripped parameters) and whether the
# audited site covers it: `UrlPolicy.link_target`.
type LinkTarget = tuple[str, bool]


class Decision(StrEnum):
    """Why a URL may or may not be crawled; `.value` is stored and counted."""

    ALLOWED = "allowed"
    NOT_HTTP = "not_http"
    MALFORMED = "malformed"  # looks like http(s) but cannot be parsed (bad port, host, ...)
    BLOCKED_HOST = "blocked_host"
    OFF_SITE = "off_site"
    RESERVED_PATH = "reserved_path"
    EXCLUDED = "excluded"
    NOT_INCLUDED = "not_included"
    TOO_DEEP = "too_deep"
    ROBOTS_DISALLOWED = "robots_disallowed"


@dataclass(frozen=True, slots=True)
class UrlPolicy:
    """The crawl scope of one audit. Patterns are stored normalised; see the module docstring."""

    start_url: str
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_depth: int | None = None
    private_hosts: PrivateHosts = PrivateHosts.DENY
    robots: RobotsRules | None = None
    # -- scope options (auditdb.scope.ScopeOptions; crawl.scope_rules) --
    subdomains: bool = False
    strip_params: tuple[str, ...] = ()
    host_robots: Mapping[str, RobotsRules] = field(default_factory=lambda: MappingProxyType({}))
    _start: UrlParts = field(init=False, repr=False, compare=False)
    _site: SiteRule = field(init=False, repr=False, compare=False)
    _checked: Callable[[str], _Checks] = field(init=False, repr=False, compare=False)
    # A link's resolved URL as the crawl keys it: normalised (the parsed spelling where
    # normalisation fails), less the query parameters the audit strips, and whether the audited
    # site covers it; None when it is no http(s) URL. Remembered per distinct URL like
    # `decide`'s checks (the memo itself, called without a Python frame of ours): a site links
    # its navigation from every page, whose links were otherwise each split, normalised,
    # stripped and placed again (issue 29).
    link_target: Callable[[str], LinkTarget | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        start = split_url(self.start_url)
        if start is None:
            raise ValueError(f"start_url is not an http(s) URL: {self.start_url!r}")
        if self.max_depth is not None and self.max_depth < 0:
            raise ValueError(f"max_depth must be >= 0, not {self.max_depth}")
        object.__setattr__(self, "start_url", start.unsplit())
        object.__setattr__(self, "_start", start)
        object.__setattr__(self, "_site", SiteRule(start, self.subdomains))
        object.__setattr__(self, "include", _patterns(self.include))
        object.__setattr__(self, "exclude", _patterns(self.exclude))
        # Per policy: the answers depend on its fields, and a chunk builds one policy.
        object.__setattr__(self, "_checked", lru_cache(maxsize=DECIDED_URLS_CACHED)(self._checks))
        targets = lru_cache(maxsize=DECIDED_URLS_CACHED)(self._link_target)
        object.__setattr__(self, "link_target", targets)

    def decide(self, url: str, depth: int | None) -> Decision:
        """The first failing check's reason, or ALLOWED. `depth` is clicks from the start URL
        (0 for the start URL itself; None when unknown)."""
        before_depth, robots = self._checked(url)
        if before_depth is not None:
            return before_depth
        if depth is not None and self.max_depth is not None and depth > self.max_depth:
            return Decision.TOO_DEEP
        return robots

    def _checks(self, url: str) -> _Checks:
        """What `decide` answers whatever the depth: the first failing check before the depth
        check (None if none fails), and the robots.txt check after it (ALLOWED when not run)."""
        parts = split_url(url)
        if parts is None:
            return (Decision.MALFORMED if _looks_http(url) else Decision.NOT_HTTP), Decision.ALLOWED
        failed = self._scope(parts) or self._config(parts.request_target)
        return failed, Decision.ALLOWED if failed is not None else self._robots(parts)

    def _link_target(self, url: str) -> LinkTarget | None:
        parts = split_url(url)
        if parts is None:
            return None
        return self.stripped(normalise_url(url) or parts.unsplit()), self._site.covers(parts)

    def stripped(self, url: str) -> str:
        """A normalised URL without the query parameters the audit strips."""
        return strip_url(url, self.strip_params)

    @property
    def site(self) -> SiteRule:
        """The audited site's host rule (with subdomains when the audit asked)."""
        return self._site

    def needs_host_robots(self, url: str) -> str | None:
        """The origin whose robots.txt must be read before `url` is enqueued: a host that the
        `subdomains` option brings in, not read yet. None otherwise."""
        parts = split_url(url)
        if parts is None or not self._site.other_host(parts):
            return None
        return None if parts.origin in self.host_robots else parts.origin

    def _scope(self, parts: UrlParts) -> Decision | None:
        if host_refused(parts.host, self.private_hosts):
            return Decision.BLOCKED_HOST
        if not self._site.covers(parts):
            return Decision.OFF_SITE
        if parts.path.startswith(RESERVED_PATH_PREFIX) or parts.path == RESERVED_PATH_PREFIX[:-1]:
            return Decision.RESERVED_PATH
        return None

    def _config(self, target: str) -> Decision | None:
        if any(pattern_matches(pattern, target) for pattern in self.exclude):
            return Decision.EXCLUDED
        if self.include and not any(pattern_matches(pattern, target) for pattern in self.include):
            return Decision.NOT_INCLUDED
        return None

    def _robots(self, parts: UrlParts) -> Decision:
        robots = self.robots
        if self._site.other_host(parts):
            robots = self.host_robots.get(parts.origin)
        if robots is not None and not robots.allows_target(parts.request_target):
            return Decision.ROBOTS_DISALLOWED
        return Decision.ALLOWED


def _patterns(patterns: tuple[str, ...] | list[str] | str) -> tuple[str, ...]:
    if isinstance(patterns, str):  # a lone string would otherwise become one pattern per char
        raise TypeError("patterns must be a sequence of strings, not a string")
    for pattern in patterns:
        if not pattern.startswith(("/", "*")):
            raise ValueError(f"a URL pattern must start with '/' or '*': {pattern!r}")
    return tuple(normalise_request_target(pattern) for pattern in patterns)


def _looks_http(url: str) -> bool:
    return url.strip().lower().startswith(("http:", "https:"))
