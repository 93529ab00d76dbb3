"""The link graph a completed audit keeps, in D1: `audit_page_links` (migrations/d1/0025).

One row per crawled page (audit.link_graph.PageLinkLists): its totals, whether the crawl's graph
was complete, and its two lists as JSON arrays of links, in the compact form of
audit.link_graph (`to_row`: `[url, anchor, kind, flags, status]` a link, paths for the page's
own origin), which is also how the keep-links steps receive them from the scratchpad.

Writes are one `db.batch` per call (the keep-links-N steps, workflow.links_step), each statement
binding one JSON array of page rows that `json_each` spreads (as `repository.crawled_among` binds
its URLs): a few statements per few hundred pages, under D1's 2 MB a value, rather than a
statement per page. INSERT OR REPLACE on (audit_id, page_url): a retried step rewrites the same
rows. Reads take one row, or the rows of a few dozen pages the report shows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from audit.link_graph import PageLinkLists, PageRow, from_row
from common.bindings import D1Database, D1PreparedStatement

__all__ = [
    "MAX_PARAM_BYTES",
    "links_kept",
    "read_many",
    "read_page_links",
    "write_page_links",
]

# One statement's bound JSON array, in UTF-8 bytes: half of what D1 takes in one value
# (docs/platform.md §3.2, 2,000,000 bytes), so a page of rows is never refused for its size.
MAX_PARAM_BYTES = 1_000_000
_COLUMN_NAMES = ("page_url", "inlinks_total", "outlinks_total", "complete", "inlinks", "outlinks")
_COLUMNS = f"audit_id, {', '.join(_COLUMN_NAMES)}"
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


def _arrays(rows: Sequence[PageRow]) -> list[str]:
    """The rows as JSON arrays of at most about `MAX_PARAM_BYTES` each (a row alone may pass it:
    at the caps a row stays far under D1's limit)."""
    arrays: list[str] = []
    texts: list[str] = []
    size = 0
    for row in rows:
        text = json.dumps(row, ensure_ascii=False, separators=(",", ":"))
        length = len(text.encode("utf-8", "surrogatepass")) + 1
        if texts and size + length > MAX_PARAM_BYTES:
            arrays.append(f"[{','.join(texts)}]")
            texts, size = [], 0
        texts.append(text)
        size += length
    if texts:
        arrays.append(f"[{','.join(texts)}]")
    return arrays


async def write_page_links(db: D1Database, audit_id: str, rows: Sequence[PageRow]) -> int:
    """Write (or rewrite) the pages' rows (`to_row`'s) in one atomic batch; returns how many."""
    statements: list[D1PreparedStatement] = [
        db.prepare(_WRITE).bind(audit_id, array) for array in _arrays(rows)
    ]
    if statements:
        await db.batch(statements)
    return len(rows)


def _lists(row: Mapping[str, object]) -> PageLinkLists:
    return from_row([row[column] for column in _COLUMN_NAMES])


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
