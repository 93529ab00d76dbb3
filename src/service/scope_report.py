"""What a report says about an audit's scope (issue 28): the options it ran with, in sentences,
and the checks it did not make. One source for the HTML report's "About this audit" area, the
JSON report's `scope` object and the SARIF run's `properties.scope`.

A list audit (auditdb.scope) follows no link, so three things are not checked and are named as
such, never counted against the site: orphan pages (a page nothing in the list links to is not
an orphan of the site), crawl depth (listed URLs have no click path; `deep-page` cannot fire) and
sitemap coverage (the site's sitemaps are not read; with `sitemap_url` only that sitemap's own
entries are judged). Status, redirects, canonical tags, indexability, security headers and every
per-page rule are checked on each listed page as in a crawl.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from auditdb.records import AuditOptions
from auditdb.scope import AuditMode
from common.wire import JsonRecord

__all__ = ["LIST_NOT_CHECKED", "ScopeSummary", "scope_summary"]

# What a list audit does not check, each said as "not checked in list mode".
LIST_NOT_CHECKED = ("orphan pages", "crawl depth", "sitemap coverage")


@dataclass(frozen=True, slots=True)
class ScopeSummary(JsonRecord):
    mode: AuditMode
    facts: list[str] = field(default_factory=list)  # one sentence per option that is not default
    not_checked: list[str] = field(default_factory=list)

    @property
    def not_checked_sentence(self) -> str | None:
        if not self.not_checked:
            return None
        return f"{', '.join(self.not_checked).capitalize()}: not checked in list mode."


def scope_summary(options: AuditOptions) -> ScopeSummary:
    scope = options.scope
    facts = [*_list_facts(options), *_crawl_facts(options)]
    if scope.user_agent is not None:
        facts.append(f"User-Agent sent: {scope.user_agent} (robots.txt matched on 'siteaudit').")
    if scope.rate_per_s is not None:
        facts.append(
            f"At most {scope.rate_per_s:g} requests a second to one host (lower where "
            "robots.txt asks for a Crawl-delay)."
        )
    if scope.concurrency is not None:
        facts.append(f"At most {scope.concurrency} page fetches in flight.")
    if scope.strip_params:
        facts.append(
            f"Query parameters stripped before deduplication: {', '.join(scope.strip_params)}."
        )
    if scope.subdomains:
        facts.append("Subdomains included: every host under the start host's registrable domain.")
    not_checked = list(LIST_NOT_CHECKED) if scope.is_list else []
    return ScopeSummary(scope.mode, facts, not_checked)


def _list_facts(options: AuditOptions) -> list[str]:
    scope = options.scope
    if not scope.is_list:
        return []
    if scope.sitemap_url is not None:
        return [f"List mode: the URLs the sitemap {scope.sitemap_url} lists, no link followed."]
    return [f"List mode: {len(scope.urls):,} listed URLs, no link followed."]


def _crawl_facts(options: AuditOptions) -> list[str]:
    facts = []
    if options.max_depth is not None:
        facts.append(f"At most {options.max_depth} clicks from the start URL.")
    if options.include_patterns:
        facts.append(f"Only URLs matching: {', '.join(options.include_patterns)}.")
    if options.exclude_patterns:
        facts.append(f"URLs never crawled: {', '.join(options.exclude_patterns)}.")
    return facts
