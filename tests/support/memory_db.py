"""An in-memory SQLite database with a schema, for tests that read query plans or run a
scratchpad table group's SQL without a Durable Object."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager


@contextmanager
def memory_db(schema: Iterable[str]) -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(":memory:")
    try:
        for statement in schema:
            connection.execute(statement)
        yield connection
    finally:
        connection.close()
