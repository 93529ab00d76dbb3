"""The page mirror in the scratchpad: the slim per-page facts finalize joins against.

One `page_mirror` row per crawled URL (crawl.page_pipeline.mirror_row: the table's columns,
booleans as 0/1, `hreflang_json` a JSON list of {"lang", "url"}). A URL written again (a retried
chunk, or twice in one batch) keeps its last row. `page_mirror_redirect_idx` serves finalize's
walk from a redirect's target back to the pages that redirect to it.
"""

from __future__ import annotations

from durable.json_batches import insert_json_rows

__all__ = ["COLUMNS", "REDIRECT_INDEX", "SCHEMA", "UPSERT"]

REDIRECT_INDEX = "CREATE INDEX IF NOT EXISTS page_mirror_redirect_idx ON page_mirror (redirect_url)"
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS page_mirror (
        url TEXT PRIMARY KEY,
        page_id TEXT NOT NULL,
        status_code INTEGER NOT NULL,
        fetch_class TEXT NOT NULL,
        final_url TEXT,
        redirect_url TEXT,
        is_html INTEGER NOT NULL DEFAULT 0,
        is_indexable INTEGER NOT NULL DEFAULT 1,
        canonical_url TEXT,
        title TEXT,
        meta_description TEXT,
        content_hash TEXT,
        word_count INTEGER NOT NULL DEFAULT 0,
        javascript_shell INTEGER NOT NULL DEFAULT 0,
        depth INTEGER,
        in_sitemap INTEGER NOT NULL DEFAULT 0,
        hreflang_json TEXT NOT NULL DEFAULT '[]'
    )""",
    REDIRECT_INDEX,
)
COLUMNS = (
    "url",
    "page_id",
    "status_code",
    "fetch_class",
    "final_url",
    "redirect_url",
    "is_html",
    "is_indexable",
    "canonical_url",
    "title",
    "meta_description",
    "content_hash",
    "word_count",
    "javascript_shell",
    "depth",
    "in_sitemap",
    "hreflang_json",
)
# Rows of a sub-batch in one statement each (a URL given twice keeps its last row).
UPSERT = insert_json_rows("INSERT OR REPLACE", "page_mirror", COLUMNS)
