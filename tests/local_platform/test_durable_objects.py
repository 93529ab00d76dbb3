"""Specification of the local Durable Objects (docs/platform.md §1.3 and §2)."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from local_platform.clock import ManualClock
from local_platform.do_sql import ONE_MANY_RESULTS, ONE_NO_RESULTS
from local_platform.do_state import DurableObjectAbort
from local_platform.do_storage import DurableObjectStorage
from local_platform.durable_objects import DurableObjectNamespace
from local_platform.errors import JsException
from local_platform.rpc import RPC_SIZE_ERROR, JsDict

TRANSACTION_TEXT = "To execute a transaction, please use the state.storage.transaction() or "


class CounterMixin:
    def increment(self, by: int = 1) -> int:
        sql = self.ctx.storage.sql  # type: ignore[attr-defined]
        sql.exec(
            "INSERT INTO counter (id, n) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET n = n + ?",
            by,
            by,
        )
        return sql.exec("SELECT n FROM counter WHERE id = 1").one()["n"]


class Scratchpad(CounterMixin):
    constructed = 0

    def __init__(self, ctx: Any, env: Any) -> None:
        self.ctx = ctx
        self.env = env
        self.ready = False
        type(self).constructed += 1
        ctx.blockConcurrencyWhile(self._migrate)

    async def _migrate(self) -> None:
        await asyncio.sleep(0)
        self.ctx.storage.sql.exec(
            "CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY, n INTEGER)"
        )
        self.ready = True

    def is_ready(self) -> bool:
        return self.ready

    def echo(self, *values: Any) -> list[Any]:
        return list(values)

    async def echo_async(self, value: Any) -> Any:
        await asyncio.sleep(0)
        return value

    def types(self, *values: Any) -> list[str]:
        return [type(v).__name__ for v in values]

    def give_tuple(self) -> Any:
        return (1, 2)

    def fail(self, message: str) -> None:
        raise ValueError(message)

    def bad_sql(self) -> None:
        self.ctx.storage.sql.exec("SELECT * FROM nowhere")

    def quit(self) -> None:
        self.ctx.abort("bye")

    def identity(self) -> list[Any]:
        return [self.ctx.id.toString(), self.ctx.id.name]

    def _private(self) -> None:
        pass

    @staticmethod
    def static_one() -> None:
        pass

    @classmethod
    def class_one(cls) -> None:
        pass

    async def schedule(self, at: Any) -> Any:
        await self.ctx.storage.setAlarm(at)
        return await self.ctx.storage.getAlarm()

    async def clear_everything(self) -> Any:
        await self.ctx.storage.put("k", 1)
        await self.ctx.storage.deleteAll()
        tables = self.ctx.storage.sql.exec(
            "SELECT name FROM sqlite_master WHERE type='table' "
            "AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'"
        ).toArray()
        return [await self.ctx.storage.getAlarm(), await self.ctx.storage.get("k"), tables]


class Alarmed:
    calls: ClassVar[list[Any]] = []
    failures_left = 0

    def __init__(self, ctx: Any, env: Any) -> None:
        self.ctx = ctx

    async def schedule(self, at: Any) -> None:
        await self.ctx.storage.setAlarm(at)

    async def alarm(self, info: Any) -> None:
        type(self).calls.append((info.retryCount, info.isRetry, await self.ctx.storage.getAlarm()))
        if type(self).failures_left > 0:
            type(self).failures_left -= 1
            raise RuntimeError("alarm failed")


class NoArgAlarm:
    fired = 0

    def __init__(self, ctx: Any, env: Any) -> None:
        self.ctx = ctx

    async def schedule(self, at: Any) -> None:
        await self.ctx.storage.setAlarm(at)

    def alarm(self) -> None:
        type(self).fired += 1


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def make_namespace(cls: type, state_dir: Path, clock: ManualClock) -> DurableObjectNamespace:
    env: dict[str, Any] = {}
    namespace = DurableObjectNamespace(
        cls.__name__, cls, state_dir=state_dir, clock=clock, env_provider=lambda: env
    )
    env["NS"] = namespace
    return namespace


@pytest.fixture
def ns(tmp_path: Path, clock: ManualClock) -> Iterator[DurableObjectNamespace]:
    namespace = make_namespace(Scratchpad, tmp_path, clock)
    yield namespace
    namespace.close()


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[DurableObjectStorage]:
    store = DurableObjectStorage(tmp_path / "obj.sqlite")
    yield store
    store.close()


# --- ids -----------------------------------------------------------------------------------


def test_id_from_name_is_deterministic_64_hex_with_name(ns: DurableObjectNamespace) -> None:
    first, again = ns.idFromName("audit-1"), ns.idFromName("audit-1")
    assert re.fullmatch(r"[0-9a-f]{64}", first.toString())
    assert first == again and first.name == "audit-1"
    assert first != ns.idFromName("audit-2")


def test_unique_ids_differ_and_have_no_name(ns: DurableObjectNamespace) -> None:
    a, b = ns.newUniqueId(), ns.newUniqueId()
    assert a != b and a.name is None and len(a.toString()) == 64


def test_id_from_string_round_trips(ns: DurableObjectNamespace) -> None:
    original = ns.newUniqueId()
    assert ns.idFromString(original.toString()) == original


@pytest.mark.parametrize("bad", ["abc", "g" * 64, "A" * 64, "0" * 63])
def test_id_from_string_rejects_non_hex(ns: DurableObjectNamespace, bad: str) -> None:
    with pytest.raises(JsException, match="TypeError: Invalid Durable Object ID"):
        ns.idFromString(bad)


async def test_stub_has_id_and_name(ns: DurableObjectNamespace) -> None:
    stub = ns.getByName("x")
    assert stub.id == ns.idFromName("x") and stub.name == "x"
    assert await stub.identity() == [ns.idFromName("x").toString(), "x"]


# --- RPC -----------------------------------------------------------------------------------


async def test_call_runs_a_mixin_method_after_the_constructor_gate(
    ns: DurableObjectNamespace,
) -> None:
    stub = ns.getByName("a")
    assert await stub.is_ready() is True
    assert [await stub.increment(), await stub.increment(2)] == [1, 3]


async def test_one_instance_per_id(ns: DurableObjectNamespace) -> None:
    Scratchpad.constructed = 0
    stub = ns.getByName("a")
    await asyncio.gather(stub.increment(), stub.increment(), ns.get(ns.idFromName("a")).increment())
    assert Scratchpad.constructed == 1
    assert await stub.increment() == 4


@pytest.mark.parametrize(
    ("sent", "received"),
    [
        (b"ab", [memoryview(b"ab")]),
        (3.0, [3]),
        ({"a": (1.0)}, [{"a": 1}]),
        ([1, None, "s"], [[1, None, "s"]]),
    ],
)
async def test_arguments_and_results_cross_like_rpc(
    ns: DurableObjectNamespace, sent: Any, received: list[Any]
) -> None:
    assert await ns.getByName("a").echo(sent) == received


async def test_callee_receives_converted_types(ns: DurableObjectNamespace) -> None:
    assert await ns.getByName("a").types(b"x", {"k": 1}, 2.0) == ["memoryview", "JsDict", "int"]


async def test_dict_result_allows_attribute_access(ns: DurableObjectNamespace) -> None:
    result = await ns.getByName("a").echo_async({"status": "ok"})
    assert isinstance(result, JsDict) and result.status == "ok"


async def test_keyword_arguments_arrive_as_one_trailing_object(ns: DurableObjectNamespace) -> None:
    assert await ns.getByName("a").echo(1, mode="x") == [1, {"mode": "x"}]


@pytest.mark.parametrize("value", [(1, 2), [1, (2,)], {"k": (1,)}, bytearray(b"x")])
def test_tuples_and_bytearrays_are_refused_before_sending(
    ns: DurableObjectNamespace, value: Any
) -> None:
    with pytest.raises(TypeError, match="cannot be sent over RPC"):
        ns.getByName("a").echo(value)


async def test_tuple_result_fails_in_the_callee(ns: DurableObjectNamespace) -> None:
    with pytest.raises(JsException) as caught:
        await ns.getByName("a").give_tuple()
    assert caught.value.message.endswith("TypeError: <class 'tuple'> cannot be sent over RPC.")


def test_arguments_over_32_mib_are_refused(ns: DurableObjectNamespace) -> None:
    with pytest.raises(JsException) as caught:
        ns.getByName("a").echo("x" * (32 * 1024 * 1024))
    assert caught.value.message.startswith(RPC_SIZE_ERROR)


@pytest.mark.parametrize("name", ["missing", "_private", "_migrate", "static_one", "class_one"])
async def test_only_public_plain_methods_are_callable(
    ns: DurableObjectNamespace, name: str
) -> None:
    with pytest.raises(JsException) as caught:
        await getattr(ns.getByName("a"), name)()
    assert str(caught.value) == f"TypeError: Method {name} does not exist"


async def test_exception_reaches_caller_as_python_error(ns: DurableObjectNamespace) -> None:
    with pytest.raises(JsException) as caught:
        await ns.getByName("a").fail("boom")
    assert caught.value.name == "Error"
    assert caught.value.message.startswith("PythonError: Traceback (most recent call last):")
    assert caught.value.message.endswith("ValueError: boom")


async def test_signature_mismatch_is_a_python_error(ns: DurableObjectNamespace) -> None:
    with pytest.raises(
        JsException, match=r"(?s)PythonError: .*TypeError: Scratchpad.fail\(\) takes"
    ):
        await ns.getByName("a").fail("one", "two")


async def test_js_errors_inside_the_callee_pass_through(ns: DurableObjectNamespace) -> None:
    with pytest.raises(JsException) as caught:
        await ns.getByName("a").bad_sql()
    assert str(caught.value) == "Error: no such table: nowhere: SQLITE_ERROR"


async def test_abort_evicts_and_reaches_caller(ns: DurableObjectNamespace) -> None:
    Scratchpad.constructed = 0
    stub = ns.getByName("a")
    await stub.increment()
    with pytest.raises(JsException, match=r"^Error: bye$"):
        await stub.quit()
    assert await stub.increment() == 2 and Scratchpad.constructed == 2


def test_abort_raises_a_base_exception() -> None:
    assert not issubclass(DurableObjectAbort, Exception)


async def test_failing_gate_resets_the_object(tmp_path: Path, clock: ManualClock) -> None:
    class Broken:
        attempts = 0

        def __init__(self, ctx: Any, env: Any) -> None:
            type(self).attempts += 1
            ctx.blockConcurrencyWhile(self._init)

        async def _init(self) -> None:
            if type(self).attempts == 1:
                raise RuntimeError("init failed")

        def ping(self) -> str:
            return "pong"

    ns = make_namespace(Broken, tmp_path, clock)
    try:
        with pytest.raises(JsException, match="RuntimeError: init failed"):
            await ns.getByName("a").ping()
        assert await ns.getByName("a").ping() == "pong"
    finally:
        ns.close()


async def test_awaited_block_concurrency_while_returns_the_result(
    tmp_path: Path, clock: ManualClock
) -> None:
    class Gated:
        def __init__(self, ctx: Any, env: Any) -> None:
            self.ctx = ctx

        async def compute(self) -> int:
            async def work() -> int:
                return 41 + 1

            return await self.ctx.blockConcurrencyWhile(work)

    ns = make_namespace(Gated, tmp_path, clock)
    try:
        assert await ns.getByName("a").compute() == 42
    finally:
        ns.close()


# --- restart -------------------------------------------------------------------------------


async def test_evict_keeps_sql_and_kv(ns: DurableObjectNamespace) -> None:
    Scratchpad.constructed = 0
    stub = ns.getByName("a")
    await stub.increment(5)
    ns.evict(stub.id)
    assert await stub.increment() == 6 and Scratchpad.constructed == 2


async def test_a_new_namespace_over_the_same_state_dir_sees_data_and_names(
    tmp_path: Path, clock: ManualClock
) -> None:
    first = make_namespace(Scratchpad, tmp_path, clock)
    unique = first.idFromName("kept")
    await first.get(unique).increment(7)
    first.close()
    second = make_namespace(Scratchpad, tmp_path, clock)
    try:
        again = second.idFromString(unique.toString())
        assert again.name == "kept"
        assert await second.get(again).increment() == 8
    finally:
        second.close()


async def test_file_path_is_state_dir_class_name_id(
    ns: DurableObjectNamespace, tmp_path: Path
) -> None:
    object_id = ns.idFromName("a")
    await ns.get(object_id).increment()
    assert (tmp_path / "Scratchpad" / f"{object_id.toString()}.sqlite").is_file()


# --- SQL API -------------------------------------------------------------------------------


def test_cursor_to_array_and_column_names(storage: DurableObjectStorage) -> None:
    sql = storage.sql
    sql.exec("CREATE TABLE t (a INTEGER, b TEXT)")
    sql.exec("INSERT INTO t VALUES (1, 'x'), (2, 'y')")
    cursor = sql.exec("SELECT a, b FROM t ORDER BY a")
    assert cursor.columnNames == ["a", "b"]
    rows = cursor.toArray()
    assert rows == [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}] and isinstance(rows[0], JsDict)


def test_cursor_raw_iterates_lists_and_has_to_array(storage: DurableObjectStorage) -> None:
    assert list(storage.sql.exec("SELECT 1 AS a, 2 AS b").raw()) == [[1, 2]]
    assert storage.sql.exec("SELECT 1, 2 UNION ALL SELECT 3, 4").raw().toArray() == [[1, 2], [3, 4]]


def test_cursor_iteration_and_next(storage: DurableObjectStorage) -> None:
    assert [row.n for row in storage.sql.exec("SELECT 1 AS n UNION ALL SELECT 2")] == [1, 2]
    cursor = storage.sql.exec("SELECT 1 AS n")
    assert cursor.next() == {"done": False, "value": {"n": 1}}
    assert cursor.next() == {"done": True, "value": None}


def test_cursor_has_no_len(storage: DurableObjectStorage) -> None:
    with pytest.raises(TypeError):
        len(storage.sql.exec("SELECT 1"))


@pytest.mark.parametrize(
    ("sql", "text"),
    [("SELECT 1 WHERE 0", ONE_NO_RESULTS), ("SELECT 1 UNION ALL SELECT 2", ONE_MANY_RESULTS)],
)
def test_one_errors(storage: DurableObjectStorage, sql: str, text: str) -> None:
    with pytest.raises(JsException) as caught:
        storage.sql.exec(sql).one()
    assert (caught.value.name, caught.value.message) == ("Error", text)


def test_one_texts_are_exact() -> None:
    assert ONE_NO_RESULTS == "Expected exactly one result from SQL query, but got no results."
    assert (
        ONE_MANY_RESULTS == "Expected exactly one result from SQL query, but got multiple results."
    )


def test_rows_read_and_written(storage: DurableObjectStorage) -> None:
    storage.sql.exec("CREATE TABLE t (a)")
    insert = storage.sql.exec("INSERT INTO t VALUES (1), (2), (3)")
    assert insert.rowsWritten == 3
    cursor = storage.sql.exec("SELECT a FROM t")
    assert cursor.rowsWritten == 0
    cursor.toArray()
    assert cursor.rowsRead == 3


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("s", "s"),
        (5, 5),
        (2.5, 2.5),
        (4.0, 4),
        (None, None),
        (b"\x01\x02", memoryview(b"\x01\x02")),
        (memoryview(b"\x03"), memoryview(b"\x03")),
    ],
)
def test_binding_and_result_values(
    storage: DurableObjectStorage, value: Any, expected: Any
) -> None:
    got = storage.sql.exec("SELECT ? AS v", value).one()["v"]
    assert got == expected and type(got) is type(expected)


def test_whole_real_column_comes_back_as_int(storage: DurableObjectStorage) -> None:
    assert storage.sql.exec("SELECT CAST(3 AS REAL) AS v").one()["v"] == 3
    assert type(storage.sql.exec("SELECT CAST(3 AS REAL) AS v").one()["v"]) is int


@pytest.mark.parametrize("value", [True, False, 2**53, {"a": 1}, [1], dt.datetime(2026, 1, 1)])
def test_unsupported_bindings_are_type_errors(storage: DurableObjectStorage, value: Any) -> None:
    with pytest.raises(JsException) as caught:
        storage.sql.exec("SELECT ?", value)
    assert caught.value.name == "TypeError"


def test_tuple_binding_is_refused_by_the_sdk(storage: DurableObjectStorage) -> None:
    with pytest.raises(TypeError, match=re.escape("<class 'tuple'> cannot be sent over RPC.")):
        storage.sql.exec("SELECT ?", (1,))


@pytest.mark.parametrize(
    "sql",
    [
        "BEGIN",
        "BEGIN TRANSACTION",
        "begin immediate",
        "COMMIT",
        "ROLLBACK",
        "SAVEPOINT s",
        "RELEASE s",
        "END",
    ],
)
def test_transaction_statements_are_refused(storage: DurableObjectStorage, sql: str) -> None:
    with pytest.raises(JsException) as caught:
        storage.sql.exec(sql)
    assert caught.value.message.startswith(TRANSACTION_TEXT)
    assert caught.value.message.endswith("automatic atomic write coalescing.")


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM _cf_KV",
        "CREATE TABLE _cf_mine (a)",
        "DROP TABLE _cf_METADATA",
        "ATTACH 'x.db' AS x",
    ],
)
def test_reserved_names_are_not_authorized(storage: DurableObjectStorage, sql: str) -> None:
    # SQLite words the refusal by action ("not authorized", "access to _cf_KV.key is prohibited").
    with pytest.raises(JsException, match=r"^Error: .*(not authorized|prohibited): SQLITE_AUTH$"):
        storage.sql.exec(sql)


@pytest.mark.parametrize(
    ("sql", "params", "message"),
    [
        ("SELECT " + ",".join(["?"] * 101), [1] * 101, "too many SQL variables: SQLITE_ERROR"),
        ("SELECT 1 " + " " * 100_000, [], "statement too long: SQLITE_TOOBIG"),
        ("SELECT ?", ["x" * 2_000_001], "string or blob too big: SQLITE_TOOBIG"),
        (
            "SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 UNION SELECT 6",
            [],
            "too many terms in compound SELECT: SQLITE_ERROR",
        ),
    ],
)
def test_limits(storage: DurableObjectStorage, sql: str, params: list[Any], message: str) -> None:
    with pytest.raises(JsException) as caught:
        storage.sql.exec(sql, *params)
    assert caught.value.message == message


def test_multiple_statements_run_and_the_last_one_takes_bindings(
    storage: DurableObjectStorage,
) -> None:
    cursor = storage.sql.exec(
        "CREATE TABLE t (a); INSERT INTO t VALUES (1); SELECT a + ? AS b FROM t", 10
    )
    assert cursor.toArray() == [{"b": 11}]


def test_bindings_in_an_earlier_statement_are_refused(storage: DurableObjectStorage) -> None:
    with pytest.raises(JsException, match="only the last statement can have parameters"):
        storage.sql.exec("SELECT ?; SELECT 1", 1)


def test_database_size_counts_pages_in_use_at_its_first_read(storage: DurableObjectStorage) -> None:
    storage.sql.exec("CREATE TABLE t (a)")
    storage.sql.exec("INSERT INTO t VALUES (?)", "x" * 100_000)
    size = storage.sql.databaseSize
    assert size > 100_000 and size % 1024 == 0


def test_database_size_is_frozen_at_its_first_read_like_the_sdk_wrapper(
    storage: DurableObjectStorage,
) -> None:
    first = storage.sql.databaseSize
    storage.sql.exec("CREATE TABLE t (a)")
    storage.sql.exec("INSERT INTO t VALUES (?)", "x" * 100_000)
    assert storage.sql.databaseSize == first


# --- transactions --------------------------------------------------------------------------


def test_transaction_sync_commits(storage: DurableObjectStorage) -> None:
    storage.sql.exec("CREATE TABLE t (a)")
    assert (
        storage.transactionSync(lambda: storage.sql.exec("INSERT INTO t VALUES (1)").rowsWritten)
        == 1
    )
    assert storage.sql.exec("SELECT count(*) AS n FROM t").one().n == 1


def test_transaction_sync_rolls_back_and_raises_the_original(storage: DurableObjectStorage) -> None:
    storage.sql.exec("CREATE TABLE t (a)")

    def work() -> None:
        storage.sql.exec("INSERT INTO t VALUES (1)")
        raise KeyError("original")

    with pytest.raises(KeyError, match="original"):
        storage.transactionSync(work)
    assert storage.sql.exec("SELECT count(*) AS n FROM t").one().n == 0


def test_nested_transaction_sync_rolls_back_only_the_inner(storage: DurableObjectStorage) -> None:
    storage.sql.exec("CREATE TABLE t (a)")

    def inner() -> None:
        storage.sql.exec("INSERT INTO t VALUES (2)")
        raise ValueError

    def outer() -> None:
        storage.sql.exec("INSERT INTO t VALUES (1)")
        with pytest.raises(ValueError):
            storage.transactionSync(inner)

    storage.transactionSync(outer)
    assert storage.sql.exec("SELECT a FROM t").raw().toArray() == [[1]]


async def test_async_transaction_commits_or_rolls_back(storage: DurableObjectStorage) -> None:
    async def keep(txn: Any) -> str:
        await txn.put("a", 1)
        return "done"

    async def explode(txn: Any) -> None:
        await txn.put("b", 2)
        raise RuntimeError("no")

    async def roll(txn: Any) -> None:
        await txn.put("c", 3)
        txn.rollback()

    assert await storage.transaction(keep) == "done"
    with pytest.raises(RuntimeError):
        await storage.transaction(explode)
    await storage.transaction(roll)
    assert await storage.list() == {"a": 1}


# --- key-value -----------------------------------------------------------------------------


async def test_kv_get_put_delete(storage: DurableObjectStorage) -> None:
    assert await storage.get("missing") is None
    await storage.put("k", {"n": 1, "b": b"x", "f": 2.0, "ok": True})
    value = await storage.get("k")
    assert value == {"n": 1, "b": memoryview(b"x"), "f": 2, "ok": True}
    assert isinstance(value, JsDict) and value.ok is True
    assert await storage.delete("k") is True
    assert await storage.delete("k") is False


async def test_kv_multi_key_forms(storage: DurableObjectStorage) -> None:
    await storage.put({"a": 1, "b": "two", "c": 3.5})
    assert await storage.get(["a", "c", "zz"]) == {"a": 1, "c": 3.5}
    assert await storage.delete(["a", "b", "zz"]) == 2


async def test_kv_refuses_tuples(storage: DurableObjectStorage) -> None:
    with pytest.raises(TypeError, match="cannot be sent over RPC"):
        await storage.put("k", (1, 2))


async def test_kv_value_size_limit(storage: DurableObjectStorage) -> None:
    with pytest.raises(JsException, match="RangeError: Values cannot be larger than 2000000 bytes"):
        await storage.put("k", "x" * 2_000_001)


@pytest.mark.parametrize(
    ("options", "kwargs", "keys"),
    [
        (None, {}, ["a1", "a2", "b1", "c"]),
        ({"prefix": "a"}, {}, ["a1", "a2"]),
        (None, {"prefix": "a"}, ["a1", "a2"]),
        ({"limit": 2}, {}, ["a1", "a2"]),
        ({"reverse": True, "limit": 2}, {}, ["c", "b1"]),
        ({"start": "a2", "end": "c"}, {}, ["a2", "b1"]),
        ({"startAfter": "a2"}, {}, ["b1", "c"]),
    ],
)
async def test_kv_list(
    storage: DurableObjectStorage,
    options: dict[str, Any] | None,
    kwargs: dict[str, Any],
    keys: list[str],
) -> None:
    await storage.put({"c": 4, "a2": 2, "b1": 3, "a1": 1})
    listed = await storage.list(options, **kwargs)
    assert isinstance(listed, JsDict) and list(listed) == keys


async def test_kv_is_invisible_to_user_sql(storage: DurableObjectStorage) -> None:
    await storage.put("k", 1)
    tables = storage.sql.exec(
        "SELECT name FROM sqlite_master WHERE name NOT LIKE '\\_cf\\_%' ESCAPE '\\'"
    )
    assert tables.toArray() == []


async def test_delete_all_clears_sql_kv_and_alarm(ns: DurableObjectNamespace) -> None:
    stub = ns.getByName("a")
    await stub.increment()
    await stub.schedule(10_000_000_000_000)
    alarm, value, tables = await stub.clear_everything()
    assert (alarm, value, tables) == (None, None, [])


async def test_storage_calls_yield_to_the_event_loop(storage: DurableObjectStorage) -> None:
    order: list[str] = []

    async def other() -> None:
        order.append("other")

    task = asyncio.ensure_future(other())
    await storage.get("k")
    order.append("get done")
    await task
    assert order == ["other", "get done"]


# --- alarms --------------------------------------------------------------------------------


@pytest.fixture
def alarmed(tmp_path: Path, clock: ManualClock) -> Iterator[DurableObjectNamespace]:
    Alarmed.calls = []
    Alarmed.failures_left = 0
    namespace = make_namespace(Alarmed, tmp_path, clock)
    yield namespace
    namespace.close()


async def test_set_and_get_alarm_with_number_or_datetime(ns: DurableObjectNamespace) -> None:
    stub = ns.getByName("a")
    assert await stub.schedule(1_800_000_000_000) == 1_800_000_000_000
    when = dt.datetime(2027, 1, 1, tzinfo=dt.UTC)
    assert await stub.schedule(when) == int(when.timestamp() * 1000)


async def test_alarm_fires_when_due_and_is_unset_during_the_handler(
    alarmed: DurableObjectNamespace, clock: ManualClock
) -> None:
    stub = alarmed.getByName("a")
    at = clock.now_ms() + 60_000
    await stub.schedule(at)
    assert alarmed.next_alarm_ms() == at
    assert await alarmed.run_due_alarms() == []
    clock.advance(60)
    assert await alarmed.run_due_alarms() == [stub.id]
    assert Alarmed.calls == [(0, False, None)]
    assert alarmed.next_alarm_ms() is None


async def test_alarm_of_an_evicted_object_constructs_it(
    alarmed: DurableObjectNamespace, clock: ManualClock
) -> None:
    stub = alarmed.getByName("a")
    await stub.schedule(clock.now_ms())
    alarmed.evict_all()
    ran = await alarmed.run_due_alarms()
    assert ran == [stub.id] and ran[0].name == "a" and len(Alarmed.calls) == 1


async def test_alarm_survives_a_restart(tmp_path: Path, clock: ManualClock) -> None:
    Alarmed.calls = []
    Alarmed.failures_left = 0
    first = make_namespace(Alarmed, tmp_path, clock)
    await first.getByName("a").schedule(clock.now_ms() + 1_000)
    first.close()
    second = make_namespace(Alarmed, tmp_path, clock)
    try:
        assert second.next_alarm_ms() == clock.now_ms() + 1_000
        clock.advance(1)
        assert len(await second.run_due_alarms()) == 1
    finally:
        second.close()


async def test_failed_alarm_retries_with_exponential_backoff(
    alarmed: DurableObjectNamespace, clock: ManualClock
) -> None:
    Alarmed.failures_left = 100
    await alarmed.getByName("a").schedule(clock.now_ms())
    delays = []
    for _ in range(7):
        before = clock.now_ms()
        await alarmed.run_due_alarms()
        next_ms = alarmed.next_alarm_ms()
        if next_ms is None:
            break
        delays.append((next_ms - before) / 1000)
        clock.advance((next_ms - before) / 1000)
    assert delays == [2, 4, 8, 16, 32, 64]
    assert [(c[0], c[1]) for c in Alarmed.calls] == [(0, False)] + [(n, True) for n in range(1, 7)]
    assert alarmed.next_alarm_ms() is None


async def test_alarm_success_after_retry_resets_the_retry_count(
    alarmed: DurableObjectNamespace, clock: ManualClock
) -> None:
    Alarmed.failures_left = 1
    stub = alarmed.getByName("a")
    await stub.schedule(clock.now_ms())
    await alarmed.run_due_alarms()
    clock.advance(2)
    await alarmed.run_due_alarms()
    await stub.schedule(clock.now_ms())
    await alarmed.run_due_alarms()
    assert [c[:2] for c in Alarmed.calls] == [(0, False), (1, True), (0, False)]


async def test_alarm_handler_without_parameters_is_called_relaxed(
    tmp_path: Path, clock: ManualClock
) -> None:
    NoArgAlarm.fired = 0
    ns = make_namespace(NoArgAlarm, tmp_path, clock)
    try:
        await ns.getByName("a").schedule(clock.now_ms())
        await ns.run_due_alarms()
        assert NoArgAlarm.fired == 1
    finally:
        ns.close()


async def test_delete_alarm(storage: DurableObjectStorage) -> None:
    await storage.setAlarm(5)
    await storage.deleteAlarm()
    assert await storage.getAlarm() is None
