"""The scratchpad's per-link statements (issue 29): one statement per JSON array of rows, never one
per link, and none of them scans a table (EXPLAIN QUERY PLAN, as tests/auditdb/test_query_plans.py
does for D1). The lookups of stored rows search their table's primary key for each row of the
batch; the inserts check their key the same way; the links' target index, built after the crawl,
is what finalize's joins from a target to its referring pages search."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from durable import fragments
from durable import links as edges
from durable.json_batches import json_slices, stored
from durable.scratchpad import _ENQUEUE_LINKS, _SCHEMA
from tests.support.memory_db import memory_db


@pytest.fixture
def db() -> Iterator[sqlite3.Connection]:
    with memory_db(_SCHEMA) as connection:
        yield connection


def plan(db: sqlite3.Connection, sql: str) -> list[str]:
    return [row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}", ("[]",))]


@pytest.mark.parametrize(
    ("sql", "key"),
    [
        (edges.STORED, ("source_url=?", "target_url=?")),
        (edges.STORED_EXTERNAL, ("source_url=?", "target_url=?")),
        (fragments.STORED, ("source_url=?", "target_url=?", "fragment=?")),
    ],
)
def test_a_lookup_of_stored_rows_searches_by_the_whole_key(
    db: sqlite3.Connection, sql: str, key: tuple[str, ...]
) -> None:
    """By the primary key or by an index that holds it (links_target_idx, whose rows carry the
    primary key of a WITHOUT ROWID table): one search per row of the batch, never a scan."""
    steps = plan(db, sql)
    searches = [step for step in steps if step.startswith("SEARCH l USING")]
    assert searches and all(part in searches[0] for part in key), steps
    assert not any(step.startswith("SCAN l") for step in steps), steps


@pytest.mark.parametrize(
    ("sql", "table"),
    [
        (edges.SOURCES_STORED, "links"),
        (edges.EXTERNAL_SOURCES_STORED, "external_edges"),
        (fragments.SOURCES_STORED, "link_fragments"),
    ],
)
def test_whether_a_batchs_sources_are_stored_searches_the_keys_first_column(
    db: sqlite3.Connection, sql: str, table: str
) -> None:
    """One search per distinct source of the batch (a page's first write then skips the
    lookup of each row: json_batches.any_source_stored)."""
    steps = plan(db, sql)
    assert f"SEARCH {table} USING PRIMARY KEY (source_url=?)" in steps, steps
    assert not any(step.startswith(f"SCAN {table}") for step in steps), steps


@pytest.mark.parametrize(
    "sql",
    [edges.WRITE, edges.WRITE_EXTERNAL, edges.WRITE_ALTS, fragments.WRITE_LINKS, _ENQUEUE_LINKS],
)
def test_an_insert_reads_only_its_bound_array(db: sqlite3.Connection, sql: str) -> None:
    steps = plan(db, sql)
    assert [step for step in steps if step.startswith("SCAN")] == [
        "SCAN json_each VIRTUAL TABLE INDEX 1:"
    ]


def test_the_crawl_writes_no_target_index_and_its_readers_build_it_once(
    db: sqlite3.Connection,
) -> None:
    """Edges are inserted without the target index (one B-tree per insert, not two); the keep-
    links steps and finalize create it before their joins from a target to its referring pages,
    which then search it."""
    indexes = "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'links'"
    assert [row[0] for row in db.execute(indexes)] == []
    for _ in range(2):  # idempotent: every reader runs it
        db.execute(edges.TARGET_INDEX)
    steps = plan(db, "SELECT source_url FROM links WHERE target_url = ?")
    assert steps == ["SEARCH links USING COVERING INDEX links_target_idx (target_url=?)"]


def test_rows_written_and_looked_up_are_one_array_and_positions_add_up(
    db: sqlite3.Connection,
) -> None:
    """A batch larger than one bound array is split; `json_each`'s key plus the slice's start
    is the row's position in the batch, which is what the stored lookup answers."""
    rows = [
        (f"https://a.test/{i % 7}", f"https://a.test/t{i}", 0, "x" * 50, None) for i in range(60)
    ]
    slices = list(json_slices(rows, max_bytes=1_000))
    assert len(slices) > 2
    for _, batch in slices[:2]:  # the first slices are stored
        db.execute(edges.WRITE, (batch,))
    found = sorted(
        start + row[0] for start, batch in slices for row in db.execute(edges.STORED, (batch,))
    )
    assert found == list(range(slices[2][0]))
    assert stored("links", "target_url").startswith("SELECT j.key AS i")
