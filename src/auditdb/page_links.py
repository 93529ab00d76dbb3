"""The link graph a completed audit keeps, in D1: `audit_page_links` (migrations/d1/0022).

One row per crawled page (audit.link_graph.PageLinkLists): its totals, whether the crawl's graph
was complete, and its two lists as JSON arrays of links, each an array

    [url, anchor, kind, flags, status]
     url     the other end (the linking page, or the target); on the page's own origin, its path
             (flag 4), which saves the origin's 20 to 40 bytes on most links of most sites
     anchor  the text or the image alt, or null (audit.link_graph.anchor_of)
     kind    the anchor's kind, an `AnchorKind` value
     flags   1: nofollow; 2: external (an outlink to another site); 4: `url` is a path on the
             page's origin
     status  an outlink's target status, or null

Writes are one `db.batch` per call (the keep-links-N steps, workflow.links_step), each statement
binding one JSON array of page rows that `json_each` spreads (as `repository.crawled_among` binds
its URLs): a few statements per few hundred pages, under D1's 2 MB a value, rather than a
statement per page. INSERT OR REPLACE on (audit_id, page_url): a retried step rewrites the same
rows. Reads take one row, or the rows of a few dozen pages the report shows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from urllib.parse import urlsplit

from audit.link_graph import AnchorKind, PageLink, PageLinkLists
from common.bindings import D1Database, D1PreparedStatement
from common.wire import JsonValue, as_bool, as_int, as_list, as_str

__all__ = [
    "MAX_PARAM_BYTES",
    "decode_links",
    "encode_links",
    "links_kept",
    "read_many",
    "read_page_links",
    "write_page_links",
]

# One statement's bound JSON array, in UTF-8 bytes: half of what D1 takes in one value
# (docs/platform.md §3.2, 2,000,000 bytes), so a page of rows is never refused for its size.
MAX_PARAM_BYTES = 1_000_000
_NOFOLLOW, _EXTERNAL, _ON_ORIGIN = 1, 2, 4
_COLUMNS = "audit_id, page_url, inlinks_total, outlinks_total, complete, inlinks, outlinks"
_WRITE = (
    f"INSERT OR REPLACE INTO audit_page_links ({_COLUMNS}) "
    "SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), "
    "json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]'), "
    "json_extract(value, '$[5]') FROM json_each(?2)"
)
ONE_SQL = f"SELECT {_COLUMNS} FROM audit_page_links WHERE audit_id = ? AND page_url = ?"
MANY_SQL = (
    f"SELECT {_COLUMNS} FROM audit_page_links WHERE audit_id = ? "
    "AND page_url IN (SELECT value FROM json_each(?)) ORDER BY page_url"
)
KEPT_SQL = "SELECT 1 AS kept FROM audit_page_links WHERE audit_id = ? LIMIT 1"


def _origin(url: str) -> str | None:
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else None


def encode_links(page_url: str, links: Sequence[PageLink]) -> list[JsonValue]:
    """A page's list as its row holds it (the module docstring)."""
    origin = _origin(page_url)
    prefix = None if origin is None else f"{origin}/"
    encoded: list[JsonValue] = []
    for link in links:
        on_origin = prefix is not None and link.url.startswith(prefix)
        flags = _NOFOLLOW * link.nofollow | _EXTERNAL * link.external | _ON_ORIGIN * on_origin
        url = link.url[len(prefix) - 1 :] if prefix is not None and on_origin else link.url
        encoded.append([url, link.anchor, link.anchor_kind.value, flags, link.status_code])
    return encoded


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


def _row(page: PageLinkLists) -> list[JsonValue]:
    return [
        page.url,
        page.inlinks_total,
        page.outlinks_total,
        int(page.complete),
        encode_links(page.url, page.inlinks),
        encode_links(page.url, page.outlinks),
    ]


def _arrays(pages: Sequence[PageLinkLists]) -> list[str]:
    """The rows as JSON arrays of at most about `MAX_PARAM_BYTES` each (a row alone may pass it:
    at the caps a row stays far under D1's limit)."""
    arrays: list[str] = []
    texts: list[str] = []
    size = 0
    for page in pages:
        text = json.dumps(_row(page), ensure_ascii=False, separators=(",", ":"))
        length = len(text.encode("utf-8", "surrogatepass")) + 1
        if texts and size + length > MAX_PARAM_BYTES:
            arrays.append(f"[{','.join(texts)}]")
            texts, size = [], 0
        texts.append(text)
        size += length
    if texts:
        arrays.append(f"[{','.join(texts)}]")
    return arrays


async def write_page_links(db: D1Database, audit_id: str, pages: Sequence[PageLinkLists]) -> int:
    """Write (or rewrite) the pages' rows in one atomic batch; returns how many."""
    statements: list[D1PreparedStatement] = [
        db.prepare(_WRITE).bind(audit_id, array) for array in _arrays(pages)
    ]
    if statements:
        await db.batch(statements)
    return len(pages)


def _lists(row: Mapping[str, object]) -> PageLinkLists:
    url = as_str(row["page_url"])
    return PageLinkLists(
        url,
        inlinks_total=as_int(row["inlinks_total"]),
        outlinks_total=as_int(row["outlinks_total"]),
        inlinks=decode_links(url, json.loads(as_str(row["inlinks"]))),
        outlinks=decode_links(url, json.loads(as_str(row["outlinks"]))),
        complete=as_bool(row["complete"]),
    )


async def read_page_links(db: D1Database, audit_id: str, url: str) -> PageLinkLists | None:
    """One page's kept links; None when the audit kept none for it."""
    row = await db.prepare(ONE_SQL).bind(audit_id, url).first()
    return None if row is None else _lists(row)


async def read_many(db: D1Database, audit_id: str, urls: Sequence[str]) -> list[PageLinkLists]:
    """The kept links of those of `urls` that have them, in URL order: one seek per URL, the
    URLs bound as one JSON array (the caller keeps them a few dozen)."""
    result = await db.prepare(MANY_SQL).bind(audit_id, json.dumps(list(urls))).all()
    return [_lists(row) for row in result["results"]]


async def links_kept(db: D1Database, audit_id: str) -> bool:
    """Whether the audit kept its link graph: every audit that completed since the table exists
    has a row per crawled page; older ones, and those that did not complete, have none."""
    return await db.prepare(KEPT_SQL).bind(audit_id).first() is not None
