"""Migration 0008: issues written before it get their dedupe key back from the details' targetUrl."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from local_platform.d1 import LocalD1Database
from local_platform.migrations import apply_migrations

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations" / "d1"
IDENTITY = "0008_issue_identity.sql"

# (issue_type, details) written before the column existed -> the dedupe key the migration sets.
OLD_ROWS = [
    (
        "broken-internal-link",
        {"targetUrl": "https://a.test/x", "targetStatus": 404},
        "https://a.test/x",
    ),
    ("link-to-redirect", {"targetUrl": "https://a.test/r", "redirectUrl": "/"}, "https://a.test/r"),
    (
        "hreflang-missing-return-link",
        {"hreflang": "de", "targetUrl": "https://a.test/de"},
        "https://a.test/de",
    ),
    # Other types keep '' even when their details happen to name a target URL.
    ("canonical-to-broken", {"targetUrl": "https://a.test/c"}, ""),
    ("missing-title", {}, ""),
]


async def test_old_rows_get_their_dedupe_key_from_the_target_url(tmp_path: Path) -> None:
    before = tmp_path / "before"
    before.mkdir()
    for path in sorted(MIGRATIONS.glob("*.sql")):
        if path.name < IDENTITY:
            shutil.copy(path, before)
    database = tmp_path / "d1.sqlite"
    apply_migrations(database, before)
    db = LocalD1Database(database)
    await db.prepare(
        "INSERT INTO audits (id, start_url, created_at) VALUES ('a1', 'https://a.test/', 'now')"
    ).run()
    for n, (issue_type, details, _) in enumerate(OLD_ROWS):
        await (
            db.prepare(
                "INSERT INTO audit_issues (id, audit_id, page_url, issue_type, details_json) "
                "VALUES (?, 'a1', 'https://a.test/', ?, ?)"
            )
            .bind(f"i{n}", issue_type, json.dumps(details))
            .run()
        )
    db.close()

    assert IDENTITY in apply_migrations(database, MIGRATIONS)
    db = LocalD1Database(database)
    rows = (await db.prepare("SELECT id, dedupe_key FROM audit_issues ORDER BY id").all())[
        "results"
    ]
    db.close()
    assert [row["dedupe_key"] for row in rows] == [key for _, _, key in OLD_ROWS]
