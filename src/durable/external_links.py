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

`external_hosts` keeps, per distinct host of a check's last hop, what the checks learnt of it
(audit.external_links.HostReach, OR-ed over its checks, so a replayed answer changes nothing):
whether its name resolved, did not resolve, and whether its server answered. Its tallies decide
whether a name that does not resolve is a broken link or DNS is unavailable where the audit
runs (audit.external_links.DnsTally), and give the progress feed its failing hosts. Two
`scratchpad_meta` keys hold the phase's clock and end: `external_started_ms` (set by the first
claim: the time budget counts from it) and `external_stop` (why the checks stopped early, when
a step stopped them: audit.external_links.ExternalStop).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from audit.external_links import ExternalOutcome, HostReach
from common.wire import JsonValue
from durable.json_batches import stored
from durable.records import ExternalCheck, ExternalRef
from urls.private_hosts import parse_ip

__all__ = ["SCHEMA", "STARTED_KEY", "STOP_KEY", "STORED", "ExternalState", "host_rows", "ref_bytes"]

STARTED_KEY = "external_started_ms"
STOP_KEY = "external_stop"


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
    """CREATE TABLE IF NOT EXISTS external_hosts (
        host TEXT PRIMARY KEY,
        named INTEGER NOT NULL,
        resolved INTEGER NOT NULL DEFAULT 0,
        unresolved INTEGER NOT NULL DEFAULT 0,
        answered INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID""",
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
STORED = stored("external_refs", "url")
# What each check learnt of its host, OR-ed into the host's row (`WHERE true`: SQLite's upsert
# after a SELECT needs it to parse).
NOTE_HOSTS = (
    "INSERT INTO external_hosts (host, named, resolved, unresolved, answered) "
    "SELECT json_extract(value, '$.host'), json_extract(value, '$.named'), "
    "json_extract(value, '$.resolved'), json_extract(value, '$.unresolved'), "
    "json_extract(value, '$.answered') FROM json_each(?) WHERE true "
    "ON CONFLICT(host) DO UPDATE SET resolved = max(resolved, excluded.resolved), "
    "unresolved = max(unresolved, excluded.unresolved), answered = max(answered, excluded.answered)"
)
RESOLVED_NAMES = "SELECT host FROM external_hosts WHERE named = 1 AND resolved = 1 ORDER BY host"
UNRESOLVED_NAMES = (
    "SELECT host FROM external_hosts WHERE named = 1 AND unresolved = 1 AND resolved = 0 "
    "ORDER BY host"
)
DNS_TALLY = (
    "SELECT COALESCE(SUM(named = 1 AND resolved = 1), 0) AS resolved, "
    "COALESCE(SUM(named = 1 AND unresolved = 1 AND resolved = 0), 0) AS unresolved "
    "FROM external_hosts"
)
# The progress feed: distinct URLs, those checked, and hosts no check got an answer from.
PROGRESS = (
    "SELECT (SELECT COUNT(*) FROM external_links) AS urls, "
    f"(SELECT COUNT(*) FROM external_links WHERE state = {_C}) AS checked, "
    "(SELECT COUNT(*) FROM external_hosts WHERE answered = 0) AS hosts_failing"
)
# Checked URLs whose name did not resolve: no verdict when DNS is unavailable.
CHECKED_UNRESOLVED = (
    f"SELECT COUNT(*) AS n FROM external_links WHERE state = {_C} "
    f"AND outcome = '{ExternalOutcome.UNRESOLVED.value}'"
)


def ref_bytes(ref: ExternalRef) -> int:
    """A reference row (twice: row and target index) and, at most, the URL's own row."""
    return 3 * (len(ref.source_url) + len(ref.url)) + 48


def host_rows(checks: Sequence[ExternalCheck]) -> list[JsonValue]:
    """`NOTE_HOSTS`'s JSON rows: what each check learnt of its last host (checks that requested
    nothing teach nothing). An IP literal is no name: it needs no DNS and says nothing of it."""
    rows: list[JsonValue] = []
    for check in checks:
        if not check.host or check.reach is None:
            continue
        reach = HostReach(check.reach)
        rows.append(
            {
                "host": check.host,
                "named": int(parse_ip(check.host) is None),
                "resolved": int(reach in (HostReach.ANSWERED, HostReach.CONNECTED)),
                "unresolved": int(reach is HostReach.UNRESOLVED),
                "answered": int(reach is HostReach.ANSWERED),
            }
        )
    return rows
