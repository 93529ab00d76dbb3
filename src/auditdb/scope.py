"""An audit's scope and speed beyond its page budget (issue 28, item 3) and its mode (item 4).

One frozen record, `ScopeOptions`, nested in `AuditOptions.scope`, so the CLI, the API, the MCP
tool and monitors carry the same fields through one validation (its `__post_init__`: each refusal
is a sentence naming the field). What depends on the deployment is checked by the service
(`service.scope_checks`: each listed URL through the start URL's address policy, the list on one
site); what the crawl does with each field is in `crawl.scope_rules` (subdomains, parameters),
`crawl.pacing` (rate and concurrency) and `crawl.discovery` (the list).

* `user_agent`: the User-Agent header sent instead of ours. robots.txt groups are still matched
  on our product token `siteaudit` (RFC 9309 §2.2.1: "crawlers MUST use case-insensitive
  matching to find the group that matches the product token"), never on this string. It must be
  a valid field value (RFC 9110 §5.5): visible ASCII with inner spaces or tabs, no line breaks,
  nothing around it.
* `rate_per_s`: at most this many requests a second to one host. It can only lower the rate the
  crawl would use (`crawl.pacing.effective_rate`); raising it above a robots.txt Crawl-delay is
  for owners who verified the host.
* `concurrency`: at most this many page fetches in flight; never more than the fetch window's
  maximum (`crawl.window.WINDOW_LIMITS`, repeated in `MAX_CONCURRENCY`, a test keeps them equal).
* `strip_params`: query parameters removed from every URL the crawl meets before it is
  normalised and deduplicated: names (`sessionid`) or globs (`utm_*`, fnmatch's `*`, `?`, `[ ]`),
  matched case-sensitively as servers read them (RFC 3986 §6.2.2.1 leaves the query's case to
  the scheme and the server). None by default.
* `subdomains`: also crawl other hosts under the start host's registrable domain (the Public
  Suffix List's eTLD+1); by default only the start host and its `www.` twin, as before.
* `mode` with `urls` or `sitemap_url`: `list` audits exactly the given URLs (or those a sitemap
  lists) without following links (docs/manual/scope.md).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from enum import StrEnum

from common.wire import JsonRecord

__all__ = [
    "MAX_CONCURRENCY",
    "MAX_LIST_URLS",
    "MAX_RATE_PER_S",
    "MAX_STRIP_PARAMS",
    "MAX_USER_AGENT_CHARS",
    "AuditMode",
    "ScopeOptions",
    "param_stripped",
]

# The fetch window's maximum (crawl.window.WINDOW_LIMITS.maximum): more in flight is refused.
MAX_CONCURRENCY = 40
# Far above what a person types, far below a flood: 100 requests a second to one host.
MAX_RATE_PER_S = 100.0
# A list audit's URLs: they travel in the workflow's parameters and the audit row, so they are
# bounded (2,000 URLs of 100 characters are 200 KB of JSON); a longer list goes by a sitemap.
MAX_LIST_URLS = 2_000
MAX_LIST_URL_CHARS = 2_048
MAX_STRIP_PARAMS = 50
MAX_PARAM_CHARS = 100
# Browsers send about 150 characters; 512 leaves room for a product and comments.
MAX_USER_AGENT_CHARS = 512

# RFC 9110 §5.5: field-value = *field-content; field-vchar = VCHAR / obs-text. obs-text (bytes
# 0x80-0xFF) is refused: fetch() wants a ByteString and the header must survive every hop.
_FIELD_VALUE = re.compile(r"[\x21-\x7e]([\x20\x09\x21-\x7e]*[\x21-\x7e])?")
# A parameter name as written in a query, or a glob of one: no delimiters of the query itself.
_PARAM_PATTERN = re.compile(r"[^&=#\s]+")


class AuditMode(StrEnum):
    CRAWL = "crawl"  # from the start URL, following links (and the site's sitemaps)
    LIST = "list"  # exactly the given URLs, no link followed


@dataclass(frozen=True, slots=True)
class ScopeOptions(JsonRecord):
    user_agent: str | None = None
    rate_per_s: float | None = None
    concurrency: int | None = None
    strip_params: list[str] = field(default_factory=list)
    subdomains: bool = False
    mode: AuditMode = AuditMode.CRAWL
    urls: list[str] = field(default_factory=list)
    sitemap_url: str | None = None

    def __post_init__(self) -> None:
        _check_user_agent(self.user_agent)
        _check_speed(self.rate_per_s, self.concurrency)
        _check_params(self.strip_params)
        _check_list(self.mode, self.urls, self.sitemap_url)

    @property
    def is_list(self) -> bool:
        return self.mode is AuditMode.LIST

    @property
    def is_default(self) -> bool:
        return self == ScopeOptions()

    def strips(self, name: str) -> bool:
        """Whether the query parameter `name` is one the audit removes."""
        return param_stripped(name, self.strip_params)


def param_stripped(name: str, patterns: list[str] | tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


def _check_user_agent(user_agent: str | None) -> None:
    if user_agent is None:
        return
    if len(user_agent) > MAX_USER_AGENT_CHARS:
        raise ValueError(f"user_agent must be at most {MAX_USER_AGENT_CHARS} characters")
    if not _FIELD_VALUE.fullmatch(user_agent):
        raise ValueError(
            "user_agent must be a valid HTTP field value: visible ASCII characters with spaces "
            "or tabs between them, no line breaks and no space at either end (RFC 9110 §5.5)"
        )


def _check_speed(rate_per_s: float | None, concurrency: int | None) -> None:
    if rate_per_s is not None and not 0 < rate_per_s <= MAX_RATE_PER_S:
        raise ValueError(
            f"rate_per_s must be more than 0 and at most {MAX_RATE_PER_S:g} requests a second"
        )
    if concurrency is not None and not 1 <= concurrency <= MAX_CONCURRENCY:
        raise ValueError(f"concurrency must be between 1 and {MAX_CONCURRENCY}")


def _check_params(patterns: list[str]) -> None:
    if len(patterns) > MAX_STRIP_PARAMS:
        raise ValueError(f"strip_params takes at most {MAX_STRIP_PARAMS} names")
    for pattern in patterns:
        if len(pattern) > MAX_PARAM_CHARS or not _PARAM_PATTERN.fullmatch(pattern):
            raise ValueError(
                f"strip_params: {pattern!r} is not a query parameter name or glob (no '&', '=', "
                f"'#' or spaces, at most {MAX_PARAM_CHARS} characters)"
            )


def _check_list(mode: AuditMode, urls: list[str], sitemap_url: str | None) -> None:
    if mode is AuditMode.CRAWL:
        if urls or sitemap_url is not None:
            raise ValueError('urls and sitemap_url are for mode "list"')
        return
    if bool(urls) == (sitemap_url is not None):
        raise ValueError('mode "list" takes either urls (a non-empty list) or sitemap_url')
    if len(urls) > MAX_LIST_URLS:
        raise ValueError(
            f"urls takes at most {MAX_LIST_URLS} URLs; audit a longer list by its sitemap_url"
        )
    for url in [*urls, sitemap_url or ""]:
        if len(url) > MAX_LIST_URL_CHARS:
            raise ValueError(f"a listed URL must be at most {MAX_LIST_URL_CHARS} characters")
