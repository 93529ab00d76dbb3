"""Migration 0027 (what rendering did, auditdb.rendering) on a database that holds audits with
pages, issues and monitor runs: every row survives, the new column reads as "not finalized", and
a stored summary reads back whole.

Like 0006, 0011 and 0020 it must not rebuild `audits`: D1 runs migrations with foreign keys on,
so a rebuild would cascade-delete the child rows.
"""

from __future__ import annotations

import json
from pathlib import Path

from auditdb.rendering import RenderSummary
from render.records import RenderCounts, RenderMode
from tests.auditdb.test_migration_security import migrate_seeded, surviving_audits

RENDER_SUMMARY = "0027_render_summary.sql"


def test_every_row_survives_and_a_summary_reads_back_whole(tmp_path: Path) -> None:
    conn, before = migrate_seeded(tmp_path, RENDER_SUMMARY)

    audits = surviving_audits(conn, before)
    assert all(a.id for a in audits)
    summaries = conn.execute("SELECT DISTINCT render_summary FROM audits").fetchall()
    assert [tuple(row) for row in summaries] == [(None,)]
    counts = RenderCounts(skipped=3, shells_not_rendered=2, reason="never")
    stored = RenderSummary(RenderMode.NEVER, counts)
    text = json.dumps(stored.to_dict())
    conn.execute("UPDATE audits SET render_summary = ? WHERE id = ?", (text, audits[0].id))
    (row,) = conn.execute("SELECT render_summary FROM audits WHERE id = ?", (audits[0].id,))
    assert RenderSummary.from_dict(json.loads(row[0])) == stored
    conn.close()


def test_the_note_says_rendering_would_find_more_only_when_app_shells_went_unrendered() -> None:
    done = RenderSummary(RenderMode.AUTO, RenderCounts(rendered=8, script_links=9))
    assert not done.would_find_more
    assert done.note == "8 pages rendered (0 failed), 9 links found only after script"
    left = RenderSummary(
        RenderMode.AUTO, RenderCounts(skipped=2, shells_not_rendered=2, reason="no renderer")
    )
    assert left.would_find_more
    assert left.note == (
        "rendering would find more: 2 pages look like an app shell and were not rendered "
        "(no renderer)"
    )
