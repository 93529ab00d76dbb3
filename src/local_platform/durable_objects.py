"""Durable Objects on the local platform: namespaces, stubs with RPC, ctx, storage and alarms.

Theory of operation. A `DurableObjectNamespace` keeps at most one live instance per object id and
builds it lazily as `cls(ctx, env)`. Everything an object stores lives in one SQLite file,
`<state_dir>/<class_name>/<id hex>.sqlite`: the user's SQL tables, the key-value API (table
`_cf_KV`) and the alarm (table `_cf_METADATA`). User SQL may not touch `_cf_` names, exactly as
workerd refuses them, so the platform's tables cannot collide with ours. Because the file is the
only state, `evict()` (or a new namespace object over the same state_dir, i.e. a restarted
process) builds a fresh instance that sees every committed write and every pending alarm.

Durability model: outside `transactionSync()`/`transaction()` every statement commits on its own,
so an exec is durable as soon as it returns (the real runtime coalesces writes until the output
gate opens; nothing observable from one process differs except under a crash mid-turn).

RPC follows platform.md §1.3: arguments and results cross with `rpc_crossing` (tuples refused,
bytes → memoryview, dict → JsDict, 32 MiB cap), only public plain functions of the class are
callable, and an exception in the callee reaches the caller as `JsException("Error",
"PythonError: <traceback>")`. A `JsException` raised inside the callee (say a SQL error) passes
through unchanged, as Pyodide rethrows the original JS error.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import inspect
import pickle
import re
import secrets
import sqlite3
import traceback
from collections.abc import Awaitable, Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from local_platform.clock import Clock
from local_platform.d1 import (
    TRANSACTION_REFUSED,
    SqlGuard,
    SqlValue,
    check_statement_length,
    database_size,
    open_sqlite,
    split_statements,
    sqlite_message,
)
from local_platform.errors import JsException, js_error, js_type_error
from local_platform.rpc import (
    MAX_SAFE_INTEGER,
    JsDict,
    crossing,
    js_number,
    refuse_disabled_types,
    rpc_crossing,
)

ALARM_FIRST_RETRY_SECONDS = 2.0  # docs: exponential backoff starting at 2 s
ALARM_MAX_RETRIES = 6
# Docs: key + value at most 2 MB. Assumption: measured as key UTF-8 bytes + stored value bytes,
# and refused with a RangeError worded like workerd's old KV-backed limit.
KV_MAX_BYTES = 2_000_000
COMPOUND_SELECT_LIMIT = 5  # workerd `setupSecurity`

ONE_NO_RESULTS = "Expected exactly one result from SQL query, but got no results."
ONE_MANY_RESULTS = "Expected exactly one result from SQL query, but got multiple results."
MULTI_STATEMENT_BINDINGS = (
    "When executing multiple SQL statements in a single call, only the last statement can have "
    "parameters."
)
_HEX_ID = re.compile(r"^[0-9a-f]{64}$")


class DurableObjectAbort(BaseException):
    """Raised by `ctx.abort()`; a BaseException so `except Exception` cannot swallow it (SDK)."""


# ---------------------------------------------------------------------------------------------
# Ids
# ---------------------------------------------------------------------------------------------


class DurableObjectId:
    """`DurableObjectId`: 64 hex digits, with the name it was derived from when there is one."""

    def __init__(self, hex_id: str, name: str | None = None) -> None:
        self._hex = hex_id
        self.name = name

    def toString(self) -> str:
        return self._hex

    def equals(self, other: DurableObjectId) -> bool:
        return self._hex == other._hex

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DurableObjectId) and self._hex == other._hex

    def __hash__(self) -> int:
        return hash(self._hex)

    def __str__(self) -> str:
        return self._hex

    def __repr__(self) -> str:
        return f"DurableObjectId({self._hex!r}, name={self.name!r})"


# ---------------------------------------------------------------------------------------------
# SQL API
# ---------------------------------------------------------------------------------------------


def _sql_binding(value: Any, position: int) -> SqlValue:
    """workerd's `BindingValue`: string, number, ArrayBuffer(View) or null.

    Assumption: booleans, BigInts (ints beyond ±(2^53-1)) and other objects are refused with a
    TypeError worded the way JSG words an argument of the wrong type.
    """
    refuse_disabled_types(value)  # the SDK's python_to_rpc runs first
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (bytes, memoryview)):
        return bytes(value)
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if is_number and not (isinstance(value, int) and abs(value) > MAX_SAFE_INTEGER):
        return js_number(value)
    raise js_type_error(
        f"Failed to execute 'exec' on 'SqlStorage': parameter {position} is not of type "
        "'ArrayBuffer or ArrayBufferView or string or number'."
    )


def _sql_result(value: Any) -> Any:
    if isinstance(value, bytes):
        return memoryview(value)  # ArrayBuffer arrives as memoryview
    if isinstance(value, (int, float)):
        return js_number(value)  # a number column: whole REAL → int, huge INTEGER → float
    return value


class _RawRows:
    """`cursor.raw()`: an iterator of lists that also has `toArray()`."""

    def __init__(self, cursor: SqlStorageCursor) -> None:
        self._cursor = cursor

    def __iter__(self) -> Iterator[list[Any]]:
        return self

    def __next__(self) -> list[Any]:
        row = self._cursor._take()
        if row is None:
            raise StopIteration
        return row

    def toArray(self) -> list[list[Any]]:
        return list(self)


class SqlStorageCursor:
    """`SqlStorageCursor` as the SDK wraps it. Rows are read at `exec()` time and handed out lazily.

    `rowsWritten` counts rows changed (incl. triggers). `rowsRead` is an approximation: rows
    returned so far plus rows changed (an UPDATE or DELETE reads what it changes); SQLite's own
    count of scanned rows is higher for scans, so treat ours as a lower bound.
    """

    def __init__(self, columns: list[str], rows: list[tuple[Any, ...]], rows_written: int) -> None:
        self.columnNames = columns
        self.rowsWritten = rows_written
        self._rows = rows
        self._position = 0

    @property
    def rowsRead(self) -> int:
        return self._position + self.rowsWritten

    def _take(self) -> list[Any] | None:
        if self._position >= len(self._rows):
            return None
        row = self._rows[self._position]
        self._position += 1
        return [_sql_result(v) for v in row]

    def _take_dict(self) -> JsDict | None:
        row = self._take()
        return None if row is None else JsDict(zip(self.columnNames, row, strict=True))

    def next(self) -> JsDict:
        row = self._take_dict()
        return JsDict(done=row is None, value=row)

    def toArray(self) -> list[JsDict]:
        return list(self)

    def one(self) -> JsDict:
        row = self._take_dict()
        if row is None:
            raise js_error(ONE_NO_RESULTS)
        if self._position < len(self._rows):
            self._position = len(self._rows)
            raise js_error(ONE_MANY_RESULTS)
        return row

    def raw(self) -> _RawRows:
        return _RawRows(self)

    def __iter__(self) -> Iterator[JsDict]:
        return self

    def __next__(self) -> JsDict:
        row = self._take_dict()
        if row is None:
            raise StopIteration
        return row

    def __bool__(self) -> bool:
        return True  # the SDK's wrapper defines __bool__, so truthiness never reaches __len__

    def __len__(self) -> int:
        raise TypeError("'SqlStorageCursor' object has no len()")


class SqlStorage:
    """`ctx.storage.sql`: synchronous `exec()` with workerd's limits and refusals."""

    def __init__(self, conn: sqlite3.Connection, guard: SqlGuard) -> None:
        self._conn = conn
        self._guard = guard
        self._frozen_size: int | None = None

    def exec(self, query: str, *bindings: Any) -> SqlStorageCursor:
        params = [_sql_binding(v, i) for i, v in enumerate(bindings, start=2)]
        statements = split_statements(query)
        if not statements:
            raise js_error("SQL code did not contain a statement.")
        before = self._conn.total_changes
        self._guard.refused_transaction = False
        try:
            check_statement_length(query)
            self._run_leading(statements[:-1])
            cursor = self._conn.execute(statements[-1], params)
            rows = cursor.fetchall()
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        columns = [d[0] for d in cursor.description or ()]
        return SqlStorageCursor(columns, rows, self._conn.total_changes - before)

    def _run_leading(self, statements: list[str]) -> None:
        # Like workerd, statements before the last run at once and may not take parameters.
        for statement in statements:
            try:
                self._conn.execute(statement)
            except sqlite3.ProgrammingError as exc:
                if "Incorrect number of bindings" not in str(exc):
                    raise
                raise js_error(MULTI_STATEMENT_BINDINGS) from None

    def _error(self, exc: sqlite3.Error) -> JsException:
        if self._guard.refused_transaction:
            return js_error(TRANSACTION_REFUSED)
        return js_error(sqlite_message(exc))

    @property
    def databaseSize(self) -> int:
        """workerd: (page_count - freelist_count) * page_size, i.e. pages in use.

        As seen from Python through the SDK, the value is the *first* read for the life of the
        object: the SDK's `_BindingWrapper.__getattr__` caches every attribute it reads, and
        `ctx.storage` and `storage.sql` are cached wrappers themselves (found by the Pyodide
        tier's conformance suite). Code that needs a growing size must track it itself.
        """
        if self._frozen_size is None:
            with self._guard.trusted():
                freelist = self._conn.execute("PRAGMA freelist_count").fetchone()[0]
                page_size = self._conn.execute("PRAGMA page_size").fetchone()[0]
                self._frozen_size = database_size(self._conn) - int(freelist * page_size)
        return self._frozen_size


