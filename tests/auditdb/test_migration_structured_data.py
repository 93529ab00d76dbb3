"""Migration 0028 (structured data in the product, auditdb.structured_data) on a database that
holds audits with pages, issues and monitor runs: every row survives, the pages read as "no
structured data found", the audits as "not summarised", and both new kinds of value read back.

Like 0006, 0011 and 0027 it must not rebuild `audits` or `audit_pages`: D1 runs migrations with
foreign keys on, so a rebuild would cascade-delete the child rows.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from auditdb.records import PageRecord
from auditdb.structured_data import StructuredSummary, TypePages
from tests.auditdb.test_migration_security import migrate_seeded, surviving_audits

STRUCTURED_DATA = "0028_structured_data.sql"


def test_every_row_survives_and_reads_as_nothing_found(tmp_path: Path) -> None:
    conn, before = migrate_seeded(tmp_path, STRUCTURED_DATA)

    audits = surviving_audits(conn, before)
    assert all(a.id for a in audits)
    summaries = conn.execute("SELECT DISTINCT structured_summary FROM audits").fetchall()
    assert [tuple(row) for row in summaries] == [(None,)]
    pages = [PageRecord.from_row(dict(row)) for row in conn.execute("SELECT * FROM audit_pages")]
    assert pages
    assert {
        (
            tuple(p.structured_types),
            tuple(p.eligible_features),
            tuple(p.structured_findings),
            p.structured_errors,
            p.structured_warnings,
        )
        for p in pages
    } == {((), (), (), 0, 0)}
    conn.close()


def test_a_page_and_a_summary_written_after_it_read_back_whole(tmp_path: Path) -> None:
    conn, before = migrate_seeded(tmp_path, STRUCTURED_DATA)
    audits = surviving_audits(conn, before)
    page = PageRecord(
        "new-page",
        audits[0].id,
        "https://a.test/new",
        "t",
        structured_types=["Event"],
        eligible_features=["event"],
        structured_findings={"missing-required": 2},
        structured_errors=2,
    )
    row = page.to_row()
    del row["a11y_checked"], row["a11y_rendered"]  # migrations 0029 and 0030, after this one
    names = ", ".join(row)
    conn.execute(
        f"INSERT INTO audit_pages ({names}) VALUES ({', '.join('?' for _ in row)})",
        tuple(row.values()),
    )
    stored = StructuredSummary(pages=1, types=(TypePages("Event", 1),), types_total=1)
    text = json.dumps(stored.to_dict())
    conn.execute("UPDATE audits SET structured_summary = ? WHERE id = ?", (text, audits[0].id))

    (read,) = conn.execute("SELECT * FROM audit_pages WHERE id = 'new-page'")
    assert PageRecord.from_row(dict(read)) == page
    (summary,) = conn.execute("SELECT structured_summary FROM audits WHERE id = ?", (audits[0].id,))
    assert StructuredSummary.from_dict(json.loads(summary[0])) == stored
    with pytest.raises(sqlite3.IntegrityError):  # the column holds JSON or nothing
        conn.execute(
            "UPDATE audits SET structured_summary = 'not json' WHERE id = ?", (audits[0].id,)
        )
    conn.close()
