"""The frontier's transition table: every allowed move, every refused one, the SQL built from it."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterator

import pytest

from durable.frontier import (
    INITIAL_STATE,
    SCHEMA,
    TRANSITIONS,
    FrontierEvent,
    FrontierSource,
    FrontierState,
    IllegalFrontierMove,
    move_sql,
    next_state,
    sources_of,
    target_of,
)
from tests.support.memory_db import memory_db

P, L, C = FrontierState.PENDING, FrontierState.LEASED, FrontierState.CRAWLED
LEASE, RELEASE, CRAWL = FrontierEvent.LEASE, FrontierEvent.RELEASE, FrontierEvent.CRAWL

# The specification, written out move by move; TRANSITIONS must say exactly this.
ALLOWED = {
    (P, LEASE): L,
    (P, CRAWL): C,  # a crawl reported after a resume reopened its lease is still a crawl
    (L, RELEASE): P,
    (L, CRAWL): C,
    (C, CRAWL): C,  # a replayed batch
}
ALL_PAIRS = list(itertools.product(FrontierState, FrontierEvent))


@pytest.mark.parametrize(("state", "event"), list(ALLOWED))
def test_every_allowed_move(state: FrontierState, event: FrontierEvent) -> None:
    assert next_state(state, event) is ALLOWED[state, event]


@pytest.mark.parametrize(
    ("state", "event"), [pair for pair in ALL_PAIRS if pair not in ALLOWED], ids=str
)
def test_every_disallowed_move_raises(state: FrontierState, event: FrontierEvent) -> None:
    with pytest.raises(IllegalFrontierMove) as raised:
        next_state(state, event)
    assert (raised.value.state, raised.value.event) == (state, event)


def test_the_table_is_the_specification_and_covers_every_state() -> None:
    table = {
        (state, event): target
        for state, moves in TRANSITIONS.items()
        for event, target in moves.items()
    }
    assert table == ALLOWED
    assert set(TRANSITIONS) == set(FrontierState)
    assert INITIAL_STATE is P


@pytest.mark.parametrize("event", list(FrontierEvent))
def test_every_event_has_one_target_so_sql_can_apply_it_set_wise(event: FrontierEvent) -> None:
    assert {next_state(source, event) for source in sources_of(event)} == {target_of(event)}


def test_every_state_is_reachable_and_can_be_left_or_is_final() -> None:
    reached = {INITIAL_STATE}
    for _ in FrontierState:
        reached |= {TRANSITIONS[s][e] for s in reached for e in TRANSITIONS[s]}
    assert reached == set(FrontierState)


@pytest.fixture
def db() -> Iterator[sqlite3.Connection]:
    with memory_db(SCHEMA) as connection:
        yield connection


@pytest.mark.parametrize("state", list(FrontierState))
@pytest.mark.parametrize("event", list(FrontierEvent))
def test_move_sql_moves_only_rows_the_table_allows(
    db: sqlite3.Connection, state: FrontierState, event: FrontierEvent
) -> None:
    for n, row_state in enumerate(FrontierState):
        db.execute(
            "INSERT INTO frontier (url, source, state, chunk_no) VALUES (?, 'link', ?, 7)",
            (f"u{n}", row_state.value),
        )
    if (state, event) not in ALLOWED:
        with pytest.raises(IllegalFrontierMove):
            move_sql(event, state, by_url=False)
        return
    lead = (3,) if event is LEASE else ()
    moved = db.execute(move_sql(event, state, by_url=False), lead).fetchall()

    rows = dict(db.execute("SELECT url, state FROM frontier").fetchall())
    assert len(moved) == 1
    assert rows[f"u{list(FrontierState).index(state)}"] == ALLOWED[state, event]
    assert sorted(rows.values()) == sorted(
        ALLOWED[state, event] if s is state else s for s in FrontierState
    )
    chunk = db.execute(
        "SELECT chunk_no FROM frontier WHERE url = ?", (f"u{list(FrontierState).index(state)}",)
    ).fetchone()[0]
    assert chunk == {LEASE: 3, RELEASE: None, CRAWL: 7}[event]


def test_check_constraints_come_from_the_enums(db: sqlite3.Connection) -> None:
    for source, state in itertools.product(FrontierSource, FrontierState):
        db.execute(
            "INSERT INTO frontier (url, source, state) VALUES (?, ?, ?)",
            (f"{source}-{state}", source.value, state.value),
        )
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO frontier (url, source) VALUES ('x', 'rumour')")
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO frontier (url, source, state) VALUES ('y', 'link', 'fetched')")
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO frontier_counts (state, n) VALUES ('fetched', 0)")
    assert db.execute("SELECT state FROM frontier WHERE url = 'link-pending'").fetchone() == (
        INITIAL_STATE.value,
    )
