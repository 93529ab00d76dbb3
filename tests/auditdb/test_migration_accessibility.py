"""Migrations 0029 (whether the accessibility rules ran on a page) and 0030 (whether axe-core ran
on it, rendered) on a database that holds rows: every audit, page and issue survives, old pages
read as not checked, a checked page reads back."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from auditdb.records import PageRecord
from tests.auditdb.test_migration_security import migrate_seeded, surviving_audits

_NEW = PageRecord("new-page", "", "https://a.test/new", "t")
# Each migration, the page flag it adds, a page with it set, and the flags of later migrations
# (not columns yet).
MIGRATIONS = [
    (
        "0029_accessibility_checked.sql",
        "a11y_checked",
        replace(_NEW, a11y_checked=True),
        ("a11y_rendered",),
    ),
    ("0030_accessibility_rendered.sql", "a11y_rendered", replace(_NEW, a11y_rendered=True), ()),
]


@pytest.mark.parametrize(("migration", "flag", "checked", "later"), MIGRATIONS)
def test_every_page_survives_and_reads_as_not_checked(
    tmp_path: Path, migration: str, flag: str, checked: PageRecord, later: tuple[str, ...]
) -> None:
    conn, before = migrate_seeded(tmp_path, migration)
    assert surviving_audits(conn, before)
    pages = [PageRecord.from_row(dict(row)) for row in conn.execute("SELECT * FROM audit_pages")]
    assert pages and {getattr(p, flag) for p in pages} == {False}
    conn.close()


@pytest.mark.parametrize(("migration", "flag", "checked", "later"), MIGRATIONS)
def test_a_checked_page_reads_back_whole(
    tmp_path: Path, migration: str, flag: str, checked: PageRecord, later: tuple[str, ...]
) -> None:
    conn, before = migrate_seeded(tmp_path, migration)
    audits = surviving_audits(conn, before)
    page = replace(checked, audit_id=audits[0].id)
    assert getattr(page, flag) is True
    row = page.to_row()
    for name in later:
        del row[name]
    conn.execute(
        f"INSERT INTO audit_pages ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})",
        tuple(row.values()),
    )
    (read,) = conn.execute("SELECT * FROM audit_pages WHERE id = 'new-page'")
    assert PageRecord.from_row(dict(read)) == page
    conn.close()
