"""External links in the scratchpad: each distinct URL checked once, with every referring page.

A link from a crawled page to another site (crawl.external_links) is never crawled: with the
`check_external` option it gets one check (crawl.external_check) in the `external-links-N` steps
that follow the crawl. An `external_links` row is born `pending` when a page first links the URL;
a step leases some under its lease number (`leased`; a retried step re-receives exactly its
unchecked ones) and records each answer (`checked`); what a step could not finish goes back to
`pending`. Leases stop at the audit's budget (settings.EXTERNAL.budget_urls): what stays pending
then is reported as unchecked. Finalize joins `external_refs` (every page that links a URL) to
the answers.

    pending --lease--> leased --check--> checked
       ^                  |
       +-----release------+
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["SCHEMA", "ExternalState"]


class ExternalState(StrEnum):
    PENDING = "pending"
    LEASED = "leased"
    CHECKED = "checked"


_STATES = ", ".join(f"'{state.value}'" for state in ExternalState)
SCHEMA = (
    f"""CREATE TABLE IF NOT EXISTS external_links (
        url TEXT PRIMARY KEY,
        state TEXT NOT NULL DEFAULT '{ExternalState.PENDING.value}' CHECK (state IN ({_STATES})),
        lease_no INTEGER,
        outcome TEXT,
        status_code INTEGER,
        final_url TEXT,
        reason TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS external_links_state_idx ON external_links (state, lease_no)",
    """CREATE TABLE IF NOT EXISTS external_refs (
        source_url TEXT NOT NULL,
        url TEXT NOT NULL,
        PRIMARY KEY (source_url, url)
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS external_refs_target_idx ON external_refs (url)",
)

_P, _L, _C = (f"'{s.value}'" for s in ExternalState)
LEASED_TO = f"SELECT url FROM external_links WHERE state = {_L} AND lease_no = ? ORDER BY url"
CHECKED_BY = f"SELECT 1 AS hit FROM external_links WHERE state = {_C} AND lease_no = ? LIMIT 1"
# Leased or checked: what counts against the budget.
SPENT = f"SELECT COUNT(*) AS n FROM external_links WHERE state <> {_P}"
PENDING = f"SELECT COUNT(*) AS n FROM external_links WHERE state = {_P}"
CHECKED = f"SELECT COUNT(*) AS n FROM external_links WHERE state = {_C}"
# Discovery order (rowid), so the budget goes to the links the crawl met first.
LEASE = (
    f"UPDATE external_links SET state = {_L}, lease_no = ? WHERE rowid IN "
    f"(SELECT rowid FROM external_links WHERE state = {_P} ORDER BY rowid LIMIT ?) RETURNING url"
)
RELEASE = (
    f"UPDATE external_links SET state = {_P}, lease_no = NULL WHERE state = {_L} "
    "AND url IN (SELECT value FROM json_each(?))"
)
RELEASE_ALL = f"UPDATE external_links SET state = {_P}, lease_no = NULL WHERE state = {_L}"
# A resumed audit's steps number their leases from 1 again: forget which lease checked what.
FORGET_LEASES = f"UPDATE external_links SET lease_no = NULL WHERE state = {_C}"
# A replayed answer rewrites the same row.
CHECK = (
    f"UPDATE external_links SET state = {_C}, outcome = json_extract(j.value, '$.outcome'), "
    "status_code = json_extract(j.value, '$.status_code'), "
    "final_url = json_extract(j.value, '$.final_url'), reason = json_extract(j.value, '$.reason') "
    "FROM json_each(?) AS j WHERE external_links.url = json_extract(j.value, '$.url')"
)
ADD = (
    "INSERT OR IGNORE INTO external_links (url) SELECT json_extract(value, '$.url') "
    "FROM json_each(?) ORDER BY key"
)
ADD_REFS = (
    "INSERT OR IGNORE INTO external_refs (source_url, url) "
    "SELECT json_extract(value, '$.source_url'), json_extract(value, '$.url') FROM json_each(?)"
)
