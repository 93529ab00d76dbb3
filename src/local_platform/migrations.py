"""`wrangler d1 migrations apply` for the local platform's D1 files.

What wrangler does (workers-sdk `d1/migrations/*`, docs/platform.md §3.3), and so what this does:
every `*.sql` file in the migrations folder, sorted by file name, that has no row in
`d1_migrations` is run as one batch (one transaction) together with the insert of its name, so a
failing file leaves nothing behind and stops the run; files applied before it stay applied. The
recorded name is the full file name (`0001_init.sql`). Statements run through the local D1, so a
migration that D1 would refuse (`BEGIN TRANSACTION`, a 100 KB statement) is refused here too.
"""

from __future__ import annotations

from pathlib import Path

from local_platform.d1 import LocalD1Database, split_statements
from local_platform.errors import JsException

MIGRATIONS_TABLE = "d1_migrations"
_CREATE_TABLE = f"""CREATE TABLE IF NOT EXISTS {MIGRATIONS_TABLE}(
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT UNIQUE,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)"""


class MigrationError(Exception):
    """A migration file failed; `name` is its file name, the message carries D1's error."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"Migration {name} failed: {message}")
        self.name = name


def apply_migrations(db_path: Path | str, migrations_dir: Path | str) -> list[str]:
    """Apply the pending migrations in order; return the names newly applied."""
    folder = Path(migrations_dir)
    db = LocalD1Database(db_path)
    try:
        applied: list[str] = []
        for name in _pending(db, folder):
            _apply(db, folder / name)
            applied.append(name)
        return applied
    finally:
        db.close()


def _pending(db: LocalD1Database, folder: Path) -> list[str]:
    db.batch_sync([db.prepare(_CREATE_TABLE)])
    applied_rows = db.batch_sync([db.prepare(f"SELECT name FROM {MIGRATIONS_TABLE}")])[0].results
    applied = {row["name"] for row in applied_rows}
    return sorted(p.name for p in folder.glob("*.sql") if p.is_file() and p.name not in applied)


def _apply(db: LocalD1Database, path: Path) -> None:
    name = path.name
    text = path.read_text(encoding="utf-8")
    statements = [db.prepare(sql) for sql in split_statements(text)]
    record = db.prepare(f"INSERT INTO {MIGRATIONS_TABLE} (name) VALUES (?)").bind(name)
    try:
        db.batch_sync([*statements, record])
    except JsException as exc:
        raise MigrationError(name, exc.message) from None
