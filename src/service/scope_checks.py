"""The checks of an audit's scope options that depend on the deployment (auditdb.scope holds the
rest): every listed URL through the start URL's own address policy, and the list on one site.

A list audit (`mode: "list"`) may name URLs on the start URL's site (its host and `www.` twin),
or, with `subdomains`, on any host under its registrable domain (crawl.scope_rules). A URL
elsewhere is refused with a sentence naming it: the audit's robots.txt, pacing and report are
those of one site, and an audit of several sites is several audits.
"""

from __future__ import annotations

import dataclasses

from auditdb.scope import ScopeOptions
from crawl.scope_rules import SiteRule
from service.errors import InvalidOptions
from urls.normalise import origin_of
from urls.private_hosts import PrivateHosts
from urls.start_url import StartUrlError, read_start_url

__all__ = ["checked_list", "list_page_budget", "list_start_url"]


def list_start_url(scope: ScopeOptions) -> str | None:
    """The site a list audit names when no start URL was given: its first URL, or the root of
    its sitemap's origin."""
    if scope.urls:
        return scope.urls[0]
    origin = None if scope.sitemap_url is None else origin_of(scope.sitemap_url)
    return None if origin is None else origin + "/"


def checked_list(scope: ScopeOptions, start_url: str, private_hosts: PrivateHosts) -> ScopeOptions:
    """`scope` with each listed URL (and the sitemap's) read as a start URL is (the URL Standard,
    the SSRF policy), and all on the start URL's site; `InvalidOptions` names the first that is
    not. Crawl audits pass through unchanged."""
    if not scope.is_list:
        return scope
    site = SiteRule.of(start_url, subdomains=scope.subdomains)
    named = [(f"urls[{i}]", url) for i, url in enumerate(scope.urls)]
    if scope.sitemap_url is not None:
        named.append(("sitemap_url", scope.sitemap_url))
    checked = [_checked_url(name, url, site, private_hosts) for name, url in named]
    if scope.sitemap_url is not None:
        return dataclasses.replace(scope, sitemap_url=checked[-1])
    return dataclasses.replace(scope, urls=checked)


def list_page_budget(scope: ScopeOptions, max_pages: int, limit: int) -> int:
    """A URL list's page budget: its URLs and as many redirect targets, at least `max_pages`,
    at most the deployment's `limit` (a longer list is refused)."""
    if not scope.urls:
        return max_pages
    if len(scope.urls) > limit:
        raise InvalidOptions(
            f"the list has {len(scope.urls)} URLs, more than this deployment audits at once "
            f"(MAX_PAGES_LIMIT {limit})"
        )
    return max(max_pages, min(2 * len(scope.urls), limit))


def _checked_url(name: str, url: str, site: SiteRule, private_hosts: PrivateHosts) -> str:
    try:
        read = read_start_url(url, private_hosts=private_hosts).url
    except StartUrlError as exc:
        raise InvalidOptions(f"{name} {url!r}: {exc}") from exc
    if not site.covers_url(read):
        hint = "" if site.subdomains else "; pass subdomains to include other hosts of its domain"
        raise InvalidOptions(
            f"{name} {read} is not on the audited site ({site.start.origin}){hint}"
        )
    return read
