"""The AuditScratchpad's RPC records: what each method takes and returns, both sides typed.

Over RPC these travel as plain JSON objects (`to_dict()`), never tuples, which the runtime refuses;
`from_dict()` is the inverse, and `from_dict(x.to_dict()) == x` for every record (a property test
holds us to it). The Durable Object converts on its first and last line; callers go through
`durable.client.Scratchpad` and never index a raw dict. Finalize's records (`FinalizeOptions`,
`FinalizePage`) live beside their queries in `durable.finalize`.

Fields are read with `durable.wire`'s readers: a value of the wrong type is a `WireError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

from common.bindings import JsonObject
from durable.wire import (
    WireError,
    flag,
    integer,
    items,
    obj,
    opt_integer,
    opt_string,
    string,
    strings,
)

__all__ = [
    "BatchResult",
    "Claim",
    "ClaimRequest",
    "ConfigSaved",
    "CrawlConfig",
    "Destroyed",
    "DiscoveredUrl",
    "FrontierStats",
    "LeasedUrl",
    "LinkRow",
    "RecordBatch",
    "ReleaseResult",
    "ResumeState",
    "SeedResult",
    "SitemapBlockedPage",
    "SitemapBlockedRequest",
    "WireError",
]

SITEMAP_BLOCKED_PAGE = 2000


# -- the frontier ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FrontierStats:
    """Frontier rows per state (`seen` is all of them) and whether link edges stopped."""

    seen: int
    pending: int
    leased: int
    crawled: int
    links_truncated: bool

    def to_dict(self) -> JsonObject:
        return {
            "seen": self.seen,
            "pending": self.pending,
            "leased": self.leased,
            "crawled": self.crawled,
            "links_truncated": self.links_truncated,
        }

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(
            seen=integer(data, "seen"),
            pending=integer(data, "pending"),
            leased=integer(data, "leased"),
            crawled=integer(data, "crawled"),
            links_truncated=flag(data, "links_truncated"),
        )


@dataclass(frozen=True, slots=True)
class LeasedUrl:
    """One URL leased to a crawl chunk; `depth` None means found only in a sitemap."""

    url: str
    depth: int | None
    in_sitemap: bool

    def to_dict(self) -> JsonObject:
        return {"url": self.url, "depth": self.depth, "in_sitemap": self.in_sitemap}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(string(data, "url"), opt_integer(data, "depth"), flag(data, "in_sitemap"))


@dataclass(frozen=True, slots=True)
class ClaimRequest:
    chunk_no: int
    limit: int

    def to_dict(self) -> JsonObject:
        return {"chunk_no": self.chunk_no, "limit": self.limit}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(integer(data, "chunk_no"), integer(data, "limit"))


@dataclass(frozen=True, slots=True)
class Claim:
    """A chunk's URLs in claim order; `is_retry` when the chunk number was claimed before."""

    urls: tuple[LeasedUrl, ...]
    is_retry: bool

    def to_dict(self) -> JsonObject:
        return {"urls": [leased.to_dict() for leased in self.urls], "is_retry": self.is_retry}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        urls = tuple(LeasedUrl.from_dict(obj(item)) for item in items(data, "urls"))
        return cls(urls, flag(data, "is_retry"))


@dataclass(frozen=True, slots=True)
class ReleaseResult:
    released: int

    def to_dict(self) -> JsonObject:
        return {"released": self.released}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(integer(data, "released"))


@dataclass(frozen=True, slots=True)
class ResumeState:
    """Where a resumed crawl starts: the frontier after its leases were released."""

    stats: FrontierStats
    last_chunk: int
    configured: bool  # discovery saved a final URL: there is crawl state to resume

    def to_dict(self) -> JsonObject:
        return {
            **self.stats.to_dict(),
            "last_chunk": self.last_chunk,
            "configured": self.configured,
        }

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(
            FrontierStats.from_dict(data), integer(data, "last_chunk"), flag(data, "configured")
        )


# -- seeding -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeedResult:
    """What a batch of URLs did to a set: how many arrived, how many were new."""

    received: int
    inserted: int

    def to_dict(self) -> JsonObject:
        return {"received": self.received, "inserted": self.inserted}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(integer(data, "received"), integer(data, "inserted"))


