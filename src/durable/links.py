"""Link edges in the scratchpad: the internal ones for finalize's cross-page checks, and every one
for the link graph the report keeps (audit.link_graph, durable.link_graph).

One `links` row per (source page, internal target URL): whether the link is nofollow and its
first anchor text. `external_edges` holds the same for targets on other sites, which no
cross-page check reads. `link_alts` holds, for an edge of either table whose link has no text,
the alt of the image that names it (parse.facts.Link.image_alt); a table of its own rather than a
column of `links`, because a scratchpad created before it existed keeps its `links` table (the
schema is `CREATE ... IF NOT EXISTS`), and an audit crawling across a deploy must go on writing.

Edges are written until the audit's link budget trips (settings `CRAWL.link_budget_bytes`,
counted by `edge_bytes`); after that the graph is incomplete for good, finalize skips orphan
detection, and the kept graph says so. `links_target_idx` serves finalize's joins from a target to
its referring pages, and the inlinks of a page. It is built once, by the first reader after the
crawl (the keep-links steps, then finalize: `TARGET_INDEX` is idempotent), not kept up to date by
every edge the crawl inserts: on a link-heavy site each insert otherwise writes a second B-tree,
and one sort of the finished table costs less (issue 29, item 1; bench/README.md).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from durable.json_batches import any_source_stored, insert_json_rows, stored
from durable.records import LinkRow

__all__ = [
    "EXTERNAL_SOURCES_STORED",
    "SCHEMA",
    "SOURCES_STORED",
    "STORED",
    "STORED_EXTERNAL",
    "TARGET_INDEX",
    "WRITE",
    "WRITE_ALTS",
    "WRITE_EXTERNAL",
    "EdgeRow",
    "edge_bytes",
    "edge_row",
]

# One edge as the write statements read it, by position: source, target, nofollow (a JSON boolean,
# which `json_extract` reads as the integer 1 or 0: sqlite.org/json1.html, "json_extract"), anchor,
# image alt. The same arrays serve the lookup of stored edges (json_batches.stored) and the writes.
type EdgeRow = tuple[str, str, bool, str | None, str | None]

TARGET_INDEX = "CREATE INDEX IF NOT EXISTS links_target_idx ON links (target_url)"


def _edge_table(name: str) -> str:
    """`links` and `external_edges` have one shape."""
    return f"""CREATE TABLE IF NOT EXISTS {name} (
        source_url TEXT NOT NULL,
        target_url TEXT NOT NULL,
        nofollow INTEGER NOT NULL DEFAULT 0,
        anchor TEXT,
        PRIMARY KEY (source_url, target_url)
    ) WITHOUT ROWID"""


SCHEMA = (
    _edge_table("links"),
    _edge_table("external_edges"),
    """CREATE TABLE IF NOT EXISTS link_alts (
        source_url TEXT NOT NULL,
        target_url TEXT NOT NULL,
        alt TEXT NOT NULL,
        PRIMARY KEY (source_url, target_url)
    ) WITHOUT ROWID""",
)
_COLUMNS = ("source_url", "target_url", "nofollow", "anchor")
WRITE = insert_json_rows("INSERT OR IGNORE", "links", _COLUMNS, ordered=False, positional=True)
WRITE_EXTERNAL = insert_json_rows(
    "INSERT OR IGNORE", "external_edges", _COLUMNS, ordered=False, positional=True
)
# The same batch as WRITE or WRITE_EXTERNAL: only its rows with an image alt.
WRITE_ALTS = (
    "INSERT OR IGNORE INTO link_alts (source_url, target_url, alt) "
    "SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), "
    "json_extract(value, '$[4]') FROM json_each(?) "
    "WHERE json_extract(value, '$[4]') IS NOT NULL"
)
STORED = stored("links", "target_url")
STORED_EXTERNAL = stored("external_edges", "target_url")
SOURCES_STORED = any_source_stored("links")
EXTERNAL_SOURCES_STORED = any_source_stored("external_edges")


def edge_bytes(edge: EdgeRow) -> int:
    """What one stored edge costs, counted by us: the runtime's `databaseSize` cannot be used,
    because the SDK wrapper freezes it at its first read for the life of the object. Twice the
    text (row plus the target index) and a fixed overhead per row; an image alt once more, with
    the two URLs of its own row."""
    source, target, _, anchor, alt = edge
    text = len(source) + len(target) + len(anchor or "")
    return 2 * text + 32 + (0 if alt is None else len(source) + len(target) + len(alt))


# One element of the write statements' JSON array: the link's fields read in one C call (a batch
# holds thousands of edges; issue 29).
edge_row: Callable[[LinkRow], EdgeRow] = attrgetter(
    "source_url", "target_url", "nofollow", "anchor", "image_alt"
)
