"""Which pages of an audit get Lighthouse runs (docs/original-system.md §7, `selectLighthouseSample`).

Pure: pages in, sample out. Eligible pages answered 2xx with fetch class `ok` (a challenge page
can answer 200, so the status alone is not enough). The start URL's page always comes first,
found by a canonical key (https, no `www.`, lowercase host, sorted query, no fragment) and, failing
that, by the same key without a trailing slash. Then, in the frontier's order (depth, then URL),
the first page of each URL template, a template being the host and the path with its variable
segments collapsed:

    all digits -> :id      a UUID -> :uuid      YYYY-MM-DD -> :date
    three or more hyphen-separated parts (an article slug) -> :slug

until `limit` pages: one product page speaks for a thousand others built from the same template.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from common.fetch_class import FetchClass
from common.wire import JsonRecord

__all__ = [
    "DEFAULT_SAMPLE_PAGES",
    "SampledPage",
    "canonical_key",
    "select_sample",
    "url_template",
]

DEFAULT_SAMPLE_PAGES = 10  # the original's cap: 10 pages x 2 strategies = 20 runs per audit

_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE)
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_SLUG_MIN_PARTS = 3


class CrawledPage(Protocol):
    """What selection needs of a page row."""

    @property
    def id(self) -> str: ...

    @property
    def url(self) -> str: ...

    @property
    def status_code(self) -> int: ...

    @property
    def fetch_class(self) -> str: ...


@dataclass(frozen=True, slots=True)
class SampledPage(JsonRecord):
    page_id: str
    url: str


def select_sample(
    pages: Sequence[CrawledPage], start_url: str, limit: int = DEFAULT_SAMPLE_PAGES
) -> list[SampledPage]:
    """Up to `limit` eligible pages: the start URL's first, then one per template in `pages`'
    order (the crawl order)."""
    eligible = [page for page in pages if _eligible(page)]
    start = _start_page(eligible, start_url)
    chosen = [] if start is None else [start]
    seen = {url_template(page.url) for page in chosen}
    for page in eligible:
        if len(chosen) >= limit:
            break
        template = url_template(page.url)
        if template not in seen:
            seen.add(template)
            chosen.append(page)
    return [SampledPage(page.id, page.url) for page in chosen[:limit]]


def canonical_key(url: str) -> str:
    """The URL as the sample compares start URLs: https, no `www.`, lowercase host, sorted
    query, no fragment."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower().removeprefix("www.")
    netloc = host if parts.port is None else f"{host}:{parts.port}"
    query = urlencode(sorted(parse_qsl(parts.query, keep_blank_values=True)))
    return urlunsplit(("https", netloc, parts.path or "/", query, ""))


def url_template(url: str) -> str:
    """The host and path with variable segments collapsed (see the module docstring)."""
    parts = urlsplit(url)
    segments = [_segment_template(segment) for segment in parts.path.split("/")]
    return f"{(parts.hostname or '').lower().removeprefix('www.')}{'/'.join(segments) or '/'}"


def _segment_template(segment: str) -> str:
    if segment.isdigit():
        return ":id"
    if _UUID.match(segment):
        return ":uuid"
    if _DATE.match(segment):
        return ":date"
    if len(segment.split("-")) >= _SLUG_MIN_PARTS:
        return ":slug"
    return segment


def _eligible(page: CrawledPage) -> bool:
    return 200 <= page.status_code < 300 and page.fetch_class == FetchClass.OK


def _start_page(pages: Sequence[CrawledPage], start_url: str) -> CrawledPage | None:
    key = canonical_key(start_url)
    exact = next((page for page in pages if canonical_key(page.url) == key), None)
    if exact is not None:
        return exact
    loose = _without_trailing_slash(key)
    return next((p for p in pages if _without_trailing_slash(canonical_key(p.url)) == loose), None)


def _without_trailing_slash(key: str) -> str:
    parts = urlsplit(key)
    if parts.path == "/" or not parts.path.endswith("/"):
        return key
    return urlunsplit(parts._replace(path=parts.path.rstrip("/")))
