"""The AuditScratchpad's RPC records: what each method takes and returns, both sides typed.

Over RPC these travel as plain JSON objects (`to_dict()`), never tuples, which the runtime refuses;
`from_dict()` is the inverse, and `from_dict(x.to_dict()) == x` for every record (a property test
holds us to it). The Durable Object converts on its first and last line; callers go through
`durable.client.Scratchpad` and never index a raw dict. Finalize's records (`FinalizeOptions`,
`FinalizePage`) live beside their queries in `durable.finalize`.

Wire integers are JS numbers, so they arrive as int when integral; SQLite flags arrive as 0/1 and
are read as booleans. A value of the wrong type is a `WireError` (a bug on one side of the call).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

from bindings import JsonObject, JsonValue

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


class WireError(TypeError):
    """An RPC value of the wrong shape."""


def _int(data: JsonObject, key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise WireError(f"{key!r} must be an integer, got {value!r}")
    return value


def _opt_int(data: JsonObject, key: str) -> int | None:
    return None if data.get(key) is None else _int(data, key)


def _str(data: JsonObject, key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise WireError(f"{key!r} must be a string, got {value!r}")
    return value


def _opt_str(data: JsonObject, key: str) -> str | None:
    return None if data.get(key) is None else _str(data, key)


def _flag(data: JsonObject, key: str) -> bool:
    """A boolean, or a SQLite 0/1 flag; absent means false."""
    value = data.get(key, False)
    if not isinstance(value, int):  # bool is an int
        raise WireError(f"{key!r} must be a boolean, got {value!r}")
    return bool(value)


def _list(data: JsonObject, key: str) -> list[JsonValue]:
    """A list; absent means empty (batches leave out what they do not carry)."""
    value = data.get(key, [])
    if not isinstance(value, list):
        raise WireError(f"{key!r} must be a list, got {value!r}")
    return value


def _object(value: JsonValue) -> JsonObject:
    if not isinstance(value, dict):
        raise WireError(f"expected an object, got {value!r}")
    return value


def _strings(data: JsonObject, key: str) -> tuple[str, ...]:
    items = _list(data, key)
    if not all(isinstance(item, str) for item in items):
        raise WireError(f"{key!r} must be a list of strings")
    return tuple(str(item) for item in items)


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
            seen=_int(data, "seen"),
            pending=_int(data, "pending"),
            leased=_int(data, "leased"),
            crawled=_int(data, "crawled"),
            links_truncated=_flag(data, "links_truncated"),
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
        return cls(_str(data, "url"), _opt_int(data, "depth"), _flag(data, "in_sitemap"))


@dataclass(frozen=True, slots=True)
class ClaimRequest:
    chunk_no: int
    limit: int

    def to_dict(self) -> JsonObject:
        return {"chunk_no": self.chunk_no, "limit": self.limit}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(_int(data, "chunk_no"), _int(data, "limit"))


@dataclass(frozen=True, slots=True)
class Claim:
    """A chunk's URLs in claim order; `is_retry` when the chunk number was claimed before."""

    urls: tuple[LeasedUrl, ...]
    is_retry: bool

    def to_dict(self) -> JsonObject:
        return {"urls": [leased.to_dict() for leased in self.urls], "is_retry": self.is_retry}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        urls = tuple(LeasedUrl.from_dict(_object(item)) for item in _list(data, "urls"))
        return cls(urls, _flag(data, "is_retry"))


@dataclass(frozen=True, slots=True)
class ReleaseResult:
    released: int

    def to_dict(self) -> JsonObject:
        return {"released": self.released}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(_int(data, "released"))


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
            FrontierStats.from_dict(data), _int(data, "last_chunk"), _flag(data, "configured")
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
        return cls(_int(data, "received"), _int(data, "inserted"))


@dataclass(frozen=True, slots=True)
class SitemapBlockedRequest:
    """One page of robots-blocked sitemap URLs: those after `after`, in URL order."""

    after: str = ""
    limit: int = SITEMAP_BLOCKED_PAGE

    def to_dict(self) -> JsonObject:
        return {"after": self.after, "limit": self.limit}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(_str(data, "after"), _int(data, "limit"))


@dataclass(frozen=True, slots=True)
class SitemapBlockedPage:
    urls: tuple[str, ...]

    def to_dict(self) -> JsonObject:
        return {"urls": list(self.urls)}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(_strings(data, "urls"))


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
        return cls(_opt_str(data, "final_url") or "", _opt_str(data, "robots_txt") or "")


@dataclass(frozen=True, slots=True)
class ConfigSaved:
    saved: bool = True

    def to_dict(self) -> JsonObject:
        return {"saved": self.saved}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(_flag(data, "saved"))


@dataclass(frozen=True, slots=True)
class Destroyed:
    destroyed: bool = True

    def to_dict(self) -> JsonObject:
        return {"destroyed": self.destroyed}

    @classmethod
    def from_dict(cls, data: JsonObject) -> Self:
        return cls(_flag(data, "destroyed"))


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
            _str(data, "source_url"),
            _str(data, "target_url"),
            _flag(data, "nofollow"),
            _opt_str(data, "anchor"),
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
        return cls(_str(data, "url"), _opt_int(data, "depth"), _opt_str(data, "found_on"))


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
            crawled=_strings(data, "crawled"),
            pages=tuple(_object(page) for page in _list(data, "pages")),
            links=tuple(LinkRow.from_dict(_object(link)) for link in _list(data, "links")),
            discovered=tuple(
                DiscoveredUrl.from_dict(_object(item)) for item in _list(data, "discovered")
            ),
            link_budget_bytes=_opt_int(data, "link_budget_bytes"),
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
            FrontierStats.from_dict(data), _int(data, "links_written"), _int(data, "enqueued")
        )
