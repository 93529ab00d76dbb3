"""D1 on the local platform: one SQLite file, presented the way the `workers` SDK presents D1.

Shapes, limits and error texts follow docs/platform.md §3 and workerd's `d1-api.ts`.
Every awaited call yields to the event loop once before it touches SQLite, so concurrent
coroutines interleave at the same points as they would around a real binding call.

The first half of this module is SQLite plumbing shared with `do_sql.py` and `do_storage_file.py`
(both bindings are SQLite underneath, with the same limits and the same refusal of SQL transaction
statements).

Error format (assumption, matching what D1 reports in production logs and in the SDK's tests):
`JsException("Error", "D1_ERROR: <sqlite message>: <primary result code name>")`, for example
`D1_ERROR: UNIQUE constraint failed: t.id: SQLITE_CONSTRAINT`.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from local_platform.errors import JsException, js_error
from local_platform.rpc import MAX_SAFE_INTEGER, JsDict, js_number, refuse_disabled_types

# ---------------------------------------------------------------------------------------------
# Shared SQLite plumbing
# ---------------------------------------------------------------------------------------------

MAX_BOUND_PARAMETERS = 100  # D1 and DO: SQLITE_LIMIT_VARIABLE_NUMBER
MAX_STATEMENT_BYTES = 100_000  # D1 and DO: SQLITE_LIMIT_SQL_LENGTH
# D1 and DO docs: 2 MB per string/BLOB/row. workerd's DO code allows 4 MiB; we take the stricter
# documented number so code that passes here passes everywhere.
MAX_VALUE_BYTES = 2_000_000
MAX_COLUMNS = 100
MAX_FUNCTION_ARGS = 32  # docs (workerd's DO code allows 127)
MAX_LIKE_PATTERN_BYTES = 50

TRANSACTION_REFUSED = (
    "To execute a transaction, please use the state.storage.transaction() or "
    "state.storage.transactionSync() APIs instead of the SQL BEGIN TRANSACTION or SAVEPOINT "
    "statements. The JavaScript API is safer because it will automatically roll back on "
    "exceptions, and because it interacts correctly with Durable Objects' automatic atomic "
    "write coalescing."
)
RESERVED_PREFIX = "_cf_"

# SQLite primary result codes (https://sqlite.org/rescode.html); extended codes keep the low byte.
_PRIMARY_CODES = {
    1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT",
    5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY",
    9: "SQLITE_INTERRUPT", 10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND",
    13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL", 16: "SQLITE_EMPTY",
    17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH",
    21: "SQLITE_MISUSE", 22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 24: "SQLITE_FORMAT",
    25: "SQLITE_RANGE", 26: "SQLITE_NOTADB",
}  # fmt: skip

# Errors CPython's sqlite3 raises itself (no SQLite code), rewritten as SQLite would word them.
_PYTHON_ERRORS = (
    ("Incorrect number of bindings", "Wrong number of parameter bindings for SQL query.", 25),
    ("query string is too large", "statement too long", 18),
    ("You can only execute one statement",
     "A prepared SQL statement must contain only one statement.", 1),
)  # fmt: skip

SqlValue = int | float | str | bytes | None


class SqlGuard:
    """SQLite authorizer: refuses transaction statements, ATTACH and `_cf_` names to user SQL.

    The platform's own bookkeeping (KV, alarms, savepoints) runs inside `trusted()`.
    `refused_transaction` tells the caller which refusal fired, because an authorizer can only
    say "not authorized" and the runtime's text for transactions is different.
    """

    _TRANSACTION_ACTIONS = (sqlite3.SQLITE_TRANSACTION, sqlite3.SQLITE_SAVEPOINT)

    def __init__(self) -> None:
        self.trusted_depth = 0
        self.refused_transaction = False

    def __call__(self, action: int, arg1: str | None, arg2: str | None, *_: Any) -> int:
        if self.trusted_depth:
            return sqlite3.SQLITE_OK
        if action in self._TRANSACTION_ACTIONS:
            self.refused_transaction = True
            return sqlite3.SQLITE_DENY
        if action in (sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH):
            return sqlite3.SQLITE_DENY
        if any(isinstance(a, str) and a.startswith(RESERVED_PREFIX) for a in (arg1, arg2)):
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    def trusted(self) -> _Trusted:
        return _Trusted(self)


class _Trusted:
    def __init__(self, guard: SqlGuard) -> None:
        self._guard = guard

    def __enter__(self) -> None:
        self._guard.trusted_depth += 1

    def __exit__(self, *_: object) -> None:
        self._guard.trusted_depth -= 1


WAL_CHECKPOINT_PAGES = 10_000


def open_sqlite(
    path: Path | str, guard: SqlGuard, *, compound_select: int | None, temp_in_memory: bool
) -> sqlite3.Connection:
    """Open a connection in autocommit mode with the platform's limits and authorizer.

    `temp_in_memory` keeps SQLite's temporary files in memory (`PRAGMA temp_store=MEMORY`; else
    FILE, whatever the build's default). A multi-row write inside a transaction (a D1 batch,
    `transactionSync`) keeps a statement journal so that it alone can be undone; on disk that
    journal spills to a new temp file past 64 KiB, which made a `pg` audit's issue inserts into D1
    a third slower. In memory the journal is bounded by the pages one statement changes, but temp
    b-trees (DISTINCT, IN lists, window partitions; https://sqlite.org/tempfiles.html) move to
    memory too, unbounded. Sorts do not: the sorter opens its own files whatever temp_store says
    (vdbeSorterOpenTempFile in https://sqlite.org/src/file/src/vdbesort.c).
    """
    conn = sqlite3.connect(path, isolation_level=None, timeout=5.0)
    conn.execute("PRAGMA journal_mode=WAL")
    # WAL with synchronous=NORMAL survives a killed process (the resume guarantee) without an
    # fsync per statement; only an OS crash can lose the last commits, never consistency.
    conn.execute("PRAGMA synchronous=NORMAL")
    # In this mode only a checkpoint syncs to disk, and it runs inside the commit that crosses the
    # threshold, on the event loop's thread. SQLite's default (every 1,000 WAL pages, ~4 MB) made
    # checkpoints a tenth of a crawl's SQLite time; at 10,000 pages (a WAL of up to ~40 MB per
    # database, reset by each checkpoint) they are rare. https://sqlite.org/wal.html#ckpt
    conn.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute(f"PRAGMA temp_store={'MEMORY' if temp_in_memory else 'FILE'}")
    limits = {
        sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER: MAX_BOUND_PARAMETERS,
        sqlite3.SQLITE_LIMIT_SQL_LENGTH: MAX_STATEMENT_BYTES,
        sqlite3.SQLITE_LIMIT_LENGTH: MAX_VALUE_BYTES,
        sqlite3.SQLITE_LIMIT_COLUMN: MAX_COLUMNS,
        sqlite3.SQLITE_LIMIT_FUNCTION_ARG: MAX_FUNCTION_ARGS,
        sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH: MAX_LIKE_PATTERN_BYTES,
        sqlite3.SQLITE_LIMIT_ATTACHED: 0,
    }
    if compound_select is not None:
        limits[sqlite3.SQLITE_LIMIT_COMPOUND_SELECT] = compound_select
    for category, value in limits.items():
        conn.setlimit(category, value)
    conn.set_authorizer(guard)
    return conn


def sqlite_message(exc: sqlite3.Error) -> str:
    """`<sqlite message>: SQLITE_<CODE>`, the way workerd and D1 word SQLite failures."""
    text = str(exc)
    code = getattr(exc, "sqlite_errorcode", None)
    for needle, replacement, python_code in _PYTHON_ERRORS:
        if code is None and needle in text:
            text, code = replacement, python_code
    name = _PRIMARY_CODES.get((code or 1) & 0xFF, "SQLITE_ERROR")
    return f"{text}: {name}"


def check_statement_length(sql: str) -> None:
    """Refuse statements over 100,000 bytes before CPython's own, differently worded, check."""
    if len(sql.encode("utf-8", "surrogatepass")) > MAX_STATEMENT_BYTES:
        raise sqlite3.DataError("query string is too large")  # CPython's text, mapped above


def split_statements(sql: str) -> list[str]:
    """Split SQL text into complete statements, respecting quotes, comments and triggers."""
    # A Durable Object runs the same few statement texts thousands of times a crawl; long texts
    # (migrations, generated bulk statements) are split afresh, so the cache stays small.
    split = _split_cached if len(sql) <= _CACHED_SQL_CHARS else _split_statements
    return list(split(sql))


_CACHED_SQL_CHARS = 4096


def _split_statements(sql: str) -> tuple[str, ...]:
    statements: list[str] = []
    buffer = ""
    *terminated, tail = sql.split(";")
    for piece in terminated:
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if _has_code(buffer[:-1]):
                statements.append(buffer.strip())
            buffer = ""
    if _has_code(buffer + tail):
        statements.append((buffer + tail).strip())
    return tuple(statements)


_split_cached = lru_cache(maxsize=256)(_split_statements)


def _has_code(text: str) -> bool:
    lines = (line.split("--", 1)[0].strip() for line in text.splitlines())
    return any(lines)


def rows_changed(conn: sqlite3.Connection, before: int) -> int:
    return conn.total_changes - before


def database_size(conn: sqlite3.Connection) -> int:
    page_count = conn.execute("PRAGMA page_count").fetchone()[0]
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    return int(page_count * page_size)


# ---------------------------------------------------------------------------------------------
# D1
# ---------------------------------------------------------------------------------------------

DEFAULT_FAULT = "D1_ERROR: injected fault: SQLITE_IOERR"


def d1_error(exc: sqlite3.Error, guard: SqlGuard) -> JsException:
    if guard.refused_transaction:
        guard.refused_transaction = False
        # workerd throws this from its authorizer as a plain Error: no SQLite code is appended.
        return js_error(f"D1_ERROR: {TRANSACTION_REFUSED}")
    return js_error(f"D1_ERROR: {sqlite_message(exc)}")


def d1_type_error(js_type: str, shown: str) -> JsException:
    return js_error(f"D1_TYPE_ERROR: Type '{js_type}' not supported for value '{shown}'")


def d1_binding(value: Any) -> SqlValue:
    """D1's `bind()` conversion (d1-api.ts), applied after the SDK's python_to_rpc checks."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return 1 if value else 0
    if isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:  # Pyodide sends it as a BigInt
            raise d1_type_error("bigint", str(value))
        return value
    if isinstance(value, float):
        return js_number(value)  # JS has one number type: 3.0 is sent as 3 (INTEGER)
    if isinstance(value, (bytes, memoryview)):
        return bytes(value)
    if isinstance(value, list) and all(_is_byte(v) for v in value):
        return bytes(value)  # d1-api.ts accepts an array of byte numbers as a BLOB
    raise d1_type_error(*_js_type_and_text(value))


def _is_byte(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 256


def _js_type_and_text(value: Any) -> tuple[str, str]:
    # What JS `typeof` and template-literal stringification would show for the converted value.
    if isinstance(value, list):
        return "object", ",".join("" if v is None else str(v) for v in value)
    if callable(value):
        return "function", repr(value)
    return "object", "[object Object]"


def d1_result_value(value: Any) -> Any:
    """A column value after D1's JSON transport and python_from_rpc."""
    if isinstance(value, bytes):
        return list(value)
    if isinstance(value, (int, float)):
        return js_number(value)
    return value


@dataclass
class FaultPlan:
    """Failures to inject into the next statements or batches (tests and chaos runs)."""

    pending: list[str] = field(default_factory=list)

    def fail_next(self, count: int = 1, message: str = DEFAULT_FAULT) -> None:
        self.pending.extend([message] * count)

    def raise_if_planned(self) -> None:
        if self.pending:
            raise js_error(self.pending.pop(0))


@dataclass
class _Outcome:
    columns: list[str]
    rows: list[tuple[Any, ...]]
    changes: int
    last_row_id: int
    duration_ms: float


class LocalD1Database:
    """A D1 binding over one SQLite file. A second instance on the same file sees committed data."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.faults = FaultPlan()
        self._guard = SqlGuard()
        # The product's D1 reads walk indexes (tests/auditdb/test_query_plans.py); the one temp
        # b-tree is the health score's list of pages with a critical issue. What temp storage in
        # memory holds is mostly statement journals, so it stays small at any site size.
        self._conn = open_sqlite(self.path, self._guard, compound_select=None, temp_in_memory=True)
        self._page_size: int | None = None  # see size()

    def close(self) -> None:
        self._conn.close()

    def prepare(self, sql: str) -> D1PreparedStatement:
        return D1PreparedStatement(self, sql, [])

    async def batch(self, statements: Sequence[D1PreparedStatement]) -> list[JsDict]:
        await asyncio.sleep(0)
        return self.batch_sync(statements)

    def batch_sync(self, statements: Sequence[D1PreparedStatement]) -> list[JsDict]:
        """`batch()` without the event loop, for local tooling such as migrations."""
        self.faults.raise_if_planned()
        with self._guard.trusted():
            self._conn.execute("BEGIN IMMEDIATE")
        try:
            results = [_result_dict(self, self._execute(s.sql, s.params)) for s in statements]
        except BaseException:
            with self._guard.trusted():
                self._conn.execute("ROLLBACK")
            raise
        with self._guard.trusted():
            self._conn.execute("COMMIT")
        return results

    async def exec(self, sql: str) -> JsDict:
        """Run SQL without bindings. Like d1-api.ts, each *line* is one query and counts once."""
        await asyncio.sleep(0)
        self.faults.raise_if_planned()
        lines = sql.strip().split("\n")
        started = time.perf_counter()
        for number, line in enumerate(lines, start=1):
            self._exec_line(number, line)
        return JsDict(count=len(lines), duration=_elapsed_ms(started))

    def _exec_line(self, number: int, line: str) -> None:
        statements = split_statements(line)
        try:
            if not statements:
                # Assumption: a blank line is refused the way D1 refuses empty input.
                raise sqlite3.OperationalError("No SQL statements detected.")
            for statement in statements:
                self._execute(statement, [])
        except JsException as exc:
            detail = exc.message.removeprefix("D1_ERROR: ")
            raise js_error(f"D1_EXEC_ERROR: Error in line {number}: {line}: {detail}") from None
        except sqlite3.Error as exc:
            raise js_error(
                f"D1_EXEC_ERROR: Error in line {number}: {line}: {sqlite_message(exc)}"
            ) from None

    def run_statement(self, statement: D1PreparedStatement) -> _Outcome:
        self.faults.raise_if_planned()
        return self._execute(statement.sql, statement.params)

    def _execute(self, sql: str, params: list[SqlValue]) -> _Outcome:
        started = time.perf_counter()
        before = self._conn.total_changes
        self._guard.refused_transaction = False
        try:
            check_statement_length(sql)
            cursor = self._conn.execute(sql, params)
            rows = cursor.fetchall()
        except sqlite3.Error as exc:
            raise d1_error(exc, self._guard) from None
        columns = [d[0] for d in cursor.description or ()]
        changes = rows_changed(self._conn, before)
        return _Outcome(columns, rows, changes, cursor.lastrowid or 0, _elapsed_ms(started))

    def size(self) -> int:
        with self._guard.trusted():
            if self._page_size is None:  # changes only by VACUUM after PRAGMA page_size
                self._page_size = int(self._conn.execute("PRAGMA page_size").fetchone()[0])
            return int(self._conn.execute("PRAGMA page_count").fetchone()[0]) * self._page_size


# The exact types `refuse_disabled_types` and `d1_binding` return as they are, without a check.
_BOUND_AS_IS = frozenset({str, type(None)})


class D1PreparedStatement:
    """`db.prepare(sql)`; `bind()` returns a new statement, the original stays reusable."""

    def __init__(self, db: LocalD1Database, sql: str, params: list[SqlValue]) -> None:
        self.db = db
        self.sql = sql
        self.params = params

    def bind(self, *values: Any) -> D1PreparedStatement:
        if set(map(type, values)) <= _BOUND_AS_IS:
            # Strings and nulls pass both conversions unchanged: a crawl binds tens of thousands
            # (its issue rows), each checked here by its exact type in one pass.
            return D1PreparedStatement(self.db, self.sql, list(values))
        for value in values:
            refuse_disabled_types(value)  # the SDK's python_to_rpc runs first
        return D1PreparedStatement(self.db, self.sql, [d1_binding(v) for v in values])

    async def all(self) -> JsDict:
        return _result_dict(self.db, await self._outcome())

    async def run(self) -> JsDict:
        return _result_dict(self.db, await self._outcome())

    async def first(self, column: str | None = None) -> Any:
        outcome = await self._outcome()
        if not outcome.rows:
            return None
        row = _row_dict(outcome.columns, outcome.rows[0])
        if column is None:
            return row
        if column not in row:
            raise js_error(f"D1_COLUMN_NOTFOUND: Column not found ({column})")
        return row[column]

    async def raw(
        self,
        options: dict[str, Any] | None = None,
        *,
        columnNames: bool = False,
    ) -> list[list[Any]]:
        outcome = await self._outcome()
        with_names = columnNames or (isinstance(options, dict) and bool(options.get("columnNames")))
        rows = [[d1_result_value(v) for v in row] for row in outcome.rows]
        return [list(outcome.columns), *rows] if with_names else rows

    async def _outcome(self) -> _Outcome:
        await asyncio.sleep(0)
        return self.db.run_statement(self)


def _row_dict(columns: list[str], row: Iterable[Any]) -> JsDict:
    return JsDict(zip(columns, (d1_result_value(v) for v in row), strict=True))


def _result_dict(db: LocalD1Database, outcome: _Outcome) -> JsDict:
    meta = JsDict(
        duration=outcome.duration_ms,
        changes=outcome.changes,
        last_row_id=outcome.last_row_id,
        changed_db=outcome.changes > 0,
        # Approximation: rows read = rows returned; rows written = rows changed (incl. triggers).
        rows_read=len(outcome.rows),
        rows_written=outcome.changes,
        size_after=db.size(),
    )
    results = [_row_dict(outcome.columns, row) for row in outcome.rows]
    return JsDict(success=True, meta=meta, results=results)


def _elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0
