"""Migration 0025 (the kept link graph) on a database at 0024 that holds audits with pages,
issues and monitor runs: every row survives, no audit has links kept yet, and the new table's rows
go with their audit."""

from __future__ import annotations

from pathlib import Path

from tests.auditdb.test_migration_security import migrate_seeded, surviving_audits

PAGE_LINKS = "0025_audit_page_links.sql"


def test_every_row_survives_and_the_new_rows_cascade_with_their_audit(tmp_path: Path) -> None:
    conn, before = migrate_seeded(tmp_path, PAGE_LINKS)

    audits = surviving_audits(conn, before)
    assert conn.execute("SELECT COUNT(*) FROM audit_page_links").fetchone()[0] == 0
    for audit in audits:
        conn.execute(
            "INSERT INTO audit_page_links (audit_id, page_url, inlinks_total, outlinks_total, "
            "inlinks, outlinks) VALUES (?, 'https://a.test/', 0, 0, '[]', '[]')",
            (audit.id,),
        )
    conn.execute("DELETE FROM audits WHERE id = ?", (audits[0].id,))
    left = conn.execute("SELECT audit_id FROM audit_page_links ORDER BY audit_id").fetchall()
    assert [row[0] for row in left] == sorted(a.id for a in audits[1:])
    conn.close()
