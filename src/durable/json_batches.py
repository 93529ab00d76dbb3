"""Rows sent to the scratchpad's SQLite as one bound JSON array per statement (`json_each`).

Each `exec` crosses from Python to the runtime, which is what a batch costs in Pyodide, so a batch
of rows is one statement, not one per row. These are the pieces every table group's SQL shares:
the arrays themselves, an insert that reads its columns from them, and the lookup of rows a
rewrite (a retried chunk) already stored.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

from common.wire import JsonValue

__all__ = ["MAX_JSON_PARAM_BYTES", "insert_json_rows", "json_arrays", "stored"]

# One bound JSON array per statement stays well under the 2 MB string limit of Durable Object
# SQLite (docs/platform.md §2.3); larger batches are split.
MAX_JSON_PARAM_BYTES = 1_000_000


def json_arrays(items: Sequence[JsonValue], max_bytes: int = MAX_JSON_PARAM_BYTES) -> Iterator[str]:
    """`items` as JSON array texts of at most about `max_bytes` each (never an empty array)."""
    if not items:
        return
    # Most batches fit in one array: one encoder pass instead of one per item (json.dumps sets
    # up its encoder on every call, which cost more than the encoding for short items).
    whole = json.dumps(items, separators=(",", ":"))  # ASCII-only: its length is its size
    if len(whole) <= max_bytes:
        yield whole
        return
    parts: list[str] = []
    size = 0
    for item in items:
        text = json.dumps(item)  # ASCII-only: its length is its size in bytes
        if parts and size + len(text) + 1 > max_bytes:
            yield f"[{','.join(parts)}]"
            parts, size = [], 0
        parts.append(text)
        size += len(text) + 1
    if parts:
        yield f"[{','.join(parts)}]"


def insert_json_rows(verb: str, table: str, columns: Sequence[str], *, ordered: bool = True) -> str:
    """`verb` into `table` the objects of one bound JSON array, `columns` read by name (a missing
    one is NULL), `ordered` in array order: with OR REPLACE a key's last row wins, with OR IGNORE
    its first."""
    values = ", ".join(f"json_extract(value, '$.{column}')" for column in columns)
    select = f"SELECT {values} FROM json_each(?)" + (" ORDER BY key" if ordered else "")
    return f"{verb} INTO {table} ({', '.join(columns)}) {select}"


def stored(table: str, target: str, *, fragment: bool = False) -> str:
    """The positions (`i`) of a batch's `{i, s, t, f}` rows that `table` already holds, matched
    on its source_url, `target` column (and fragment): a rewritten page (a retried chunk) must
    not spend the link budget twice on them."""
    sql = (
        f"SELECT json_extract(j.value, '$.i') AS i FROM json_each(?) AS j JOIN {table} AS l "
        f"ON l.source_url = json_extract(j.value, '$.s') AND l.{target} = json_extract(j.value, '$.t')"
    )
    return sql + (" AND l.fragment = json_extract(j.value, '$.f')" if fragment else "")
