"""What an audit keeps of its link graph: each crawled page's inlinks and outlinks, capped.

The crawl stores every link edge of a crawled page in the audit's scratchpad (durable.links): for
each (page, target) the first link's text, its image's alt when it has no text, and its nofollow
flag. The scratchpad is wiped when the audit completes, so before that the `keep-links-N` steps
(workflow.links_step) copy, for every crawled page, its first `INLINKS_KEPT` inlinks (the pages
linking to it, by URL) and its first `OUTLINKS_KEPT` outlinks (its distinct link targets, by URL,
on the site or elsewhere, each with the status the target answered the crawl, or its external
check, with) to D1 (auditdb.page_links), with the true totals. The per-URL view of the report,
the full report document and `GET /api/audits/{id}/pages/links` read them there.

Why 50 and 50 (measured on the PostgreSQL 15 manual, 1,169 pages, and bench/synthetic_site.py's
10,000-page site): 99.5% and 99.0% of their pages have at most 50 inlinks, 97.1% and 100% at most
50 outlinks, so their lists are whole; a page past the cap (a home page every page links) shows
its first 50 and its total. Both caps bound what D1 holds per page whatever the site:
auditdb.page_links stores a page's two lists in one row, about 1.1 KB a page on the manual (7.7 KB
its largest), about 9 KB at the caps for links of usual length (docs/manual/reports.md, "Links").

A link's anchor, in the order a reader names a link: its text; else, for an image link, the
image's alt (HTML §4.8.4.4.2, "A link or button containing nothing but the image"); else none
("no text": an empty anchor, a decorative image, or a page link that has no text, such as an
iframe, an area or a refresh). Sans-IO.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit

from common.wire import JsonRecord, JsonValue, as_bool, as_int, as_list, as_str

__all__ = [
    "INLINKS_KEPT",
    "OUTLINKS_KEPT",
    "AnchorKind",
    "LinkDirection",
    "PageLink",
    "PageLinkLists",
    "PageRow",
    "anchor_of",
    "decode_links",
    "encode_link",
    "encode_links",
    "from_row",
    "origin_prefix",
    "to_row",
]

INLINKS_KEPT = 50
OUTLINKS_KEPT = 50


class AnchorKind(StrEnum):
    TEXT = "text"  # the link's own text
    IMAGE = "image"  # no text: the alt of the image inside it
    NONE = "none"  # no text and no image alt


class LinkDirection(StrEnum):
    IN = "in"  # the pages linking to a page
    OUT = "out"  # what a page links to

    @property
    def kept(self) -> int:
        """How many links of this direction a page keeps."""
        return INLINKS_KEPT if self is LinkDirection.IN else OUTLINKS_KEPT


def anchor_of(text: str | None, image_alt: str | None) -> tuple[str | None, AnchorKind]:
    """A link's anchor and its kind from its text and its image's alt (the module docstring)."""
    if text:
        return text, AnchorKind.TEXT
    if image_alt:
        return image_alt, AnchorKind.IMAGE
    return None, AnchorKind.NONE


@dataclass(frozen=True, slots=True)
class PageLink(JsonRecord):
    """One inlink (`url` the linking page) or outlink (`url` the target) of a page.

    `external`: an outlink to another site. `status_code`: an outlink's target as the crawl
    fetched it, or as the external check found it; None when neither did (not crawled, or not
    checked). Inlinks leave both unset: their pages are crawled pages of the audit."""

    url: str
    anchor: str | None
    anchor_kind: AnchorKind
    nofollow: bool = False
    external: bool = False
    status_code: int | None = None

    def __post_init__(self) -> None:
        if (self.anchor is None) != (self.anchor_kind is AnchorKind.NONE):
            raise ValueError(f"anchor {self.anchor!r} is not of kind {self.anchor_kind}")


@dataclass(frozen=True, slots=True)
class PageLinkLists(JsonRecord):
    """A crawled page's kept links: the first `INLINKS_KEPT` inlinks and `OUTLINKS_KEPT`
    outlinks by URL, and how many there are in all. `complete` is False when the crawl stopped
    storing links at its budget (settings `CRAWL.link_budget_bytes`): the totals then count what
    it stored."""

    url: str
    inlinks_total: int
    outlinks_total: int
    inlinks: tuple[PageLink, ...] = ()
    outlinks: tuple[PageLink, ...] = ()
    complete: bool = True

    def __post_init__(self) -> None:
        if not len(self.inlinks) <= min(self.inlinks_total, INLINKS_KEPT):
            raise ValueError(f"{len(self.inlinks)} inlinks kept of {self.inlinks_total}")
        if not len(self.outlinks) <= min(self.outlinks_total, OUTLINKS_KEPT):
            raise ValueError(f"{len(self.outlinks)} outlinks kept of {self.outlinks_total}")

    def listed(self, direction: LinkDirection) -> tuple[PageLink, ...]:
        return self.inlinks if direction is LinkDirection.IN else self.outlinks

    def total(self, direction: LinkDirection) -> int:
        return self.inlinks_total if direction is LinkDirection.IN else self.outlinks_total


# -- the compact form ------------------------------------------------------------------------------
#
# A page's lists as the keep-links steps carry them from the scratchpad to D1 and as
# `audit_page_links` stores them (auditdb.page_links): a row `[url, inlinks_total, outlinks_total,
# complete (0/1), inlinks, outlinks]`, each list an array of links (or that array's JSON text, as
# the scratchpad's SQLite builds it: durable.link_graph) `[url, anchor, kind, flags, status]`:
#   url     the other end; on the page's own origin, its path (flag 4), which saves the origin's
#           20 to 40 bytes on most links of most sites
#   anchor  the text or the image alt, or null (`anchor_of`)
#   kind    the anchor's kind, an `AnchorKind` value
#   flags   1: nofollow; 2: external (an outlink to another site); 4: `url` is a path on the
#           page's origin
#   status  an outlink's target status, or null
# Plain JSON built by hand: a link crosses the RPC boundary and the D1 binding without the
# generic record conversion, which cost more than the copy itself (bench/scale_bench.py).

type PageRow = list[JsonValue]
_NOFOLLOW, _EXTERNAL, _ON_ORIGIN = 1, 2, 4


def _origin(url: str) -> str | None:
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else None


def origin_prefix(page_url: str) -> str | None:
    """What a URL on the page's own origin starts with (`scheme://host[:port]/`), if it has one."""
    origin = _origin(page_url)
    return None if origin is None else f"{origin}/"


