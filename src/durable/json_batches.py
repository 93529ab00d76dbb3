"""Rows sent to the scratchpad's SQLite as one bound JSON array per statement (`json_each`).

Each `exec` crosses from Python to the runtime, which is what a batch costs in Pyodide, so a batch
of rows is one statement, not one per row. These are the pieces every table group's SQL shares:
the arrays themselves, an insert that reads its columns from them, and the lookup of rows a
rewrite (a retried chunk) already stored.

Why one bound JSON array rather than a multi-row `INSERT ... VALUES (?, ?), ...`: a Durable
Object's SQLite takes at most 100 bound parameters per statement (docs/platform.md §2.3), 25
four-column rows, where one array of up to `MAX_JSON_PARAM_BYTES` holds thousands; each statement
is one crossing into the runtime, and each bound value is converted on the way. Measured under
CPython's sqlite3 (bench/README.md, crawl_bench, issue 29), 19,000 link edges: 4.3 us a row as
objects read by name, 3.2 as arrays read by position (`positional`), 2.2 as 25-row VALUES
statements; on the Durable Object the arrays win, since the VALUES form would cost 40 times as
many crossings. Rows of hot tables (link edges, link fragments, discovered URLs) therefore cross
as arrays, `[source, target, ...]`, in their columns' order.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

from common.wire import JsonValue

__all__ = [
    "MAX_JSON_PARAM_BYTES",
    "any_source_stored",
    "insert_json_rows",
    "json_arrays",
    "json_slices",
    "stored",
]

# One bound JSON array per statement stays well under the 2 MB string limit of Durable Object
# SQLite (docs/platform.md §2.3); larger batches are split.
MAX_JSON_PARAM_BYTES = 1_000_000


def json_arrays(items: Sequence[JsonValue], max_bytes: int = MAX_JSON_PARAM_BYTES) -> Iterator[str]:
    """`items` as JSON array texts of at most about `max_bytes` each (never an empty array)."""
    return (text for _, text in json_slices(items, max_bytes))


def json_slices(
    items: Sequence[JsonValue], max_bytes: int = MAX_JSON_PARAM_BYTES
) -> Iterator[tuple[int, str]]:
    """`items` as JSON array texts of at most `max_bytes` each (one item larger than that
    alone), in order, each with the position of its first item: `json_each`'s `key` plus that
    position is the item's position in `items`."""
    if not items:
        return
    # One encoder pass per array, not one per item (json.dumps sets up its encoder on every
    # call, which cost more than the encoding for short items); an array too large is halved.
    whole = json.dumps(items, separators=(",", ":"))  # ASCII-only: its length is its size
    if len(whole) <= max_bytes or len(items) == 1:
        yield 0, whole
        return
    middle = len(items) // 2
    yield from json_slices(items[:middle], max_bytes)
    for start, text in json_slices(items[middle:], max_bytes):
        yield middle + start, text


def insert_json_rows(
    verb: str, table: str, columns: Sequence[str], *, ordered: bool = True, positional: bool = False
) -> str:
    """`verb` into `table` the rows of one bound JSON array: objects whose `columns` are read by
    name (a missing one is NULL), or with `positional` arrays holding them in that order;
    `ordered` in array order: with OR REPLACE a key's last row wins, with OR IGNORE its first."""
    paths = [f"[{i}]" for i in range(len(columns))] if positional else [f".{c}" for c in columns]
    values = ", ".join(f"json_extract(value, '${path}')" for path in paths)
    select = f"SELECT {values} FROM json_each(?)" + (" ORDER BY key" if ordered else "")
    return f"{verb} INTO {table} ({', '.join(columns)}) {select}"


def stored(table: str, target: str, *, fragment: bool = False) -> str:
    """The positions (`i`, in the bound array) of a batch's `[source, target, fragment, ...]`
    rows that `table` already holds, matched on its source_url, `target` column (and fragment):
    a rewritten page (a retried chunk) must not spend the link budget twice on them. The rows
    may be the very arrays the insert then reads (their first items are the key)."""
    sql = (
        f"SELECT j.key AS i FROM json_each(?) AS j JOIN {table} AS l "
        f"ON l.source_url = json_extract(j.value, '$[0]') "
        f"AND l.{target} = json_extract(j.value, '$[1]')"
    )
    return sql + (" AND l.fragment = json_extract(j.value, '$[2]')" if fragment else "")


def any_source_stored(table: str) -> str:
    """Whether `table` holds a row from any source URL of the bound JSON array (a batch's
    distinct sources): when none, no row of the batch is stored, and `stored`'s lookup, a
    search per row, is not needed. A page's first write (the usual case) asks a few dozen
    searches of the primary key's first column instead of thousands (issue 29)."""
    return (
        f"SELECT 1 AS found FROM json_each(?) AS j "
        f"WHERE EXISTS (SELECT 1 FROM {table} WHERE source_url = j.value) LIMIT 1"
    )
