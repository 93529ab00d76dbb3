"""Comparing timing issues with hysteresis (auditdb.compare, docs/timing.md "Comparisons").

A `slow-response` row is judged on its page's `response_time_ms`, a `slow-site` row on the
audit's median (`timing_summary`). A row of the newer audit without a twin is new only at
NEW_SLOW_MS (1,800 ms) or more, or where the older audit has no figure (a page it did not crawl);
a row of the older audit without a twin is fixed only at FIXED_SLOW_MS (1,200 ms) or less in the
newer one, or where the newer one has no figure. Anything between is neither new nor fixed.
"""

from __future__ import annotations

import json

import pytest

from audit.catalogue import IssueType
from audit.issues import DetectedIssue
from auditdb import repository
from auditdb.records import AuditRecord, IssueRecord, PageRecord
from common.bindings import Env
from local_platform.runtime import LocalPlatform
from service.compare import compare_audits

ORIGIN = "https://a.test"
PAGE, START = f"{ORIGIN}/p", f"{ORIGIN}/"

# One side: (flagged, figure in ms); a figure of None: the page was not crawled (slow-response)
# or the audit has no timing summary (slow-site).
Side = tuple[bool, int | None]


async def seed(env: Env, audit_id: str, issue_type: IssueType, side: Side) -> None:
    flagged, figure = side
    audit = AuditRecord(audit_id, START, "2026-12-01T00:00:00.000Z", owner="alpha")
    await repository.insert_audit(env.DB, audit)
    summary = None if figure is None else json.dumps({"median_ms": figure})
    sql = "UPDATE audits SET status = 'completed', timing_summary = ? WHERE id = ?"
    await (
        env.DB.prepare(sql)
        .bind(summary if issue_type is IssueType.SLOW_SITE else None, audit_id)
        .run()
    )
    page_time = figure if issue_type is IssueType.SLOW_RESPONSE else 20
    pages = [PageRecord(f"{audit_id}/", audit_id, START, audit.created_at, 200)]
    if page_time is not None:
        pages.append(
            PageRecord(
                f"{audit_id}/p", audit_id, PAGE, audit.created_at, 200, response_time_ms=page_time
            )
        )
    url = PAGE if issue_type is IssueType.SLOW_RESPONSE else START
    issue = DetectedIssue(issue_type, url, {"thresholdMs": 1500})
    page_id = f"{audit_id}/p" if url == PAGE else f"{audit_id}/"
    rows = [IssueRecord.from_detected(audit_id, issue, page_id)] if flagged else []
    await repository.write_crawled_pages(env.DB, pages, rows)


CASES = [
    # (before, after, (new, fixed, unchanged))
    pytest.param(
        (False, 1400), (True, 1600), (0, 0, 1), id="flagged, but inside the band: unchanged"
    ),
    pytest.param((False, 1400), (True, 1800), (1, 0, 0), id="flagged well above: new"),
    pytest.param((False, None), (True, 1600), (1, 0, 0), id="a page the older audit lacked: new"),
    pytest.param((True, 1600), (False, 1300), (0, 0, 0), id="no longer flagged, inside the band"),
    pytest.param((True, 1600), (False, 1200), (0, 1, 0), id="no longer flagged, well below: fixed"),
    pytest.param((True, 1600), (False, None), (0, 1, 0), id="a page the newer audit lacks: fixed"),
    pytest.param((True, 1600), (True, 1550), (0, 0, 1), id="flagged twice: unchanged"),
    pytest.param((False, 900), (False, 1400), (0, 0, 0), id="flagged in neither"),
]


@pytest.mark.parametrize("issue_type", [IssueType.SLOW_RESPONSE, IssueType.SLOW_SITE])
@pytest.mark.parametrize(("before", "after", "expected"), CASES)
async def test_timing_issues_are_new_or_fixed_only_outside_the_band(
    platform: LocalPlatform,
    issue_type: IssueType,
    before: Side,
    after: Side,
    expected: tuple[int, int, int],
) -> None:
    await seed(platform.env, "before", issue_type, before)
    await seed(platform.env, "after", issue_type, after)

    got = await compare_audits(platform.env, "alpha", "before", "after")

    changes = (got.new_issues, got.fixed_issues, got.unchanged_issues)
    assert tuple(change.total for change in changes) == expected
    assert tuple(len(change.issues) for change in changes) == expected  # lists agree with counts