# ---------------------------------------------------------------------------------------------
# Storage: KV, transactions, alarms
# ---------------------------------------------------------------------------------------------

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS _cf_KV (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS _cf_METADATA (key TEXT PRIMARY KEY, value) WITHOUT ROWID",
)
_LIST_OPTIONS = {
    "start",
    "startAfter",
    "end",
    "prefix",
    "reverse",
    "limit",
    "allowConcurrency",
    "noCache",
}


def _encode(value: Any) -> bytes:
    """Store what the structured clone would have kept (pickle: the file is our own state)."""
    return pickle.dumps(_picklable(crossing(value)))


def _decode(blob: bytes) -> Any:
    return crossing(pickle.loads(blob))


def _picklable(value: Any) -> Any:
    if isinstance(value, memoryview):
        return value.tobytes()
    if isinstance(value, dict):
        return {k: _picklable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_picklable(v) for v in value]
    return value


def _alarm_ms(scheduled: Any) -> int | float:
    if isinstance(scheduled, dt.datetime):
        aware = scheduled if scheduled.tzinfo else scheduled.replace(tzinfo=dt.UTC)
        return js_number(float(int(aware.timestamp() * 1000)))
    if isinstance(scheduled, (int, float)) and not isinstance(scheduled, bool):
        return js_number(scheduled)
    raise js_type_error("setAlarm() requires a number of milliseconds or a Date")


