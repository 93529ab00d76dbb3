"""Which hosts are the audited site, and which query parameters a URL loses first (sans-IO).

Two of an audit's scope options (auditdb.scope.ScopeOptions) change what a URL *is* to the crawl,
so they sit under the URL policy (crawl.url_policy) and the link router (crawl.page_links):

* The site: by default the start host and its `www.` twin, with the scheme and port rule of
  `urls.normalise.same_site_parts` (the crawl's rule since the original system, §4.7). With
  `subdomains`, any host under the start host's registrable domain (the Public Suffix List's
  eTLD+1, `security.site_names.registrable_domain`): `blog.example.co.uk` is on the site of
  `www.example.co.uk`, `example.co.uk` itself too, `other.co.uk` is not. A start host that has no
  registrable domain (an IP address, `localhost`, a bare suffix) keeps the default rule.
* Parameters: `strip_url` removes the query parameters the audit names (`sessionid`, `utm_*`)
  from a normalised URL before the frontier dedupes on it, keeping the others in their order (the
  order is part of the URL: urls.normalise, "Decisions"). A query left empty loses its `?`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote

from auditdb.scope import param_stripped
from security.site_names import registrable_domain
from urls.normalise import UrlParts, same_site_parts, split_url

__all__ = ["SiteRule", "strip_query", "strip_url"]


@dataclass(frozen=True, slots=True)
class SiteRule:
    """Whether a URL is on the audited site: its start URL's, with or without subdomains."""

    start: UrlParts
    subdomains: bool = False
    _domain: str | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        domain = registrable_domain(self.start.host) if self.subdomains else None
        object.__setattr__(self, "_domain", domain)

    @classmethod
    def of(cls, start_url: str, *, subdomains: bool = False) -> SiteRule:
        parts = split_url(start_url)
        if parts is None:
            raise ValueError(f"not an http(s) URL: {start_url!r}")
        return cls(parts, subdomains)

    def covers(self, parts: UrlParts) -> bool:
        if same_site_parts(self.start, parts):
            return True
        if self._domain is None or not _same_ports(self.start, parts):
            return False
        return registrable_domain(parts.host) == self._domain

    def covers_url(self, url: str) -> bool:
        parts = split_url(url)
        return parts is not None and self.covers(parts)

    def other_host(self, parts: UrlParts) -> bool:
        """On the site by subdomains alone: its own robots.txt applies (RFC 9309 §2.3)."""
        return not same_site_parts(self.start, parts) and self.covers(parts)


def _same_ports(first: UrlParts, second: UrlParts) -> bool:
    # The scheme and port half of urls.normalise.same_site_parts, for hosts that differ.
    if first.scheme == second.scheme:
        return first.effective_port == second.effective_port
    return first.port is None and second.port is None


def strip_query(query: str, patterns: tuple[str, ...] | list[str]) -> str | None:
    """`query` without the parameters whose (percent-decoded) names match; None when none
    is left."""
    kept = [part for part in query.split("&") if not _stripped(part, patterns)]
    return "&".join(kept) if kept else None


def _stripped(part: str, patterns: tuple[str, ...] | list[str]) -> bool:
    name = part.partition("=")[0]
    return bool(name) and param_stripped(unquote(name.replace("+", " ")), patterns)


def strip_url(url: str, patterns: tuple[str, ...] | list[str]) -> str:
    """A normalised URL without the named query parameters (itself when nothing matched)."""
    if not patterns or "?" not in url:
        return url
    parts = split_url(url)
    if parts is None or parts.query is None:
        return url
    query = strip_query(parts.query, patterns)
    if query == parts.query:
        return url
    return UrlParts(
        parts.scheme, parts.userinfo, parts.host, parts.port, parts.path, query
    ).unsplit()