@dataclass(frozen=True, slots=True)
class SitemapBlockedRequest:
    """One page of robots-blocked sitemap URLs: those after `after`, in URL order."""

    after: str = ""
    limit: int = SITEMAP_BLOCKED_PAGE

    def to_dict(self) -> JsonObject:
        return {"after": self.after, "limit": self.limit}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(string(data, "after"), integer(data, "limit"))


@dataclass(frozen=True, slots=True)
class SitemapBlockedPage:
    urls: tuple[str, ...]

    def to_dict(self) -> JsonObject:
        return {"urls": list(self.urls)}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(strings(data, "urls"))


# -- crawl configuration -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CrawlConfig:
    """Discovery's results, kept for every later chunk; empty strings where nothing was saved."""

    final_url: str = ""
    robots_txt: str = ""

    @property
    def configured(self) -> bool:
        return bool(self.final_url)

    def to_dict(self) -> JsonObject:
        return {"final_url": self.final_url, "robots_txt": self.robots_txt}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(opt_string(data, "final_url") or "", opt_string(data, "robots_txt") or "")


@dataclass(frozen=True, slots=True)
class ConfigSaved:
    saved: bool = True

    def to_dict(self) -> JsonObject:
        return {"saved": self.saved}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(flag(data, "saved"))


@dataclass(frozen=True, slots=True)
class Destroyed:
    destroyed: bool = True

    def to_dict(self) -> JsonObject:
        return {"destroyed": self.destroyed}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(flag(data, "destroyed"))


# -- recording ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LinkRow:
    """An internal link edge for the cross-page checks."""

    source_url: str
    target_url: str
    nofollow: bool = False
    anchor: str | None = None

    def to_dict(self) -> JsonObject:
        return {
            "source_url": self.source_url,
            "target_url": self.target_url,
            "nofollow": self.nofollow,
            "anchor": self.anchor,
        }

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(
            string(data, "source_url"),
            string(data, "target_url"),
            flag(data, "nofollow"),
            opt_string(data, "anchor"),
        )


@dataclass(frozen=True, slots=True)
class DiscoveredUrl:
    """A URL found on a page, to enqueue; the frontier keeps the first sighting of each URL."""

    url: str
    depth: int | None = None
    found_on: str | None = None

    def to_dict(self) -> JsonObject:
        return {"url": self.url, "depth": self.depth, "found_on": self.found_on}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(string(data, "url"), opt_integer(data, "depth"), opt_string(data, "found_on"))


@dataclass(frozen=True, slots=True)
class RecordBatch:
    """One crawled sub-batch, persisted atomically.

    `pages` are `page_mirror` rows (crawl.page_pipeline.mirror_row): the table's columns, booleans
    as 0/1, `hreflang_json` a JSON list of {"lang", "url"}. `link_budget_bytes` None means the
    scratchpad's default budget.
    """

    crawled: tuple[str, ...] = ()
    pages: tuple[JsonObject, ...] = ()
    links: tuple[LinkRow, ...] = ()
    discovered: tuple[DiscoveredUrl, ...] = ()
    link_budget_bytes: int | None = None

    def to_dict(self) -> JsonObject:
        return {
            "crawled": list(self.crawled),
            "pages": list(self.pages),
            "links": [link.to_dict() for link in self.links],
            "discovered": [item.to_dict() for item in self.discovered],
            "link_budget_bytes": self.link_budget_bytes,
        }

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(
            crawled=strings(data, "crawled"),
            pages=tuple(obj(page) for page in items(data, "pages")),
            links=tuple(LinkRow.from_dict(obj(link)) for link in items(data, "links")),
            discovered=tuple(
                DiscoveredUrl.from_dict(obj(item)) for item in items(data, "discovered")
            ),
            link_budget_bytes=opt_integer(data, "link_budget_bytes"),
        )


@dataclass(frozen=True, slots=True)
class BatchResult:
    """The frontier after a batch, link edges stored (within budget) and URLs newly queued."""

    stats: FrontierStats
    links_written: int
    enqueued: int

    def to_dict(self) -> JsonObject:
        return {
            **self.stats.to_dict(),
            "links_written": self.links_written,
            "enqueued": self.enqueued,
        }

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(
            FrontierStats.from_dict(data), integer(data, "links_written"), integer(data, "enqueued")
        )
