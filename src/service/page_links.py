"""An audit's kept link graph as the API, the report document and the HTML report read it
(audit.link_graph; the rows: auditdb.page_links).

* `page_links`: one page's kept lists, the owner checked first; None when the audit kept no
  links for it (an audit that did not complete, or finished before siteaudit kept them),
  `PageNotFound` when the URL is no crawled page of the audit. `list_page_links` pages through
  one direction of them for `GET /api/audits/{id}/pages/links`, by position, as the other lists
  page (service.lists).
* `view_links`: the lists of the report's pages in view, cut to `view_limit` links a direction
  (their totals whole), read `VIEW_BATCH` pages a query, so the renderer holds a few dozen pages'
  lists at a time whatever the audit's size. The HTML report's per-URL view and the report
  document's `links` section both come from it, so the two show the same links.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from audit.link_graph import LinkDirection, PageLink, PageLinkLists
from auditdb import page_links as rows
from auditdb import repository
from auditdb.listing import SortKey
from common.bindings import Env
from service.audits import owned_audit
from service.errors import PageNotFound
from service.lists import Paging, page_of

__all__ = [
    "MIN_VIEW_LINKS",
    "VIEW_BATCH",
    "VIEW_LINKS",
    "VIEW_LINK_BUDGET",
    "PageLinkListing",
    "cut",
    "links_kept",
    "list_page_links",
    "page_links",
    "view_limit",
    "view_links",
]

# Links a direction in the report's per-URL view (and its document). Ten list whole the inlinks of
# 81% and the outlinks of 82% of the PostgreSQL manual's pages (audit.link_graph has the measure).
# A listed link adds about 130 bytes to the file, so past 5,000 pages in view the lists shorten
# to keep the file's links within VIEW_LINK_BUDGET (about 13 MB), never under MIN_VIEW_LINKS:
# 10,000 pages in view list 5 a direction (bench/html_report_memory.py). The API lists every
# kept link.
VIEW_LINKS = 10
MIN_VIEW_LINKS = 5
VIEW_LINK_BUDGET = 100_000
# Pages whose rows one query reads for the view: a row holds at most 100 links (~9 KB).
VIEW_BATCH = 50


async def page_links(env: Env, owner: str, audit_id: str, url: str) -> PageLinkLists | None:
    audit = await owned_audit(env, owner, audit_id)
    found = await rows.read_page_links(env.DB, audit.id, url)
    if found is None and not await repository.crawled_among(env.DB, audit.id, [url]):
        raise PageNotFound(audit.id, url)
    return found


@dataclass(frozen=True, slots=True)
class PageLinkListing:
    """A page of one direction of a page's kept links. `kept` False: the audit kept none for the
    page (`total` is then None and `links` empty); `total` counts every link of that direction
    the crawl found, of which the first `direction.kept` are kept; `complete` False: the crawl
    stopped storing links at its budget, and `total` counts those it stored."""

    page_url: str
    direction: LinkDirection
    kept: bool
    total: int | None
    complete: bool
    links: list[PageLink]
    next_after: SortKey | None  # the position to continue after; None on the last page


async def list_page_links(
    env: Env, owner: str, audit_id: str, url: str, direction: LinkDirection, paging: Paging
) -> PageLinkListing:
    found = await page_links(env, owner, audit_id, url)
    if found is None:
        return PageLinkListing(url, direction, False, None, True, [], None)
    start = 0 if paging.after is None else int(paging.after[0]) + 1
    listed = found.listed(direction)
    keyed: list[tuple[SortKey, PageLink]] = [
        ((position,), link)
        for position, link in enumerate(listed[start : start + paging.limit + 1], start)
    ]
    page = page_of(keyed, paging.limit)
    total = found.total(direction)
    return PageLinkListing(url, direction, True, total, found.complete, page.items, page.next_after)


async def links_kept(env: Env, audit_id: str) -> bool:
    return await rows.links_kept(env.DB, audit_id)


def view_limit(pages_in_view: int) -> int:
    """Links a direction each section lists when `pages_in_view` pages have one."""
    fair_share = VIEW_LINK_BUDGET // (2 * max(pages_in_view, 1))
    return max(MIN_VIEW_LINKS, min(VIEW_LINKS, fair_share))


def cut(lists: PageLinkLists, limit: int = VIEW_LINKS) -> PageLinkLists:
    """`lists` with at most `limit` links a direction; the totals say how many there are."""
    return dataclasses.replace(
        lists, inlinks=lists.inlinks[:limit], outlinks=lists.outlinks[:limit]
    )


async def view_links(
    env: Env, audit_id: str, urls: Iterable[str], limit: int = VIEW_LINKS
) -> dict[str, PageLinkLists]:
    """The kept lists of the pages `urls` (those the audit kept), cut to `limit` a direction."""
    wanted = sorted(set(urls))
    found: dict[str, PageLinkLists] = {}
    for start in range(0, len(wanted), VIEW_BATCH):
        for lists in await rows.read_many(env.DB, audit_id, wanted[start : start + VIEW_BATCH]):
            found[lists.url] = cut(lists, limit)
    return found