class DurableObjectStorage:
    """`ctx.storage`: SQL, key-value, transactions and the alarm, all in one SQLite file."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._guard = SqlGuard()
        self._conn = open_sqlite(path, self._guard, compound_select=COMPOUND_SELECT_LIMIT)
        self._savepoints = 0
        with self._guard.trusted():
            for statement in _SCHEMA:
                self._conn.execute(statement)
        self.sql = SqlStorage(self._conn, self._guard)

    def close(self) -> None:
        self._conn.close()

    def _internal(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        with self._guard.trusted():
            return self._conn.execute(sql, params).fetchall()

    # -- key-value ------------------------------------------------------------------------

    async def get(self, keys: str | list[str], options: Any = None) -> Any:
        await asyncio.sleep(0)
        if isinstance(keys, list):
            marks = ",".join("?" * len(keys))
            rows = self._internal(
                f"SELECT key, value FROM _cf_KV WHERE key IN ({marks}) ORDER BY key", *keys
            )
            return JsDict((key, _decode(value)) for key, value in rows)
        rows = self._internal("SELECT value FROM _cf_KV WHERE key = ?", keys)
        return _decode(rows[0][0]) if rows else None

    async def put(
        self, key: str | Mapping[str, Any], value: Any = None, options: Any = None
    ) -> None:
        entries = dict(key) if isinstance(key, Mapping) else {key: value}
        encoded = [(k, _checked_size(k, _encode(v))) for k, v in entries.items()]
        await asyncio.sleep(0)
        self.transactionSync(lambda: self._put_rows(encoded))

    def _put_rows(self, rows: list[tuple[str, bytes]]) -> None:
        with self._guard.trusted():
            self._conn.executemany("INSERT OR REPLACE INTO _cf_KV (key, value) VALUES (?, ?)", rows)

    async def delete(self, keys: str | list[str], options: Any = None) -> bool | int:
        await asyncio.sleep(0)
        targets = keys if isinstance(keys, list) else [keys]
        before = self._conn.total_changes
        with self._guard.trusted():
            self._conn.executemany("DELETE FROM _cf_KV WHERE key = ?", [(k,) for k in targets])
        deleted = self._conn.total_changes - before
        return deleted if isinstance(keys, list) else deleted > 0

    async def list(self, options: Mapping[str, Any] | None = None, **kwargs: Any) -> JsDict:
        await asyncio.sleep(0)
        chosen = {**(options or {}), **kwargs}
        unknown = set(chosen) - _LIST_OPTIONS
        if unknown:
            raise js_type_error(f"Unknown list() option(s): {sorted(unknown)}")
        sql, params = _list_query(chosen)
        return JsDict((key, _decode(value)) for key, value in self._internal(sql, *params))

    async def deleteAll(self, options: Any = None) -> None:
        """Everything goes: SQL tables, KV and (compat date ≥ 2026-02-24) the alarm."""
        await asyncio.sleep(0)
        with self._guard.trusted():
            self._drop_user_schema()
            self._conn.execute("DELETE FROM _cf_KV")
        self.forget_alarm()

    def _drop_user_schema(self) -> None:
        rows = self._conn.execute(
            "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger') "
            "AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'"
        ).fetchall()
        foreign_keys = self._savepoints == 0  # the pragma is a no-op inside a transaction
        if foreign_keys:
            self._conn.execute("PRAGMA foreign_keys=OFF")
        for kind, name in rows:
            self._conn.execute(f'DROP {kind.upper()} IF EXISTS "{name.replace('"', '""')}"')
        if foreign_keys:
            self._conn.execute("PRAGMA foreign_keys=ON")

    async def sync(self) -> None:
        await asyncio.sleep(0)  # every write is already committed (see the module docstring)

    # -- transactions ---------------------------------------------------------------------

    def transactionSync(self, fn: Callable[[], Any]) -> Any:
        """Run `fn` in a savepoint; an exception rolls it back and propagates unchanged."""
        name = f"_cf_sp{self._savepoints}"
        self._internal(f"SAVEPOINT {name}")
        self._savepoints += 1
        try:
            result = fn()
        except BaseException:
            self._savepoints -= 1
            self._internal(f"ROLLBACK TO {name}")
            self._internal(f"RELEASE {name}")
            raise
        self._savepoints -= 1
        self._internal(f"RELEASE {name}")
        return result

    async def transaction(self, fn: Callable[[_Transaction], Awaitable[Any]]) -> Any:
        """`fn(txn)` in a savepoint. Assumption: txn offers this storage's KV and alarm API plus
        `rollback()`, and converts values as the wrapped storage does (the real txn is raw JS)."""
        await asyncio.sleep(0)
        txn = _Transaction(self)
        name = f"_cf_sp{self._savepoints}"
        self._internal(f"SAVEPOINT {name}")
        self._savepoints += 1
        try:
            result = await fn(txn)
        except BaseException:
            txn.rolled_back = True
            raise
        finally:
            self._savepoints -= 1
            if txn.rolled_back:
                self._internal(f"ROLLBACK TO {name}")
            self._internal(f"RELEASE {name}")
        return result

    # -- alarms ---------------------------------------------------------------------------

    async def setAlarm(self, scheduled: Any, options: Any = None) -> None:
        ms = _alarm_ms(scheduled)
        await asyncio.sleep(0)
        self.arm_alarm(ms, retry=0)

    async def getAlarm(self, options: Any = None) -> int | float | None:
        await asyncio.sleep(0)
        return self.alarm_ms()

    async def deleteAlarm(self, options: Any = None) -> None:
        await asyncio.sleep(0)
        self._internal("DELETE FROM _cf_METADATA WHERE key = 'alarm'")

    def arm_alarm(self, ms: float, *, retry: int) -> None:
        """Platform side: set the alarm and how many retries have already happened."""
        self._set_metadata("alarm", ms)
        self._set_metadata("alarm_retry", retry)

    def take_alarm(self) -> int:
        """Platform side: unset the alarm before its handler runs; return its retry count."""
        retry = int(self.metadata("alarm_retry") or 0)
        self._internal("DELETE FROM _cf_METADATA WHERE key = 'alarm'")
        self._set_metadata("alarm_retry", 0)
        return retry

    def forget_alarm(self) -> None:
        self._internal("DELETE FROM _cf_METADATA WHERE key IN ('alarm', 'alarm_retry')")

    def alarm_ms(self) -> int | float | None:
        value = self.metadata("alarm")
        return None if value is None else js_number(value)

    def metadata(self, key: str) -> Any:
        rows = self._internal("SELECT value FROM _cf_METADATA WHERE key = ?", key)
        return rows[0][0] if rows else None

    def _set_metadata(self, key: str, value: Any) -> None:
        self._internal("INSERT OR REPLACE INTO _cf_METADATA (key, value) VALUES (?, ?)", key, value)

    def remember_name(self, name: str | None) -> None:
        if name is not None and self.metadata("name") is None:
            self._set_metadata("name", name)


def _checked_size(key: str, blob: bytes) -> bytes:
    size = len(key.encode("utf-8", "surrogatepass")) + len(blob)
    if size > KV_MAX_BYTES:
        raise JsException(
            "RangeError",
            f"Values cannot be larger than {KV_MAX_BYTES} bytes. "
            f"A value of size {size} was provided.",
        )
    return blob


def _list_query(options: Mapping[str, Any]) -> tuple[str, list[Any]]:
    clauses, params = ["1"], []
    for option, clause in (("start", "key >= ?"), ("startAfter", "key > ?"), ("end", "key < ?")):
        if options.get(option) is not None:
            clauses.append(clause)
            params.append(options[option])
    if options.get("prefix"):
        clauses.append("substr(key, 1, ?) = ?")
        params += [len(options["prefix"]), options["prefix"]]
    order = "DESC" if options.get("reverse") else "ASC"
    limit = options.get("limit")
    params.append(-1 if limit is None else int(limit))
    where = " AND ".join(clauses)
    return f"SELECT key, value FROM _cf_KV WHERE {where} ORDER BY key {order} LIMIT ?", params


class _Transaction:
    """The object `storage.transaction(fn)` hands to `fn`."""

    def __init__(self, storage: DurableObjectStorage) -> None:
        self._storage = storage
        self.rolled_back = False

    def rollback(self) -> None:
        self.rolled_back = True

    def __getattr__(self, name: str) -> Any:
        if name in {"get", "put", "delete", "list", "getAlarm", "setAlarm", "deleteAlarm"}:
            return getattr(self._storage, name)
        raise AttributeError(name)


# ---------------------------------------------------------------------------------------------
# ctx and live objects
# ---------------------------------------------------------------------------------------------


class _LiveObject:
    def __init__(self, object_id: DurableObjectId, storage: DurableObjectStorage) -> None:
        self.id = object_id
        self.storage = storage
        self.instance: Any = None
        self.gates: list[asyncio.Future[Any]] = []


class DurableObjectState:
    """`ctx` as a Python Durable Object sees it."""

    def __init__(self, live: _LiveObject, namespace: DurableObjectNamespace) -> None:
        self._live = live
        self._namespace = namespace
        self.id = live.id
        self.storage = live.storage

    def blockConcurrencyWhile(self, fn: Callable[[], Any]) -> asyncio.Future[Any]:
        """Start `fn` now and hold every later call until it finishes. Awaiting gives its result;
        a sync constructor may call it without awaiting."""
        gate = asyncio.ensure_future(_call_maybe_async(fn))
        self._live.gates.append(gate)
        return gate

    def waitUntil(self, awaitable: Awaitable[Any]) -> None:
        self._namespace._keep(asyncio.ensure_future(awaitable))

    def abort(self, reason: str | None = None) -> None:
        self._namespace.evict(self.id)
        raise DurableObjectAbort(reason or "Durable Object abort requested")


async def _call_maybe_async(fn: Callable[..., Any], *args: Any) -> Any:
    result = fn(*args)
    if inspect.isawaitable(result):
        result = await result
    return result


def python_error(exc: BaseException) -> JsException:
    """What the caller sees when a Python exception leaves a Durable Object (platform.md §1.3)."""
    text = "".join(traceback.format_exception(exc)).rstrip("\n")
    return js_error(f"PythonError: {text}")


def _rpc_method(cls: type, name: str) -> Callable[..., Any]:
    """Public plain functions only (incl. mixins); not static/class methods, not `_private`."""
    attr = None if name.startswith("_") else inspect.getattr_static(cls, name, None)
    if not inspect.isfunction(attr):
        raise js_type_error(f"Method {name} does not exist")
    return attr


def _accepts_argument(fn: Callable[..., Any]) -> bool:
    positional = {inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                  inspect.Parameter.VAR_POSITIONAL}  # fmt: skip
    return any(p.kind in positional for p in inspect.signature(fn).parameters.values())


# ---------------------------------------------------------------------------------------------
# Stubs and the namespace
# ---------------------------------------------------------------------------------------------


class DurableObjectStub:
    """`ns.get(id)`: `await stub.method(*args)` runs the method over (simulated) RPC."""

    def __init__(self, namespace: DurableObjectNamespace, object_id: DurableObjectId) -> None:
        self._namespace = namespace
        self.id = object_id
        self.name = object_id.name

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]:
        if name.startswith("__"):
            raise AttributeError(name)
        return lambda *args, **kwargs: self._send(name, args, kwargs)

    def _send(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Awaitable[Any]:
        # Python keyword arguments become one trailing JS object (Pyodide's calling convention).
        message = [*args, kwargs] if kwargs else list(args)
        sent = rpc_crossing(message)  # raises the SDK's TypeError before anything is sent
        return self._namespace._invoke(self.id, name, sent)


class DurableObjectNamespace:
    """A Durable Object namespace binding over `<state_dir>/<class_name>/`."""

    def __init__(
        self,
        class_name: str,
        cls: type,
        *,
        state_dir: Path | str,
        clock: Clock,
        env_provider: Callable[[], Any],
    ) -> None:
        self.class_name = class_name
        self._cls = cls
        self._dir = Path(state_dir) / class_name
        self._clock = clock
        self._env_provider = env_provider
        self._live: dict[str, _LiveObject] = {}
        self._background: set[asyncio.Future[Any]] = set()

    # -- ids and stubs --------------------------------------------------------------------

    def idFromName(self, name: str) -> DurableObjectId:
        digest = hashlib.sha256(f"{self.class_name}\0{name}".encode()).hexdigest()
        return DurableObjectId(digest, name)

    def newUniqueId(self, options: Any = None) -> DurableObjectId:
        return DurableObjectId(secrets.token_hex(32))

    def idFromString(self, hex_id: str) -> DurableObjectId:
        if not isinstance(hex_id, str) or not _HEX_ID.match(hex_id):
            raise js_type_error("Invalid Durable Object ID: must be 64 hex digits")
        return DurableObjectId(hex_id, self._stored_name(hex_id))

    def get(self, object_id: DurableObjectId, options: Any = None) -> DurableObjectStub:
        return DurableObjectStub(self, object_id)

    def getByName(self, name: str, options: Any = None) -> DurableObjectStub:
        return self.get(self.idFromName(name))

    # -- lifecycle ------------------------------------------------------------------------

    def evict(self, object_id: DurableObjectId) -> None:
        """Drop the live instance; the next call constructs it again over the same storage."""
        live = self._live.pop(object_id.toString(), None)
        if live is not None:
            live.storage.close()

    def evict_all(self) -> None:
        for live in list(self._live.values()):
            self.evict(live.id)

    def close(self) -> None:
        self.evict_all()

    def _path(self, hex_id: str) -> Path:
        return self._dir / f"{hex_id}.sqlite"

    def _stored_name(self, hex_id: str) -> str | None:
        live = self._live.get(hex_id)
        if live is not None:
            return live.id.name or live.storage.metadata("name")
        return _peek(self._path(hex_id), "name")

    def _live_object(self, object_id: DurableObjectId) -> _LiveObject:
        hex_id = object_id.toString()
        live = self._live.get(hex_id)
        if live is None:
            live = self._construct(object_id)
        return live

    def _construct(self, object_id: DurableObjectId) -> _LiveObject:
        storage = DurableObjectStorage(self._path(object_id.toString()))
        storage.remember_name(object_id.name)
        named = DurableObjectId(object_id.toString(), object_id.name or storage.metadata("name"))
        live = _LiveObject(named, storage)
        self._live[named.toString()] = live
        try:
            live.instance = self._cls(DurableObjectState(live, self), self._env_provider())
        except BaseException:
            self.evict(named)
            raise
        return live

    def _keep(self, task: asyncio.Future[Any]) -> None:
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # -- calls ----------------------------------------------------------------------------

    async def _invoke(self, object_id: DurableObjectId, name: str, args: list[Any]) -> Any:
        await asyncio.sleep(0)
        try:
            live = await self._ready(object_id)
            method = _rpc_method(type(live.instance), name)
            result = await _call_maybe_async(method, live.instance, *args)
            return rpc_crossing(result)
        except JsException:
            raise
        except DurableObjectAbort as abort:
            raise js_error(str(abort)) from None
        except Exception as exc:  # noqa: BLE001 - the RPC boundary turns every error into JS
            raise python_error(exc) from None

    async def _ready(self, object_id: DurableObjectId) -> _LiveObject:
        """The live object, once every pending `blockConcurrencyWhile` has finished."""
        live = self._live_object(object_id)
        while live.gates:
            gate = live.gates[0]
            await asyncio.wait([gate])
            if gate in live.gates:
                live.gates.remove(gate)
            failure = None if gate.cancelled() else gate.exception()
            if failure is not None:
                self.evict(live.id)  # the runtime resets an object whose gate callback threw
                raise failure
        return live

    # -- alarms ---------------------------------------------------------------------------

    def next_alarm_ms(self) -> int | float | None:
        """When the earliest alarm of any object (live or not) is due, for a scheduler."""
        times = self._alarms().values()
        return min(times, default=None)

    async def run_due_alarms(self) -> list[DurableObjectId]:
        """Run `alarm()` on every object whose alarm is due by the clock; returns their ids."""
        now = self._clock.now_ms()
        due = sorted((ms, hex_id) for hex_id, ms in self._alarms().items() if ms <= now)
        ran = []
        for _, hex_id in due:
            object_id = DurableObjectId(hex_id, self._stored_name(hex_id))
            await self._run_alarm(object_id)
            ran.append(object_id)
        return ran

    def _alarms(self) -> dict[str, int | float]:
        found = {}
        for path in sorted(self._dir.glob("*.sqlite")):
            live = self._live.get(path.stem)
            ms = live.storage.alarm_ms() if live else _peek(path, "alarm")
            if ms is not None:
                found[path.stem] = ms
        return found

    async def _run_alarm(self, object_id: DurableObjectId) -> None:
        retry = 0
        try:
            live = await self._ready(object_id)
            retry = live.storage.take_alarm()
            handler = getattr(live.instance, "alarm", None)
            if handler is None:
                return
            info = JsDict(retryCount=retry, isRetry=retry > 0)
            await _call_maybe_async(handler, *([info] if _accepts_argument(handler) else []))
        except (Exception, DurableObjectAbort):  # noqa: BLE001 - any failure means "retry"
            self._with_storage(object_id, lambda storage: self._rearm(storage, retry))

    def _rearm(self, storage: DurableObjectStorage, retry: int) -> None:
        """At-least-once: a failed handler runs again after 2 s, 4 s, ... up to 6 retries."""
        if retry >= ALARM_MAX_RETRIES:
            storage.forget_alarm()
            return
        delay_ms = ALARM_FIRST_RETRY_SECONDS * 1000 * 2**retry
        storage.arm_alarm(js_number(self._clock.now_ms() + delay_ms), retry=retry + 1)

    def _with_storage(
        self, object_id: DurableObjectId, action: Callable[[DurableObjectStorage], None]
    ) -> None:
        """Act on an object's storage whether or not it is live (an abort may have evicted it)."""
        live = self._live.get(object_id.toString())
        if live is not None:
            action(live.storage)
            return
        storage = DurableObjectStorage(self._path(object_id.toString()))
        try:
            action(storage)
        finally:
            storage.close()


def _peek(path: Path, key: str) -> Any:
    """Read one metadata value from an object's file without constructing the object."""
    if not path.exists():
        return None
    conn = sqlite3.connect(path)
    try:
        row = conn.execute("SELECT value FROM _cf_METADATA WHERE key = ?", (key,)).fetchone()
    except sqlite3.OperationalError:
        row = None  # the file predates its first storage open
    finally:
        conn.close()
    return None if row is None else row[0]
