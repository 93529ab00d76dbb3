"""Specification of the local D1 binding (docs/platform.md §3)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from local_platform.d1 import LocalD1Database, split_statements
from local_platform.do_storage_file import StorageFile
from local_platform.errors import JsException
from local_platform.rpc import JsDict

META_KEYS = {
    "duration", "changes", "last_row_id", "changed_db", "rows_read", "rows_written", "size_after"
}  # fmt: skip


@pytest.fixture
def db(tmp_path: Path) -> Iterator[LocalD1Database]:
    database = LocalD1Database(tmp_path / "d1.sqlite")
    yield database
    database.close()


async def make_table(db: LocalD1Database) -> None:
    await db.exec(
        "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, score REAL, data BLOB)"
    )


# --- result shapes -------------------------------------------------------------------------


async def test_all_returns_success_meta_and_results(db: LocalD1Database) -> None:
    await make_table(db)
    await db.prepare("INSERT INTO t (name, score) VALUES (?, ?)").bind("a", 1.5).run()
    result = await db.prepare("SELECT name, score FROM t").all()
    assert isinstance(result, JsDict)
    assert result.success is True
    assert set(result.meta) == META_KEYS
    assert result.results == [{"name": "a", "score": 1.5}]
    assert isinstance(result.results[0], JsDict) and result.results[0].name == "a"


async def test_run_meta_counts_the_write(db: LocalD1Database) -> None:
    await make_table(db)
    result = await db.prepare("INSERT INTO t (name) VALUES (?)").bind("a").run()
    assert result.results == []
    assert result.meta.changes == 1
    assert result.meta.rows_written == 1
    assert result.meta.last_row_id == 1
    assert result.meta.changed_db is True
    assert result.meta.size_after > 0


async def test_select_does_not_change_db(db: LocalD1Database) -> None:
    await make_table(db)
    result = await db.prepare("SELECT * FROM t").run()
    assert result.meta.changed_db is False and result.meta.changes == 0


async def test_first_returns_none_without_rows(db: LocalD1Database) -> None:
    await make_table(db)
    assert await db.prepare("SELECT * FROM t").first() is None
    assert await db.prepare("SELECT * FROM t").first("name") is None


async def test_first_with_column_returns_the_value(db: LocalD1Database) -> None:
    assert await db.prepare("SELECT 7 AS n, 'x' AS s").first("s") == "x"
    assert await db.prepare("SELECT 7 AS n").first() == {"n": 7}


async def test_first_with_missing_column_raises(db: LocalD1Database) -> None:
    with pytest.raises(JsException) as caught:
        await db.prepare("SELECT 1 AS n").first("nope")
    assert caught.value.message == "D1_COLUMN_NOTFOUND: Column not found (nope)"


NO_NAMES = [[1, "a"], [2, "b"]]
WITH_NAMES = [["n", "s"], *NO_NAMES]


@pytest.mark.parametrize(
    ("args", "kwargs", "expected"),
    [
        ((), {}, NO_NAMES),
        ((), {"columnNames": False}, NO_NAMES),
        ((), {"columnNames": True}, WITH_NAMES),
        (({"columnNames": True},), {}, WITH_NAMES),
        ((None,), {}, NO_NAMES),
    ],
)
async def test_raw(
    db: LocalD1Database, args: tuple[Any, ...], kwargs: dict[str, Any], expected: list[list[Any]]
) -> None:
    stmt = db.prepare("SELECT 1 AS n, 'a' AS s UNION ALL SELECT 2, 'b'")
    assert await stmt.raw(*args, **kwargs) == expected


async def test_raw_with_column_names_and_no_rows(db: LocalD1Database) -> None:
    await make_table(db)
    assert await db.prepare("SELECT id, name FROM t").raw(columnNames=True) == [["id", "name"]]


# --- bindings and value conversion ------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "stored_type", "read_back"),
    [
        (True, "integer", 1),
        (False, "integer", 0),
        (None, "null", None),
        ("text", "text", "text"),
        (42, "integer", 42),
        (2.5, "real", 2.5),
        (3.0, "integer", 3),  # JS has one number type: 3.0 is sent as 3
        (b"\x00\x01", "blob", [0, 1]),
        (memoryview(b"\xff"), "blob", [255]),
        ([1, 2, 255], "blob", [1, 2, 255]),
        (2**53 - 1, "integer", 2**53 - 1),
    ],
)
async def test_binding_conversion(
    db: LocalD1Database, value: Any, stored_type: str, read_back: Any
) -> None:
    row = await db.prepare("SELECT typeof(?1) AS t, ?1 AS v").bind(value).first()
    assert row == {"t": stored_type, "v": read_back}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (2**53, f"D1_TYPE_ERROR: Type 'bigint' not supported for value '{2**53}'"),
        (-(2**60), f"D1_TYPE_ERROR: Type 'bigint' not supported for value '{-(2**60)}'"),
        ({"a": 1}, "D1_TYPE_ERROR: Type 'object' not supported for value '[object Object]'"),
        (["a", 1], "D1_TYPE_ERROR: Type 'object' not supported for value 'a,1'"),
        ({1, 2}, "D1_TYPE_ERROR: Type 'object' not supported for value '[object Object]'"),
    ],
)
def test_unsupported_binding_raises_d1_type_error(
    db: LocalD1Database, value: Any, message: str
) -> None:
    with pytest.raises(JsException) as caught:
        db.prepare("SELECT ?").bind(value)
    assert caught.value.name == "Error"
    assert caught.value.message == message


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ((1, 2), "<class 'tuple'> cannot be sent over RPC."),
        (bytearray(b"x"), "<class 'bytearray'> cannot be sent over RPC."),
    ],
)
def test_sdk_refuses_tuples_and_bytearrays_before_d1(
    db: LocalD1Database, value: Any, text: str
) -> None:
    with pytest.raises(TypeError, match=re.escape(text)):
        db.prepare("SELECT ?").bind(value)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("3.0", 3),
        ("3.25", 3.25),
        ("x'0102'", [1, 2]),
        ("9007199254740993", 9007199254740992.0),  # beyond 2^53: a JS double
        ("NULL", None),
    ],
)
async def test_result_conversion(db: LocalD1Database, expression: str, expected: Any) -> None:
    value = await db.prepare(f"SELECT {expression} AS v").first("v")
    assert value == expected and type(value) is type(expected)


def test_bind_returns_a_new_statement(db: LocalD1Database) -> None:
    base = db.prepare("SELECT ?")
    bound = base.bind(1)
    assert bound is not base and base.params == [] and bound.params == [1]


# --- errors and limits ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "params", "message"),
    [
        ("SELEC 1", [], 'D1_ERROR: near "SELEC": syntax error: SQLITE_ERROR'),
        ("SELECT * FROM missing", [], "D1_ERROR: no such table: missing: SQLITE_ERROR"),
        (
            "SELECT ?",
            [],
            "D1_ERROR: Wrong number of parameter bindings for SQL query.: SQLITE_RANGE",
        ),
        (
            "SELECT " + ",".join(["?"] * 101),
            [1] * 101,
            "D1_ERROR: too many SQL variables: SQLITE_ERROR",
        ),
        ("SELECT 1 " + " " * 100_000, [], "D1_ERROR: statement too long: SQLITE_TOOBIG"),
        ("SELECT ?", ["x" * 2_000_001], "D1_ERROR: string or blob too big: SQLITE_TOOBIG"),
        ("SELECT ?", [b"x" * 2_000_001], "D1_ERROR: string or blob too big: SQLITE_TOOBIG"),
        ("SELECT zeroblob(2000001)", [], "D1_ERROR: string or blob too big: SQLITE_TOOBIG"),
    ],
)
async def test_sql_errors(db: LocalD1Database, sql: str, params: list[Any], message: str) -> None:
    with pytest.raises(JsException) as caught:
        await db.prepare(sql).bind(*params).all()
    assert (caught.value.name, caught.value.message) == ("Error", message)


async def test_exactly_100_parameters_are_allowed(db: LocalD1Database) -> None:
    row = await db.prepare("SELECT " + ",".join(["?"] * 100)).bind(*range(100)).raw()
    assert row == [list(range(100))]


async def test_constraint_failure_names_sqlite_constraint(db: LocalD1Database) -> None:
    await make_table(db)
    insert = db.prepare("INSERT INTO t (name) VALUES (?)").bind("a")
    await insert.run()
    with pytest.raises(
        JsException, match=r"^Error: D1_ERROR: UNIQUE constraint failed: t.name: SQLITE_CONSTRAINT$"
    ):
        await insert.run()


async def test_foreign_keys_are_enforced(db: LocalD1Database) -> None:
    await db.exec(
        "CREATE TABLE p (id INTEGER PRIMARY KEY)\nCREATE TABLE c (p INTEGER REFERENCES p(id))"
    )
    with pytest.raises(JsException, match="FOREIGN KEY constraint failed: SQLITE_CONSTRAINT"):
        await db.prepare("INSERT INTO c VALUES (1)").run()


@pytest.mark.parametrize("sql", ["BEGIN", "BEGIN TRANSACTION", "COMMIT", "SAVEPOINT s", "ROLLBACK"])
async def test_transaction_statements_are_refused(db: LocalD1Database, sql: str) -> None:
    with pytest.raises(JsException, match=r"D1_ERROR: To execute a transaction, please use"):
        await db.prepare(sql).run()


# --- batch, exec ---------------------------------------------------------------------------


async def test_batch_returns_one_result_per_statement(db: LocalD1Database) -> None:
    await make_table(db)
    insert = db.prepare("INSERT INTO t (name) VALUES (?)")
    results = await db.batch([insert.bind("a"), insert.bind("b"), db.prepare("SELECT name FROM t")])
    assert [r.meta.changes for r in results] == [1, 1, 0]
    assert results[2].results == [{"name": "a"}, {"name": "b"}]


async def test_batch_failure_rolls_back_everything(db: LocalD1Database) -> None:
    await make_table(db)
    insert = db.prepare("INSERT INTO t (name) VALUES (?)")
    with pytest.raises(JsException, match="UNIQUE constraint failed"):
        await db.batch([insert.bind("a"), insert.bind("b"), insert.bind("a")])
    assert await db.prepare("SELECT count(*) AS n FROM t").first("n") == 0


async def test_exec_counts_lines(db: LocalD1Database) -> None:
    result = await db.exec("CREATE TABLE a (x);\nCREATE TABLE b (x); INSERT INTO b VALUES (1);")
    assert result.count == 2 and result.duration >= 0
    assert await db.prepare("SELECT x FROM b").first("x") == 1


async def test_exec_error_names_the_line(db: LocalD1Database) -> None:
    with pytest.raises(JsException) as caught:
        await db.exec("CREATE TABLE a (x)\nCREATE TABLE b (")
    assert caught.value.message == (
        "D1_EXEC_ERROR: Error in line 2: CREATE TABLE b (: incomplete input: SQLITE_ERROR"
    )


async def test_exec_splits_on_newlines_so_multiline_statements_fail(db: LocalD1Database) -> None:
    with pytest.raises(
        JsException, match=re.escape("D1_EXEC_ERROR: Error in line 1: CREATE TABLE a (:")
    ):
        await db.exec("CREATE TABLE a (\n x\n)")


# --- faults, durability, scheduling --------------------------------------------------------


async def test_fault_injection_fails_the_next_n_calls(db: LocalD1Database) -> None:
    db.faults.fail_next(2, message="D1_ERROR: Network connection lost.")
    stmt = db.prepare("SELECT 1 AS n")
    for _ in range(2):
        with pytest.raises(JsException, match=r"^Error: D1_ERROR: Network connection lost\.$"):
            await stmt.first()
    assert await stmt.first("n") == 1


async def test_fault_injection_fails_a_batch_without_running_it(db: LocalD1Database) -> None:
    await make_table(db)
    db.faults.fail_next()
    with pytest.raises(JsException, match="D1_ERROR"):
        await db.batch([db.prepare("INSERT INTO t (name) VALUES ('a')")])
    assert await db.prepare("SELECT count(*) AS n FROM t").first("n") == 0


async def test_a_second_instance_sees_committed_data(tmp_path: Path) -> None:
    first = LocalD1Database(tmp_path / "same.sqlite")
    await first.exec("CREATE TABLE t (x)")
    await first.prepare("INSERT INTO t VALUES (?)").bind("kept").run()
    second = LocalD1Database(tmp_path / "same.sqlite")
    try:
        assert await second.prepare("SELECT x FROM t").first("x") == "kept"
    finally:
        first.close()
        second.close()


async def test_each_call_yields_to_the_event_loop(db: LocalD1Database) -> None:
    order: list[str] = []

    async def other() -> None:
        order.append("other")

    task = asyncio.ensure_future(other())
    await db.prepare("SELECT 1").all()
    order.append("d1 done")
    await task
    assert order == ["other", "d1 done"]


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT 1", ["SELECT 1"]),
        ("SELECT 1; SELECT 2;", ["SELECT 1;", "SELECT 2;"]),
        ("SELECT ';'; -- tail", ["SELECT ';';"]),
        (
            "CREATE TRIGGER g AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END; SELECT 3",
            ["CREATE TRIGGER g AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END;", "SELECT 3"],
        ),
        ("  ", []),
    ],
)
def test_split_statements(sql: str, expected: list[str]) -> None:
    assert split_statements(sql) == expected


# --- temp storage ---------------------------------------------------------------------------

FILE, MEMORY = 1, 2  # PRAGMA temp_store's answers


def test_d1_keeps_temp_files_in_memory_and_durable_objects_on_disk(tmp_path: Path) -> None:
    # D1: a batch's statement journals (every multi-row insert in a transaction) never spill to
    # a temp file. Durable Objects: finalize's window partitions grow with a duplicate group, so
    # they may spill (local_platform.do_storage_file).
    d1 = LocalD1Database(tmp_path / "d1.sqlite")
    storage = StorageFile(tmp_path / "do.sqlite")
    try:
        with d1._guard.trusted(), storage._guard.trusted():
            assert d1._conn.execute("PRAGMA temp_store").fetchone()[0] == MEMORY
            assert storage._conn.execute("PRAGMA temp_store").fetchone()[0] == FILE
    finally:
        d1.close()
        storage.close()
