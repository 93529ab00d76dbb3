"""The crawl's security and exposure facts in the scratchpad (durable.records.SiteFact).

One `site_facts` row per distinct (kind, value): a cookie every page sets, or a script every
template loads, costs one row whatever the number of pages. Each fact is kept with the first page
in URL order it was seen on, whatever order the pages finished in, so identical crawls report it
on the same page (issue 24). The grade and the exposure checks read them a page at a time, in
value order.
"""

from __future__ import annotations

__all__ = ["PAGE", "SCHEMA", "WRITE"]

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS site_facts (
        kind TEXT NOT NULL,
        value TEXT NOT NULL,
        page_url TEXT NOT NULL,
        detail TEXT,
        PRIMARY KEY (kind, value)
    ) WITHOUT ROWID""",
)
WRITE = (
    "INSERT INTO site_facts (kind, value, page_url, detail) "
    "SELECT json_extract(value, '$.kind'), json_extract(value, '$.value'), "
    "json_extract(value, '$.page_url'), json_extract(value, '$.detail') "
    "FROM json_each(?) WHERE true ORDER BY key "
    "ON CONFLICT(kind, value) DO UPDATE SET page_url = excluded.page_url, detail = excluded.detail "
    "WHERE excluded.page_url < site_facts.page_url"
)
PAGE = (
    "SELECT kind, value, page_url, detail FROM site_facts WHERE kind = ? AND value > ? "
    "ORDER BY value LIMIT ?"
)
