"""The HTML report's per-URL view and site structure (issue 27 item 1).

* Per-URL view: a `<details>` section per page (`page_section`) with its status, crawl depth,
  inlinks and outlinks, the issues found on it (each linked to its issue group) and the link to
  open it. Its id is `page_anchor(url)`, a hash of the URL, so every place the report shows a URL
  (the fix-first list, the issue groups, the page table and its script-built rows, the Lighthouse
  rows, the link lists) links to it with `page_ref` without knowing the page's row. The first
  `PAGE_VIEWS` pages by URL get a section, the same pages the table's data island holds
  (page_table.DATA_ROWS), so the file stays bounded for any audit size; a URL beyond them is
  shown without the link.
* Inlinks and outlinks: the link graph a completed audit keeps (audit.link_graph, read through
  service.page_links): each list's first `view_limit` links by URL (10, fewer when more than
  5,000 pages have a section) with its anchor (the text, an image link's alt, or "no text"), an
  outlink's target status and its other-site and nofollow marks, under the list's true total; a
  list cut short says so, and the section's intro names the API route that lists the first 50.
  A linking page or a target in view links to its section. An audit that
  kept no links (one that did not complete, or finished before siteaudit kept them) says so, and
  shows the outlink counts of its page rows instead.
* Site structure: pages and issues counted by directory (the path's first `TREE_LEVELS`
  segments), as a collapsible tree. At most `DIRECTORIES` directories are counted; past that, a
  new second-level directory folds into its parent and a new top-level one into "other", so the
  counts stay bounded whatever the site's shape.

The issue types of the pages in view come from one walk of the issues (`PageIssues.add`), each
type kept once per page (a page has a few dozen types at most).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, field
from html import escape
from types import MappingProxyType
from urllib.parse import urlsplit

from audit.catalogue import Severity, maybe_descriptor
from audit.link_graph import AnchorKind, LinkDirection, PageLink, PageLinkLists
from auditdb.records import IssueRecord, PageRecord
from service.issue_locating import type_title
from service.page_links import view_limit
from service.page_table import DATA_ROWS, LINK_ATTRS, is_web_url, link, page_anchor, view_link

PAGE_VIEWS = DATA_ROWS  # pages with a per-URL section: those the data island holds
DIRECTORIES = 500  # directories counted in the site structure
TREE_LEVELS = 2  # path segments a directory is named by
OTHER = "other directories"
SEVERITY_ORDER = {str(s): s.order for s in Severity}


@dataclass(slots=True)
class PageIssues:
    """The issue types found on each page in view (URL -> types, each once, in walk order)."""

    in_view: set[str] = field(default_factory=set)
    types: dict[str, list[str]] = field(default_factory=dict)

    def add(self, rows: Iterable[IssueRecord]) -> None:
        for row in rows:
            if row.page_url in self.in_view:
                found = self.types.setdefault(row.page_url, [])
                kind = sys.intern(row.issue_type)
                if kind not in found:
                    found.append(kind)

    def ref(self, url: str) -> str:
        """`url` as the page table links it, then a link to its section when it has one."""
        if url not in self.in_view:
            return link(url)
        return f"{link(url)} {view_link(url)}"


def breakable(url: str) -> str:
    """The URL as escaped text a narrow screen wraps after a path's slashes, never inside the
    host while a slash is left to break at (`<wbr>`, WHATWG HTML §4.5.29; the CSS's
    `overflow-wrap:anywhere` stays the last resort for one overlong segment)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return escape(url)
    return escape(scheme + sep) + escape(rest).replace("/", "/<wbr>")


def depth_text(page: PageRecord) -> str:
    """The crawl depth, or why there is none: a page the sitemap alone led to is not linked."""
    if page.crawl_depth is not None:
        return str(page.crawl_depth)
    if page.in_sitemap:
        return "not linked (found in the sitemap only)"
    return "unknown"


