"""The frontier: every URL an audit has seen, and the one table of moves between its states.

Theory of operation. A frontier row is created `pending` (seeded from the start URL or a sitemap,
or discovered as a link) and never deleted until the whole scratchpad is destroyed: the frontier
is also the audit's dedup set. From there the only moves are those in `TRANSITIONS`:

    pending --LEASE--> leased --CRAWL--> crawled
       ^                 |
       +----RELEASE------+          (soft-deadline leftovers; every lease of a dead run on resume)

plus two that keep retried writes idempotent: CRAWL from `pending` (a page's D1 rows are written
before the scratchpad hears of it, so a crawl reported after its lease was reopened by a resume is
still a fact to keep) and CRAWL from `crawled` (a replayed batch). `next_state` answers a move
or raises `IllegalFrontierMove`; the Durable Object applies moves set-wise in SQL, and
`move_sql` builds that SQL from the table, so a statement can only ever perform a listed move.

WARNING: the diagram above is drawn by hand; keep it in step with `TRANSITIONS` (the tests walk
the table, not the picture).

The schema's `CHECK` constraints are generated from `FrontierState` and `FrontierSource`, and
`frontier_counts` keeps one row per state so the stats every batch returns cost three row reads,
not a scan of the frontier.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

__all__ = [
    "INITIAL_STATE",
    "SCHEMA",
    "TRANSITIONS",
    "FrontierEvent",
    "FrontierSource",
    "FrontierState",
    "IllegalFrontierMove",
    "move_sql",
    "next_state",
    "sources_of",
    "target_of",
]


class FrontierState(StrEnum):
    PENDING = "pending"
    LEASED = "leased"
    CRAWLED = "crawled"


class FrontierSource(StrEnum):
    """How a URL first entered the frontier; link-discovered URLs are claimed first."""

    LINK = "link"
    SITEMAP = "sitemap"


class FrontierEvent(StrEnum):
    LEASE = "lease"  # claimed by a crawl chunk
    RELEASE = "release"  # handed back unfetched
    CRAWL = "crawl"  # fetched and recorded


class IllegalFrontierMove(ValueError):
    """A (state, event) pair that `TRANSITIONS` does not allow: a bug on our side, never input."""

    def __init__(self, state: FrontierState, event: FrontierEvent) -> None:
        super().__init__(f"frontier: no move for {event.value!r} from {state.value!r}")
        self.state = state
        self.event = event


INITIAL_STATE = FrontierState.PENDING

TRANSITIONS: dict[FrontierState, dict[FrontierEvent, FrontierState]] = {
    FrontierState.PENDING: {
        FrontierEvent.LEASE: FrontierState.LEASED,
        FrontierEvent.CRAWL: FrontierState.CRAWLED,
    },
    FrontierState.LEASED: {
        FrontierEvent.RELEASE: FrontierState.PENDING,
        FrontierEvent.CRAWL: FrontierState.CRAWLED,
    },
    FrontierState.CRAWLED: {
        FrontierEvent.CRAWL: FrontierState.CRAWLED,
    },
}


def next_state(state: FrontierState, event: FrontierEvent) -> FrontierState:
    try:
        return TRANSITIONS[state][event]
    except KeyError:
        raise IllegalFrontierMove(state, event) from None


def sources_of(event: FrontierEvent) -> list[FrontierState]:
    """The states `event` may leave, in `FrontierState` order."""
    return [state for state in FrontierState if event in TRANSITIONS[state]]


def target_of(event: FrontierEvent) -> FrontierState:
    """Where `event` leads; every event has one target, which lets SQL apply it set-wise."""
    targets = {TRANSITIONS[state][event] for state in sources_of(event)}
    if len(targets) != 1:
        raise ValueError(f"frontier: event {event.value!r} must have one target, has {targets}")
    return targets.pop()


def move_sql(event: FrontierEvent, source: FrontierState, *, by_url: bool) -> str:
    """`UPDATE` moving rows in `source` by `event`, returning one row per row moved.

    `by_url`: only the URLs of one bound JSON array (else every row in `source`). One statement
    per (source, event) pair, so the caller knows exactly how many rows left which state and can
    keep `frontier_counts` in step. A lease binds its chunk number first and records it; leaving
    a lease clears it, so a released URL cannot be mistaken for part of its old chunk.
    """
    target = next_state(source, event)
    chunk = ", chunk_no = ?" if event is FrontierEvent.LEASE else ""
    if source is FrontierState.LEASED and event is FrontierEvent.RELEASE:
        chunk = ", chunk_no = NULL"
    # By URL, the unary `+` keeps SQLite off the (state, source) index: without statistics it
    # prefers it, and would scan every row in `source` (half the frontier) per batch instead of
    # looking each URL up by primary key.
    where = (
        f"+state = '{source.value}' AND url IN (SELECT value FROM json_each(?))"
        if by_url
        else f"state = '{source.value}'"
    )
    return f"UPDATE frontier SET state = '{target.value}'{chunk} WHERE {where} RETURNING 1 AS moved"


def _sql_in(values: Iterable[StrEnum]) -> str:
    return ", ".join(f"'{value.value}'" for value in values)


SCHEMA = (
    f"""CREATE TABLE IF NOT EXISTS frontier (
        url TEXT PRIMARY KEY,
        depth INTEGER,
        source TEXT NOT NULL CHECK (source IN ({_sql_in(FrontierSource)})),
        in_sitemap INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL DEFAULT '{INITIAL_STATE.value}'
            CHECK (state IN ({_sql_in(FrontierState)})),
        chunk_no INTEGER,
        found_on TEXT
    )""",
    # Claim order (scratchpad._LEASE_LEVEL): link-discovered before sitemap-only, links
    # breadth-first, one level at a time, URL order within a level.
    "CREATE INDEX IF NOT EXISTS frontier_claim_idx ON frontier (state, source)",
    "CREATE INDEX IF NOT EXISTS frontier_chunk_idx ON frontier (chunk_no, state)",
    # Rows per state, kept in step by every statement that inserts or moves frontier rows.
    f"""CREATE TABLE IF NOT EXISTS frontier_counts (
        state TEXT PRIMARY KEY CHECK (state IN ({_sql_in(FrontierState)})),
        n INTEGER NOT NULL
    ) WITHOUT ROWID""",
)
