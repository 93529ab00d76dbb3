"""EXPLAIN QUERY PLAN over every statement auditdb/monitors.py issues: none scans a table.

The producer runs hourly over every monitor and the claim runs once per message, so each
statement must reach its rows through an index (or the primary key) and, for the keyset pages,
in index order: no `SCAN monitors`, no `SCAN monitor_runs`, no `USE TEMP B-TREE` sort.
"""

from __future__ import annotations

import re

import pytest

from auditdb import monitors, repository
from auditdb.listing import Statement
from auditdb.monitors import RecencyCutoffs
from local_platform.d1 import LocalD1Database
from tests.auditdb.test_query_plans import db, plan  # noqa: F401 - the migrated database fixture

FULL_SCAN = re.compile(r"\bSCAN (monitors|monitor_runs)\b")
AUDIT_SCAN = re.compile(r"\bSCAN (audits|monitor_runs)\b")
NOW = "2026-12-01T10:00:00.000Z"
CUTOFFS = RecencyCutoffs("2026-11-30T22:00:00.000Z", "2026-11-28T22:00:00.000Z", "2026-11-21")
CURSOR = ("2026-11-30T10:00:00.000Z", "m1")

# (name, statement, the index its first step must use)
STATEMENTS: list[tuple[str, Statement, str]] = [
    ("get owned", Statement(monitors.GET_OWNED_SQL, ("m1", "o")), "sqlite_autoindex_monitors_1"),
    ("get", Statement(monitors.GET_SQL, ("m1",)), "sqlite_autoindex_monitors_1"),
    ("secret", Statement(monitors.SECRET_SQL, ("m1",)), "sqlite_autoindex_monitors_1"),
    ("sealed", Statement(monitors.SEALED_SQL, ("m1",)), "sqlite_autoindex_monitors_1"),
    (
        "set credentials",
        Statement(monitors.SET_CREDENTIALS_SQL, (None, None, "m1", "o")),
        "sqlite_autoindex_monitors_1",
    ),
    ("count owned", Statement(monitors.COUNT_OWNED_SQL, ("o",)), "monitors_owner_created_id_idx"),
    (
        "delete owned",  # and its runs, by cascade through monitor_runs_monitor_started_idx
        Statement(monitors.DELETE_OWNED_SQL, ("m1", "o")),
        "sqlite_autoindex_monitors_1",
    ),
    (
        "update owned",
        Statement(monitors.UPDATE_OWNED_SQL, (*[None] * 20, "m1", "o")),
        "sqlite_autoindex_monitors_1",
    ),
    (
        "set ignore_robots",
        Statement(monitors.SET_IGNORE_ROBOTS_SQL, (1, "m1", "o")),
        "sqlite_autoindex_monitors_1",
    ),
    ("owned page", monitors.owned_page_statement("o", None, 101), "monitors_owner_created_id_idx"),
    (
        "owned page after",
        monitors.owned_page_statement("o", CURSOR, 101),
        "monitors_owner_created_id_idx",
    ),
    (
        "runs page",
        monitors.runs_page_statement("m1", None, 101),
        "monitor_runs_monitor_started_idx",
    ),
    (
        "runs page after",
        monitors.runs_page_statement("m1", CURSOR, 101),
        "monitor_runs_monitor_started_idx",
    ),
    ("due page", monitors.due_page_statement(NOW, CUTOFFS, None, 500), "monitors_active_due_idx"),
    (
        "due page after",
        monitors.due_page_statement(NOW, CUTOFFS, CURSOR, 500),
        "monitors_active_due_idx",
    ),
    (
        "claim",
        Statement(
            monitors.CLAIM_SQL, (NOW, "m1", NOW, CUTOFFS.daily, CUTOFFS.weekly, CUTOFFS.monthly)
        ),
        "sqlite_autoindex_monitors_1",
    ),
    ("release", Statement(monitors.RELEASE_SQL, ("m1", NOW)), "sqlite_autoindex_monitors_1"),
    (
        "run for slot",
        Statement(monitors.RUN_FOR_SLOT_SQL, ("m1", NOW)),
        "sqlite_autoindex_monitor_runs_2",
    ),
    (
        "schedule",
        Statement(monitors.SCHEDULED_SQL, (NOW, NOW, "m1")),
        "sqlite_autoindex_monitors_1",
    ),
    ("due now", Statement(monitors.DUE_NOW_SQL, (NOW, "m1")), "sqlite_autoindex_monitors_1"),
    (
        "expired runs",
        Statement(monitors.EXPIRED_RUNS_SQL, (NOW, *monitors.BEFORE_ALL, 100)),
        "monitor_runs_started_idx",
    ),
    (
        "expired runs after",
        Statement(monitors.EXPIRED_RUNS_SQL, (NOW, *CURSOR, 100)),
        "monitor_runs_started_idx",
    ),
    (
        "delete expired audits",  # pages and issues cascade through their audit_id indexes
        Statement(monitors.DELETE_EXPIRED_AUDITS_SQL, (*CURSOR, *CURSOR)),
        "sqlite_autoindex_audits_1",
    ),
    (
        "delete expired runs",
        Statement(monitors.DELETE_EXPIRED_RUNS_SQL, (*CURSOR, *CURSOR)),
        "monitor_runs_started_idx",
    ),
]


