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
auditdb.page_links stores a page's two lists in one row, about 1.5 KB a page on the manual and
under 9 KB at the caps (docs/manual/reports.md, "Links").

A link's anchor, in the order a reader names a link: its text; else, for an image link, the
image's alt (HTML §4.8.4.4.2, "A link or button containing nothing but the image"); else none
("no text": an empty anchor, a decorative image, or a page link that has no text, such as an
iframe, an area or a refresh). Sans-IO.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from common.wire import JsonRecord

__all__ = [
    "INLINKS_KEPT",
    "OUTLINKS_KEPT",
    "AnchorKind",
    "LinkDirection",
    "PageLink",
    "PageLinkLists",
    "anchor_of",
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
