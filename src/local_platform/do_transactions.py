"""`storage.transactionSync(fn)` and `storage.transaction(fn)`: savepoints over the object's file.

Nested calls nest savepoints (`_cf_sp<depth>`). An exception in `fn` rolls its savepoint back and
propagates unchanged; `txn.rollback()` rolls back without an exception.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from local_platform.do_storage_file import StorageFile

_TRANSACTION_API = {"get", "put", "delete", "list", "getAlarm", "setAlarm", "deleteAlarm"}


class Transaction:
    """The object `storage.transaction(fn)` hands to `fn`."""

    def __init__(self, storage: StorageFile) -> None:
        self._storage = storage
        self.rolled_back = False

    def rollback(self) -> None:
        self.rolled_back = True

    def __getattr__(self, name: str) -> Any:
        if name in _TRANSACTION_API:
            return getattr(self._storage, name)
        raise AttributeError(name)


class TransactionalStorage(StorageFile):
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

    async def transaction(self, fn: Callable[[Transaction], Awaitable[Any]]) -> Any:
        """`fn(txn)` in a savepoint. Assumption: txn offers this storage's KV and alarm API plus
        `rollback()`, and converts values as the wrapped storage does (the real txn is raw JS)."""
        await asyncio.sleep(0)
        txn = Transaction(self)
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
