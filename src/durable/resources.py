"""Resource checks in the scratchpad: which internal resources wait for their one request.

Images, scripts, stylesheets and media are checked, not crawled (crawl.references), so they are
kept apart from the frontier and its transition table. A `resources` row is born `pending` when
a page first references the URL; a chunk leases some (`leased`, under its chunk number, so a
retried step re-receives exactly its unchecked ones) and records each answer (`checked`); leases
a chunk could not finish go back to `pending`. A URL the frontier also holds is fetched as a page
anyway, so it moves to `page` without a request, and its page row answers for it. Finalize joins
`resource_refs` (every page that references a resource) to these answers.

    pending --lease--> leased --check--> checked
       ^                  |
       +-----release------+          pending/leased --(in the frontier)--> page
"""

from __future__ import annotations

from enum import StrEnum

from durable.json_batches import stored
from durable.records import ResourceRef

__all__ = ["ADD_CONTENT_TYPE", "COLUMNS", "SCHEMA", "STORED", "ResourceState", "ref_bytes"]


class ResourceState(StrEnum):
    PENDING = "pending"
    LEASED = "leased"
    CHECKED = "checked"
    PAGE = "page"  # the frontier holds the URL: its page row answers for it


_STATES = ", ".join(f"'{state.value}'" for state in ResourceState)
SCHEMA = (
    f"""CREATE TABLE IF NOT EXISTS resources (
        url TEXT PRIMARY KEY,
        state TEXT NOT NULL DEFAULT '{ResourceState.PENDING.value}' CHECK (state IN ({_STATES})),
        chunk_no INTEGER,
        status_code INTEGER,
        fetch_class TEXT,
        content_type TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS resources_state_idx ON resources (state, chunk_no)",
    """CREATE TABLE IF NOT EXISTS resource_refs (
        source_url TEXT NOT NULL,
        resource_url TEXT NOT NULL,
        kind TEXT NOT NULL,
        rel TEXT,
        PRIMARY KEY (source_url, resource_url)
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS resource_refs_target_idx ON resource_refs (resource_url)",
)

# A table created before `content_type` existed gains it (scratchpad._ensure_resource_columns).
COLUMNS = "PRAGMA table_info(resources)"
ADD_CONTENT_TYPE = "ALTER TABLE resources ADD COLUMN content_type TEXT"
_P, _L, _C, _G = (f"'{s.value}'" for s in ResourceState)
TO_PAGE = (
    f"UPDATE resources SET state = {_G}, chunk_no = NULL WHERE state IN ({_P}, {_L}) "
    "AND url IN (SELECT url FROM frontier)"
)
LEASED_TO = f"SELECT url FROM resources WHERE state = {_L} AND chunk_no = ? ORDER BY url"
CHECKED_BY = f"SELECT 1 AS hit FROM resources WHERE state = {_C} AND chunk_no = ? LIMIT 1"
LEASE = (
    f"UPDATE resources SET state = {_L}, chunk_no = ? WHERE rowid IN "
    f"(SELECT rowid FROM resources WHERE state = {_P} ORDER BY rowid LIMIT ?) RETURNING url"
)
PENDING = f"SELECT COUNT(*) AS n FROM resources WHERE state = {_P}"
RELEASE = (
    f"UPDATE resources SET state = {_P}, chunk_no = NULL WHERE state = {_L} "
    "AND url IN (SELECT value FROM json_each(?))"
)
RELEASE_ALL = f"UPDATE resources SET state = {_P}, chunk_no = NULL WHERE state = {_L}"
# A replayed answer rewrites the same row; a URL moved to `page` keeps its page answer.
CHECK = (
    f"UPDATE resources SET state = {_C}, status_code = json_extract(j.value, '$.status_code'), "
    "fetch_class = json_extract(j.value, '$.fetch_class'), "
    "content_type = json_extract(j.value, '$.content_type') FROM json_each(?) AS j "
    f"WHERE resources.url = json_extract(j.value, '$.url') AND resources.state <> {_G}"
)
ADD = "INSERT OR IGNORE INTO resources (url) SELECT json_extract(value, '$.url') FROM json_each(?)"
ADD_REFS = (
    "INSERT OR IGNORE INTO resource_refs (source_url, resource_url, kind, rel) "
    "SELECT json_extract(value, '$.source_url'), json_extract(value, '$.url'), "
    "json_extract(value, '$.kind'), json_extract(value, '$.rel') FROM json_each(?)"
)
STORED = stored("resource_refs", "resource_url")


def ref_bytes(ref: ResourceRef) -> int:
    """A reference row (twice: row and target index) and, at most, the resource's own row."""
    return 3 * (len(ref.source_url) + len(ref.url)) + len(ref.kind) + len(ref.rel or "") + 48