def page_section(
    page: PageRecord,
    types: Iterable[str],
    links: LinkView | None = None,
    anchors: Mapping[str, str] = MappingProxyType({}),
) -> str:
    """One page's section: what it answered, where it sits, what links in and out, what is
    wrong. `links` None: the audit kept no links. `anchors`: the section that shows a type the
    verdict merged into another finding (service.html_report.finding_anchors)."""
    found = sorted(types, key=lambda t: (SEVERITY_ORDER.get(_severity(t), 9), t))
    issues = (
        "<ul>"
        + "".join(
            f'<li><a href="#type-{escape(anchors.get(t, t))}">{escape(type_title(t))}</a></li>'
            for t in found
        )
        + "</ul>"
        if found
        else "none"
    )
    facts = [
        ("Status", escape(str(page.status_code or "no response"))),
        ("Depth", escape(depth_text(page))),
        ("Title", escape(page.title or "none")),
        *(_link_facts(page, links)),
        *([("Redirects to", link(page.redirect_url))] if page.redirect_url else []),
        (f"Issues ({len(found)})", issues),
        ("Open", _open(page.url)),
    ]
    rows = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)
    return (
        f'<details class="page" id="{page_anchor(page.url)}"><summary>{breakable(page.url)}</summary>'
        f'<dl class="facts">{rows}</dl></details>'
    )


NOT_KEPT = (
    "the links themselves were not kept for this audit: an audit keeps them when it completes"
)


@dataclass(frozen=True, slots=True)
class LinkView:
    """What a page's link lists need beyond its lists: the pages with a section (a link to one
    of them goes to its section)."""

    in_view: Container[str]
    lists: PageLinkLists | None = None  # None: this page has none (its audit kept links)


def _link_facts(page: PageRecord, view: LinkView | None) -> list[tuple[str, str]]:
    if view is None or view.lists is None:
        counts = f"{page.internal_link_count:,} internal, {page.external_link_count:,} other sites"
        return [("Outlinks", f"{counts} ({NOT_KEPT})")]
    lists = view.lists
    facts = [
        (
            f"{name} ({lists.total(direction):,})",
            _link_list(view, direction),
        )
        for name, direction in (("Inlinks", LinkDirection.IN), ("Outlinks", LinkDirection.OUT))
    ]
    if not lists.complete:
        facts.append(
            (
                "Links",
                "the crawl stopped keeping links at its storage budget: the "
                "counts are of the links it kept",
            )
        )
    return facts


def _link_list(view: LinkView, direction: LinkDirection) -> str:
    lists = view.lists
    assert lists is not None
    listed, total = lists.listed(direction), lists.total(direction)
    if not total:
        return "none"
    items = "".join(f"<li>{_link_item(view, link)}</li>" for link in listed)
    more = (
        f'<p class="note">Showing {len(listed):,} of {total:,}.</p>' if total > len(listed) else ""
    )
    return f'<ul class="links">{items}</ul>{more}'


def _link_item(view: LinkView, item: PageLink) -> str:
    if item.url in view.in_view:
        where = f'<a href="#{page_anchor(item.url)}">{escape(item.url)}</a>'
    else:
        where = link(item.url)
    marks = [_anchor_text(item)]
    if item.status_code is not None:
        marks.append(f"status {item.status_code}")
    if item.external:
        marks.append("other site")
    if item.nofollow:
        marks.append("nofollow")
    return f"{where} {escape(', '.join(marks))}"


def _anchor_text(item: PageLink) -> str:
    if item.anchor_kind is AnchorKind.TEXT:
        return f"“{item.anchor}”"
    if item.anchor_kind is AnchorKind.IMAGE:
        return f"image alt “{item.anchor}”"
    return "no text"


def _open(url: str) -> str:
    """The page's own link, short: its URL is the section's summary already."""
    if not is_web_url(url):
        return "not a web address"
    return f'<a href="{escape(url)}" {LINK_ATTRS}>the page on the site</a>'


def _severity(issue_type: str) -> str:
    d = maybe_descriptor(issue_type)
    return "" if d is None else str(d.severity)


