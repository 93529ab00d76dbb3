"""Sitemap discovery as a sans-IO walk: it says which documents to fetch, the caller fetches them.

Theory of operation
-------------------
The walk follows the original's discovery (docs/original-system.md §4.8, `discovery.ts` @053ed19):

* Seeds are every `Sitemap:` line of robots.txt plus `<origin>/sitemap.xml` (`sitemap_seeds`), each
  normalised against the origin and kept only when on the audited site.
* Documents are handed out breadth-first by `next_requests(limit)` (the original fetched them five
  at a time, `SITEMAP_CONCURRENCY`). Seeds are depth 1; a sitemap index at depth d queues its
  children at depth d + 1 only while d < `max_depth` (`MAX_SITEMAP_DEPTH` = 3). At most
  `max_documents` are handed out (`MAX_SITEMAP_DOCS` = 300) and each URL at most once (a seen set,
  so a→b→a ends), including the final URL of a redirect.
* The caller reports each response: `begin(url, status, content_type, final_url)` returns a
  `SitemapBody` to feed (or None when the body is not wanted: a non-2xx status, or a redirect off
  the site), then `complete(body)`; `receive(...)` does both over an iterable of chunks, and
  `fail(url, reason)` records a fetch that never produced a response (timeouts, network errors).
  The caller owns timeouts and retries (the original: 15 s per document, one retry on timeout).
* Whether a body is a sitemap is decided by its content, not its Content-Type (which is recorded):
  the original accepted a body that starts like a sitemap whatever the header said, and
  sitemaps.org allows text sitemaps, which are served as text/plain.
* Page URLs (from `urlset` and text sitemaps) are resolved against the sitemap's URL, normalised,
  kept only when on the site, deduplicated in discovery order and capped at `max_urls`
  (`discovered_url_cap(max_pages)`, the original's maxDiscoveredUrls). Once the cap is reached no
  more documents are handed out. URLs leave through `drain_urls(batch)`, at most
  `SEED_RPC_BATCH` at a time, so no return value ever holds them all: an uncapped list once blew
  the ~1 MiB step-output limit (fork issue EchoSEO #67), and the scratchpad takes 2,000 URLs per
  RPC (docs/original-system.md §3.2).
* Every fetched document gets a `DocumentOutcome`; `summary()` gathers them with the counts the
  report needs for "sitemap not found / too large / format errors" (docs/field.md §1.2, Semrush).

URL policy comes from the caller as two callables, so this module depends on no other crawl module:
`normalise(href, base) -> str | None` (resolve and normalise; None drops the URL) and
`same_site(url) -> bool`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TypedDict, Unpack

from common.wire import JsonRecord
from crawl.sitemap_parser import (
    MAX_SITEMAP_BYTES,
    MAX_URLS_PER_SITEMAP,
    ParseError,
    SitemapDocument,
    SitemapKind,
    SitemapParser,
)

__all__ = [
    "MAX_DISCOVERED_URLS",
    "MAX_SITEMAP_DEPTH",
    "MAX_SITEMAP_DOCS",
    "SEED_RPC_BATCH",
    "SITEMAP_CONCURRENCY",
    "DocumentOutcome",
    "DocumentResult",
    "SitemapBody",
    "SitemapRequest",
    "SitemapWalk",
    "SitemapWalkSummary",
    "SitemapWalkUsageError",
    "discovered_url_cap",
    "sitemap_seeds",
]

MAX_SITEMAP_DEPTH = 3  # the original's MAX_SITEMAP_DEPTH
MAX_SITEMAP_DOCS = 300  # the original's MAX_SITEMAP_DOCS
SITEMAP_CONCURRENCY = 5  # the original's SITEMAP_CONCURRENCY: a sensible `limit` for next_requests
MAX_DISCOVERED_URLS = 50_000  # the original's ceiling for maxDiscoveredUrls
SEED_RPC_BATCH = 2_000  # the original's SEED_RPC_BATCH (URLs per seedSitemapUrls RPC)
# A summary of 300 outcomes must stay far below the ~1 MiB step-output limit: cap what it repeats.
MAX_REPORTED_URL_CHARS = 1024
MAX_REPORTED_TEXT_CHARS = 200

Normalise = Callable[[str, str], str | None]
SameSite = Callable[[str], bool]


def discovered_url_cap(max_pages: int) -> int:
    """The original's maxDiscoveredUrls: min(max(maxPages × 20, 500), 50,000)."""
    return min(max(max_pages * 20, 500), MAX_DISCOVERED_URLS)


