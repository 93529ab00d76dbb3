"""`ctx.storage.get/put/delete/list`: the key-value API over table `_cf_KV`.

Shapes: docs/platform.md §2.2.

Values are stored as what the structured clone would have kept (the SDK's conversion, then pickle:
the file is our own state). Every call yields to the event loop once before it touches SQLite.
"""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import Mapping
from typing import Any

from local_platform.do_transactions import TransactionalStorage
from local_platform.errors import JsException, js_type_error
from local_platform.rpc import JsDict, crossing

# Docs: key + value at most 2 MB. Assumption: measured as key UTF-8 bytes + stored value bytes,
# and refused with a RangeError worded like workerd's old KV-backed limit.
KV_MAX_BYTES = 2_000_000
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


class KeyValueStorage(TransactionalStorage):
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