def pages_intro(total: int, audit_id: str | None = None) -> str:
    """The per-URL view's heading and note; `audit_id` None: the audit kept no links."""
    shown = min(total, PAGE_VIEWS)
    beyond = f" (the first {shown:,} of {total:,} by URL)" if total > shown else ""
    if audit_id is None:
        links = f"its outlink counts ({NOT_KEPT})"
        route = ""
    else:
        links = (
            f"its inlinks (the pages linking to it) and outlinks (what it links to), the first "
            f"{view_limit(shown)} of each by URL with their anchor texts, under their totals"
        )
        path = f"GET /api/audits/{audit_id}/pages/links?url=<the page's URL>&direction=in|out"
        route = f" <code>{escape(path)}</code> lists the first 50 of each."
    return (
        '<section aria-labelledby="views-h"><h2 id="views-h">Page by page</h2>'
        f'<p class="note">Each page{beyond}: its status, crawl depth (clicks from the start page; '
        f'"not linked" for a page only the sitemap led to), {links}, and its issues.{route}</p>'
    )


# -- site structure -----------------------------------------------------------------------------


def directory_of(url: str, levels: int = TREE_LEVELS) -> tuple[str, ...]:
    """A page's directory as its first `levels` path segments (a file name is no directory)."""
    try:
        path = urlsplit(url).path
    except ValueError:
        return ()
    segments = [s for s in path.split("/")[1:-1] if s]
    return tuple(segments[:levels])


@dataclass(slots=True)
class Structure:
    """Pages and issues by directory, at most `limit` directories (see the module docstring)."""

    limit: int = DIRECTORIES
    pages: Counter[tuple[str, ...]] = field(default_factory=Counter)
    issues: Counter[tuple[str, ...]] = field(default_factory=Counter)

    def key(self, url: str) -> tuple[str, ...]:
        """Where a page counts: its directory, or once `limit` are counted, the nearest counted
        parent, else "other"."""
        key = directory_of(url)
        while key not in self.pages and len(self.pages) >= self.limit:
            if not key:
                return (OTHER,)
            key = key[:-1]
        return key

    def add_pages(self, rows: Iterable[PageRecord]) -> None:
        for page in rows:
            self.pages[self.key(page.url)] += 1

    def add_issues(self, rows: Iterable[IssueRecord]) -> None:
        for row in rows:
            key = directory_of(row.page_url)
            while key and key not in self.pages:
                key = key[:-1]
            self.issues[key if key in self.pages else (OTHER,)] += 1


def structure_section(structure: Structure) -> str:
    """The directories as a tree: each top level with its totals, opening to its subdirectories."""
    tops: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for key in structure.pages:
        tops.setdefault(key[:1], []).append(key)
    items = "".join(
        _top(top, sorted(keys), structure.pages, structure.issues)
        for top, keys in sorted(tops.items())
    )
    return (
        '<section aria-labelledby="structure-h"><h2 id="structure-h">Site structure</h2>'
        '<p class="note">Pages and issues by directory (the first two path segments).</p>'
        f'<ul class="tree">{items}</ul></section>'
    )


def _label(key: tuple[str, ...]) -> str:
    if key == (OTHER,):
        return OTHER
    return "/" + "".join(f"{s}/" for s in key)


def _counts(pages: int, issues: int) -> str:
    return (
        f'<span class="count">{pages:,} {"page" if pages == 1 else "pages"}, '
        f"{issues:,} {'issue' if issues == 1 else 'issues'}</span>"
    )


def _top(
    top: tuple[str, ...],
    keys: list[tuple[str, ...]],
    pages: Mapping[tuple[str, ...], int],
    issues: Mapping[tuple[str, ...], int],
) -> str:
    total = sum(pages[k] for k in keys), sum(issues.get(k, 0) for k in keys)
    head = f"{escape(_label(top))} {_counts(*total)}"
    subs = [k for k in keys if k != top]
    if not subs:
        return f"<li>{head}</li>"
    own = (
        f"<li>{escape(_label(top))} itself {_counts(pages[top], issues.get(top, 0))}</li>"
        if top in pages
        else ""
    )
    rows = "".join(
        f"<li>{escape(_label(k))} {_counts(pages[k], issues.get(k, 0))}</li>" for k in subs
    )
    return f"<li><details><summary>{head}</summary><ul>{own}{rows}</ul></details></li>"
