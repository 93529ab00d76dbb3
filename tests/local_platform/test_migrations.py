"""Specification of `apply_migrations` (wrangler d1 migrations apply, docs/platform.md §3.3)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from local_platform.migrations import MigrationError, apply_migrations


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def query(db_path: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(db_path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


BASE = {
    "0002_add_pages.sql": "CREATE TABLE pages (id INTEGER PRIMARY KEY, "
    "audit INTEGER REFERENCES audits(id));",
    "0001_init.sql": "-- first\nCREATE TABLE audits (id INTEGER PRIMARY KEY, url TEXT);\n"
    "INSERT INTO audits (url) VALUES ('https://a.example/;x');\n",
}


def test_applies_in_file_name_order_and_records_full_names(tmp_path: Path) -> None:
    folder = write(tmp_path / "migrations", BASE)
    db_path = tmp_path / "db.sqlite"
    assert apply_migrations(db_path, folder) == ["0001_init.sql", "0002_add_pages.sql"]
    assert query(db_path, "SELECT id, name FROM d1_migrations ORDER BY id") == [
        (1, "0001_init.sql"),
        (2, "0002_add_pages.sql"),
    ]
    assert query(db_path, "SELECT url FROM audits") == [("https://a.example/;x",)]


def test_tracking_table_matches_wranglers(tmp_path: Path) -> None:
    db_path = tmp_path / "db.sqlite"
    apply_migrations(db_path, write(tmp_path / "m", {}))
    columns = query(
        db_path, "SELECT name, type, \"notnull\", pk FROM pragma_table_info('d1_migrations')"
    )
    assert columns == [
        ("id", "INTEGER", 0, 1),
        ("name", "TEXT", 0, 0),
        ("applied_at", "TIMESTAMP", 1, 0),
    ]


def test_is_idempotent_and_applies_only_new_files(tmp_path: Path) -> None:
    folder = write(tmp_path / "migrations", BASE)
    db_path = tmp_path / "db.sqlite"
    apply_migrations(db_path, folder)
    assert apply_migrations(db_path, folder) == []
    write(folder, {"0003_more.sql": "ALTER TABLE audits ADD COLUMN status TEXT;"})
    assert apply_migrations(db_path, folder) == ["0003_more.sql"]
    assert query(db_path, "SELECT count(*) FROM audits") == [(1,)]


def test_a_failing_file_rolls_back_and_stops(tmp_path: Path) -> None:
    folder = write(
        tmp_path / "migrations",
        {
            "0001_ok.sql": "CREATE TABLE a (x);",
            "0002_bad.sql": "CREATE TABLE b (x);\nINSERT INTO nowhere VALUES (1);",
            "0003_later.sql": "CREATE TABLE c (x);",
        },
    )
    db_path = tmp_path / "db.sqlite"
    with pytest.raises(
        MigrationError, match=re.escape("0002_bad.sql failed: D1_ERROR: no such table: nowhere")
    ):
        apply_migrations(db_path, folder)
    tables = {row[0] for row in query(db_path, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"a", "d1_migrations"} <= tables and not {"b", "c"} & tables
    assert query(db_path, "SELECT name FROM d1_migrations") == [("0001_ok.sql",)]


def test_sql_transaction_statements_are_refused_as_d1_refuses_them(tmp_path: Path) -> None:
    folder = write(
        tmp_path / "m", {"0001_tx.sql": "BEGIN TRANSACTION;\nCREATE TABLE a (x);\nCOMMIT;"}
    )
    with pytest.raises(MigrationError, match="To execute a transaction, please use"):
        apply_migrations(tmp_path / "db.sqlite", folder)


def test_non_sql_files_are_ignored(tmp_path: Path) -> None:
    folder = write(tmp_path / "m", {"README.md": "not sql", "0001_a.sql": "CREATE TABLE a (x);"})
    assert apply_migrations(tmp_path / "db.sqlite", folder) == ["0001_a.sql"]
