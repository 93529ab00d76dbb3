"""`ctx.storage.sql`: a Durable Object's synchronous SQL API and its cursor.

Shapes and texts: docs/platform.md §2.1.

`exec()` runs every statement of a script at once, hands rows out lazily through a cursor shaped
like the SDK's wrapper of workerd's `SqlStorageCursor`, and converts values the way they cross the
FFI (numbers through `js_number`, BLOBs as memoryview). Limits and the refusal of SQL transaction
statements come from the SQLite plumbing shared with D1 (d1.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

from local_platform.d1 import (
    TRANSACTION_REFUSED,
    SqlGuard,
    SqlValue,
    check_statement_length,
    database_size,
    split_statements,
    sqlite_message,
)
from local_platform.errors import JsException, js_error, js_type_error
from local_platform.rpc import MAX_SAFE_INTEGER, JsDict, js_number, refuse_disabled_types

COMPOUND_SELECT_LIMIT = 5  # workerd `setupSecurity`
ONE_NO_RESULTS = "Expected exactly one result from SQL query, but got no results."
ONE_MANY_RESULTS = "Expected exactly one result from SQL query, but got multiple results."
MULTI_STATEMENT_BINDINGS = (
    "When executing multiple SQL statements in a single call, only the last statement can have "
    "parameters."
)


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