def test_every_sql_constant_of_the_module_is_in_the_table() -> None:
    constants = {
        value for name, value in vars(monitors).items() if name.endswith("_SQL") and name.isupper()
    }
    assert constants <= {statement.sql for _, statement, _ in STATEMENTS}


@pytest.mark.parametrize(
    ("name", "statement", "index"), STATEMENTS, ids=[name for name, _, _ in STATEMENTS]
)
async def test_every_monitor_statement_seeks_an_index(
    db: LocalD1Database, name: str, statement: Statement, index: str
) -> None:
    lines = await plan(db, statement)

    assert not [line for line in lines if FULL_SCAN.search(line)], lines
    assert not [line for line in lines if "TEMP B-TREE" in line], lines
    assert index in lines[0], lines


async def test_the_producer_reads_a_range_of_the_due_index(db: LocalD1Database) -> None:
    lines = await plan(db, monitors.due_page_statement(NOW, CUTOFFS, CURSOR, 500))

    # A seek to the cursor bounded by the due time: the pages cost their own rows, never a walk
    # over monitors that are not due.
    assert "(is_active=? AND (next_due_at,id)>(?,?) AND next_due_at<?)" in lines[0], lines


@pytest.mark.parametrize(
    "sql", [monitors.DELETE_EXPIRED_AUDITS_SQL, monitors.DELETE_EXPIRED_RUNS_SQL]
)
async def test_a_retention_batch_deletes_a_range_bounded_at_both_ends(
    db: LocalD1Database, sql: str
) -> None:
    lines = await plan(db, Statement(sql, (*CURSOR, *CURSOR)))

    # (after, last]: a batch costs its own rows, never a walk over the rest of the backlog.
    # (SQLite's plan text prints the upper bound as "<" whether it is "<" or "<=".)
    bounded = "monitor_runs_started_idx ((started_at,id)>(?,?) AND (started_at,id)<(?,?))"
    assert bounded in "\n".join(lines), lines


async def test_the_ad_hoc_audit_cleanup_reads_by_finish_time_and_skips_runs_by_index(
    db: LocalD1Database,
) -> None:
    lines = await plan(db, Statement(repository.DELETE_FINISHED_SQL, (NOW, 500)))

    assert not [line for line in lines if AUDIT_SCAN.search(line)], lines
    assert any("audits_finished_idx (finished_at<?)" in line for line in lines), lines
    assert any("monitor_runs_audit_idx (audit_id=?)" in line for line in lines), lines