def sitemap_seeds(origin: str, robots_sitemaps: Iterable[str]) -> list[str]:
    """robots.txt `Sitemap:` values first, then `<origin>/sitemap.xml` (not yet normalised)."""
    return [*robots_sitemaps, origin.rstrip("/") + "/sitemap.xml"]


class SitemapWalkUsageError(RuntimeError):
    """The caller reported a response for a URL the walk did not hand out (or reported it twice)."""


class DocumentResult(StrEnum):
    PARSED = "parsed"  # a sitemap, read to its end
    FORMAT_ERROR = "format_error"  # an XML, gzip or DTD error; the entries before it are kept
    NOT_SITEMAP = "not_sitemap"  # a 2xx body that is not a sitemap (HTML, empty, prose)
    OVERSIZED = "oversized"  # over the byte cap: skipped whole
    HTTP_ERROR = "http_error"  # a non-2xx final status; the body is not read
    OFF_SITE = "off_site"  # redirected away from the audited site; the body is not read
    FETCH_FAILED = "fetch_failed"  # no response at all (timeout, network, policy)


@dataclass(frozen=True, slots=True)
class SitemapRequest:
    url: str
    depth: int  # seeds are 1


@dataclass(frozen=True, slots=True)
class DocumentOutcome(JsonRecord):
    """What happened to one fetched sitemap document; the raw material of sitemap issues."""

    url: str
    depth: int
    result: DocumentResult
    status: int | None = None
    content_type: str | None = None
    kind: SitemapKind = SitemapKind.UNKNOWN
    gzipped: bool = False
    size: int = 0  # decoded bytes (max_bytes + 1 when oversized)
    url_count: int = 0  # entries in the document, beyond the per-document cap too
    truncated: bool = False  # more entries than the per-document cap (sitemaps.org: 50,000)
    invalid_entries: int = 0  # empty or over-long locs, or text lines that are not URLs
    unusable_entries: int = 0  # locs the URL policy could not normalise
    off_site_entries: int = 0
    added: int = 0  # new page URLs (urlset, text) or new sitemaps (index) taken from it
    beyond_depth: int = 0  # index entries not followed because of the depth budget
    error: str | None = None  # a ParseError value, or the caller's fetch-failure reason
    error_detail: str | None = None


class _OutcomeDetails(TypedDict, total=False):
    """The `DocumentOutcome` fields a walk step fills in besides url, depth and result."""

    status: int | None
    content_type: str | None
    kind: SitemapKind
    gzipped: bool
    size: int
    url_count: int
    truncated: bool
    invalid_entries: int
    unusable_entries: int
    off_site_entries: int
    added: int
    beyond_depth: int
    error: str | None
    error_detail: str | None


@dataclass(frozen=True, slots=True)
class SitemapWalkSummary(JsonRecord):
    """The walk's step output: an outcome per fetched document and counts, never the URLs."""

    documents: tuple[DocumentOutcome, ...]
    urls_collected: int
    url_cap: int
    url_cap_reached: bool  # the cap was reached: sitemaps may list more URLs than were collected
    documents_unfetched: int  # queued but left out by the documents budget or the URL cap
    seeds_dropped: int  # seeds the URL policy rejected or that point off the site

    @property
    def found_sitemap(self) -> bool:
        """At least one document was a sitemap (parsed, possibly with a format error)."""
        usable = (DocumentResult.PARSED, DocumentResult.FORMAT_ERROR, DocumentResult.OVERSIZED)
        return any(d.result in usable for d in self.documents)


class SitemapBody:
    """A body being read: `feed()` chunks while `needs_more`, then `walk.complete(body)`."""

    def __init__(
        self, request: SitemapRequest, status: int, content_type: str | None, parser: SitemapParser
    ) -> None:
        self.request = request
        self.status = status
        self.content_type = content_type
        self._parser = parser

    @property
    def url(self) -> str:
        return self.request.url

    @property
    def needs_more(self) -> bool:
        return self._parser.needs_more

    def feed(self, data: bytes) -> None:
        self._parser.feed(data)

    def close(self) -> SitemapDocument:
        return self._parser.close()


