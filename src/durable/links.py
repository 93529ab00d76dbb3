"""Internal link edges in the scratchpad, for finalize's cross-page checks.

One `links` row per (source page, target URL): whether the link is nofollow and its first
anchor. Edges are written until the audit's link budget trips (settings `CRAWL.link_budget_bytes`,
counted by `edge_bytes`); after that the graph is incomplete for good and finalize skips orphan
detection. `links_target_idx` serves finalize's joins from a target to its referring pages.
"""

from __future__ import annotations

from common.wire import JsonObject
from durable.json_batches import insert_json_rows, stored
from durable.records import LinkRow

__all__ = ["SCHEMA", "STORED", "TARGET_INDEX", "WRITE", "edge_bytes", "edge_param"]

TARGET_INDEX = "CREATE INDEX IF NOT EXISTS links_target_idx ON links (target_url)"
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS links (
        source_url TEXT NOT NULL,
        target_url TEXT NOT NULL,
        nofollow INTEGER NOT NULL DEFAULT 0,
        anchor TEXT,
        PRIMARY KEY (source_url, target_url)
    ) WITHOUT ROWID""",
    TARGET_INDEX,
)
WRITE = insert_json_rows(
    "INSERT OR IGNORE", "links", ("source_url", "target_url", "nofollow", "anchor"), ordered=False
)
STORED = stored("links", "target_url")


def edge_bytes(link: LinkRow) -> int:
    """What one stored edge costs, counted by us: the runtime's `databaseSize` cannot be used,
    because the SDK wrapper freezes it at its first read for the life of the object. Twice the
    text (row plus the target index) and a fixed overhead per row."""
    text = len(link.source_url) + len(link.target_url) + len(link.anchor or "")
    return 2 * text + 32


def edge_param(link: LinkRow) -> JsonObject:
    """One element of `WRITE`'s JSON array (its `json_extract` paths), `nofollow` as 0/1.
    Spelled out rather than `link.to_dict()`: this runs per edge, and the generic encoder costs
    a few microseconds more each."""
    return {
        "source_url": link.source_url,
        "target_url": link.target_url,
        "nofollow": int(link.nofollow),
        "anchor": link.anchor,
    }