def encode_link(
    prefix: str | None,
    url: str,
    anchor: tuple[str | None, AnchorKind],
    nofollow: bool,
    external: bool,
    status: int | None,
) -> list[JsonValue]:
    """One link in the compact form; `prefix` is the page's `origin_prefix` (durable.link_graph
    spells the same in SQL)."""
    on_origin = prefix is not None and url.startswith(prefix)
    flags = _NOFOLLOW * nofollow | _EXTERNAL * external | _ON_ORIGIN * on_origin
    path = url[len(prefix) - 1 :] if prefix is not None and on_origin else url
    return [path, anchor[0], anchor[1].value, flags, status]


def encode_links(page_url: str, links: Sequence[PageLink]) -> list[JsonValue]:
    """A page's list in the compact form."""
    prefix = origin_prefix(page_url)
    return [
        encode_link(
            prefix,
            link.url,
            (link.anchor, link.anchor_kind),
            link.nofollow,
            link.external,
            link.status_code,
        )
        for link in links
    ]


def decode_links(page_url: str, encoded: object) -> tuple[PageLink, ...]:
    """`encode_links` read back."""
    origin = _origin(page_url) or ""
    links = []
    for item in as_list(encoded):
        url, anchor, kind, raw_flags, status = as_list(item)
        flags = as_int(raw_flags)
        links.append(
            PageLink(
                origin + as_str(url) if flags & _ON_ORIGIN else as_str(url),
                None if anchor is None else as_str(anchor),
                AnchorKind(as_str(kind)),
                nofollow=bool(flags & _NOFOLLOW),
                external=bool(flags & _EXTERNAL),
                status_code=None if status is None else as_int(status),
            )
        )
    return tuple(links)


def to_row(page: PageLinkLists) -> PageRow:
    return [
        page.url,
        page.inlinks_total,
        page.outlinks_total,
        int(page.complete),
        encode_links(page.url, page.inlinks),
        encode_links(page.url, page.outlinks),
    ]


def from_row(row: Sequence[object]) -> PageLinkLists:
    """`to_row` read back; the lists may come as their JSON text (a D1 column)."""
    url, inlinks_total, outlinks_total, complete, inlinks, outlinks = row
    page_url = as_str(url)
    return PageLinkLists(
        page_url,
        inlinks_total=as_int(inlinks_total),
        outlinks_total=as_int(outlinks_total),
        inlinks=decode_links(page_url, _loaded(inlinks)),
        outlinks=decode_links(page_url, _loaded(outlinks)),
        complete=as_bool(complete),
    )


def _loaded(value: object) -> object:
    return json.loads(value) if isinstance(value, str) else value
