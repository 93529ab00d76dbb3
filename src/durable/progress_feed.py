"""The live progress feed in the scratchpad: the newest crawled URLs, newest first.

`recent_pages` keeps the newest `FEED_SIZE` crawled URLs (a `CrawledEntry` each). A re-recorded
URL (a retried chunk) replaces its row and so moves to the front instead of appearing twice;
each batch trims the table back to `FEED_SIZE` rows.
"""

from __future__ import annotations

from durable.json_batches import insert_json_rows

__all__ = ["FEED_SIZE", "NEWEST", "NOTE", "SCHEMA", "TRIM"]

# The original system's feed kept the newest 300 crawled URLs (docs/original-system.md).
FEED_SIZE = 300
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS recent_pages (
        url TEXT NOT NULL UNIQUE,
        status_code INTEGER NOT NULL,
        fetch_class TEXT NOT NULL,
        response_time_ms INTEGER,
        crawled_at TEXT NOT NULL
    )""",
)
NOTE = insert_json_rows(
    "INSERT OR REPLACE",
    "recent_pages",
    ("url", "status_code", "fetch_class", "response_time_ms", "crawled_at"),
)
TRIM = "DELETE FROM recent_pages WHERE rowid <= (SELECT MAX(rowid) FROM recent_pages) - ?"
NEWEST = (
    "SELECT url, status_code, fetch_class, response_time_ms, crawled_at "
    "FROM recent_pages ORDER BY rowid DESC LIMIT ?"
)