def _result_of(doc: SitemapDocument) -> DocumentResult:
    if doc.oversized:
        return DocumentResult.OVERSIZED
    if doc.error in (ParseError.EMPTY, ParseError.NOT_A_SITEMAP):
        return DocumentResult.NOT_SITEMAP
    return DocumentResult.FORMAT_ERROR if doc.error is not None else DocumentResult.PARSED


def _clip(text: str | None, limit: int = MAX_REPORTED_TEXT_CHARS) -> str | None:
    return None if text is None else text[:limit]


@dataclass(slots=True)
class _Tally:
    """Per-document counts while its entries are taken in."""

    unusable: int = 0
    off_site: int = 0
    added: int = 0
    beyond_depth: int = 0


class SitemapWalk:
    """Breadth-first sitemap discovery for one site; see the module docstring for the protocol."""

    def __init__(
        self,
        normalise: Normalise,
        same_site: SameSite,
        *,
        max_depth: int = MAX_SITEMAP_DEPTH,
        max_documents: int = MAX_SITEMAP_DOCS,
        max_urls: int = MAX_DISCOVERED_URLS,
        max_bytes: int = MAX_SITEMAP_BYTES,
        max_urls_per_document: int = MAX_URLS_PER_SITEMAP,
    ) -> None:
        self._normalise, self._same_site = normalise, same_site
        self.max_depth, self.max_documents, self.max_urls = max_depth, max_documents, max_urls
        self._parser_caps = {"max_bytes": max_bytes, "max_urls": max_urls_per_document}
        self._queue: deque[SitemapRequest] = deque()
        self._seen_documents: set[str] = set()
        self._in_flight: dict[str, SitemapRequest] = {}
        self._handed_out = 0
        self._seeds_dropped = 0
        self._outcomes: list[DocumentOutcome] = []
        self._seen_urls: set[str] = set()
        self._undrained: deque[str] = deque()

    # -- seeds and requests --------------------------------------------------------------------

    def add_seeds(self, urls: Iterable[str], base: str) -> None:
        """Queue seed sitemaps at depth 1, resolved against `base` (the site's origin)."""
        for raw in urls:
            url = self._normalise(raw, base)
            if url is None or not self._same_site(url):
                self._seeds_dropped += 1
            elif url not in self._seen_documents:
                self._seen_documents.add(url)
                self._queue.append(SitemapRequest(url, 1))

    def next_requests(self, limit: int) -> list[SitemapRequest]:
        """Up to `limit` documents to fetch next, breadth first; [] means none right now."""
        requests: list[SitemapRequest] = []
        while len(requests) < limit and self._can_hand_out():
            request = self._queue.popleft()
            self._in_flight[request.url] = request
            self._handed_out += 1
            requests.append(request)
        return requests

    def _can_hand_out(self) -> bool:
        within_budget = self._handed_out < self.max_documents and not self.url_cap_reached
        return bool(self._queue) and within_budget

    @property
    def done(self) -> bool:
        """Nothing in flight and nothing more will be handed out."""
        return not self._in_flight and not self._can_hand_out()

    @property
    def url_cap_reached(self) -> bool:
        return len(self._seen_urls) >= self.max_urls

    # -- responses -----------------------------------------------------------------------------

    def begin(
        self, url: str, status: int, content_type: str | None = None, final_url: str | None = None
    ) -> SitemapBody | None:
        """A response arrived for `url`; returns the body to feed, or None when it is not wanted."""
        request = self._request_for(url)
        if final_url is not None and final_url != url and not self._redirect_stays(final_url, url):
            self._finish(request, DocumentResult.OFF_SITE, status=status, error_detail=final_url)
            return None
        if not 200 <= status < 300:
            self._finish(request, DocumentResult.HTTP_ERROR, status=status)
            return None
        return SitemapBody(request, status, content_type, SitemapParser(**self._parser_caps))

    def complete(self, body: SitemapBody) -> DocumentOutcome:
        """The body has been fed (or the caller stopped once `needs_more` was False)."""
        doc = body.close()
        tally = _Tally()
        self._take_entries(doc, body.request, tally)  # an oversized document has no entries
        return self._finish(
            body.request,
            _result_of(doc),
            status=body.status,
            content_type=body.content_type,
            kind=doc.kind,
            gzipped=doc.gzipped,
            size=doc.size,
            url_count=doc.url_count,
            truncated=doc.truncated,
            invalid_entries=doc.invalid_entries,
            unusable_entries=tally.unusable,
            off_site_entries=tally.off_site,
            added=tally.added,
            beyond_depth=tally.beyond_depth,
            error=doc.error.value if doc.error else None,
            error_detail=doc.error_detail,
        )

    def receive(
        self,
        url: str,
        status: int,
        content_type: str | None,
        body_chunks: Iterable[bytes],
        final_url: str | None = None,
    ) -> DocumentOutcome:
        """`begin`, feed the chunks while wanted, `complete`: for callers with the body at hand."""
        body = self.begin(url, status, content_type, final_url)
        if body is None:
            return self._outcomes[-1]
        for chunk in body_chunks:
            if not body.needs_more:
                break
            body.feed(chunk)
        return self.complete(body)

    def fail(self, url: str, reason: str) -> DocumentOutcome:
        """The fetch of `url` produced no response (timeout, network error, refused by policy)."""
        request = self._request_for(url)
        return self._finish(request, DocumentResult.FETCH_FAILED, error=_clip(reason))

    def _request_for(self, url: str) -> SitemapRequest:
        request = self._in_flight.get(url)
        if request is None:
            raise SitemapWalkUsageError(f"no request in flight for {url[:200]}")
        return request

    def _redirect_stays(self, final_url: str, url: str) -> bool:
        final = self._normalise(final_url, url)
        if final is None or not self._same_site(final):
            return False
        self._seen_documents.add(final)  # so a sitemap listed under the target is not refetched
        return True

    def _finish(
        self, request: SitemapRequest, result: DocumentResult, **details: Unpack[_OutcomeDetails]
    ) -> DocumentOutcome:
        del self._in_flight[request.url]
        details["content_type"] = _clip(details.get("content_type"))
        details["error_detail"] = _clip(details.get("error_detail"))
        url = request.url[:MAX_REPORTED_URL_CHARS]
        outcome = DocumentOutcome(url, request.depth, result, **details)
        self._outcomes.append(outcome)
        return outcome

    # -- entries -------------------------------------------------------------------------------

    def _take_entries(self, doc: SitemapDocument, request: SitemapRequest, tally: _Tally) -> None:
        take = self._take_sitemap if doc.kind is SitemapKind.INDEX else self._take_page
        for entry in doc.entries:
            url = self._normalise(entry.loc, request.url)
            if url is None:
                tally.unusable += 1
            elif not self._same_site(url):
                tally.off_site += 1
            else:
                take(url, request, tally)

    def _take_sitemap(self, url: str, request: SitemapRequest, tally: _Tally) -> None:
        if request.depth >= self.max_depth:
            tally.beyond_depth += 1
        elif url not in self._seen_documents:
            self._seen_documents.add(url)
            self._queue.append(SitemapRequest(url, request.depth + 1))
            tally.added += 1

    def _take_page(self, url: str, _request: SitemapRequest, tally: _Tally) -> None:
        if url not in self._seen_urls and not self.url_cap_reached:
            self._seen_urls.add(url)
            self._undrained.append(url)
            tally.added += 1

    # -- results -------------------------------------------------------------------------------

    def drain_urls(self, batch: int = SEED_RPC_BATCH) -> list[str]:
        """Up to `batch` collected page URLs not drained before, in discovery order."""
        count = min(batch, len(self._undrained))
        return [self._undrained.popleft() for _ in range(count)]

    def summary(self) -> SitemapWalkSummary:
        return SitemapWalkSummary(
            tuple(self._outcomes),
            len(self._seen_urls),
            self.max_urls,
            self.url_cap_reached,
            len(self._queue),
            self._seeds_dropped,
        )
