"""GET /api/audits/{id}/progress: the newest crawled URLs while an audit runs."""

from __future__ import annotations

import pytest

from auditdb import repository
from auditdb.records import AuditOptions, AuditRecord, AuditStatus
from common import ports
from durable.client import Scratchpad
from durable.records import CrawledEntry, ExternalCheck, ExternalRef, RecordBatch
from local_platform.runtime import LocalPlatform


async def audit(platform: LocalPlatform, audit_id: str, status: AuditStatus) -> None:
    now = ports.iso_now()  # started just now: a status read's reconcile leaves it running
    record = AuditRecord(audit_id, "https://a.test/", now, started_at=now, status=status)
    await repository.insert_audit(platform.env.DB, record)


def entry(n: int) -> CrawledEntry:
    return CrawledEntry(f"https://a.test/{n}", 200, "ok", 12, "2026-12-01T00:00:00.000Z")


async def test_a_running_audit_shows_its_newest_pages_and_frontier(platform: LocalPlatform) -> None:
    await audit(platform, "run-1", AuditStatus.RUNNING)
    pad = Scratchpad.for_audit(platform.env, "run-1")
    await pad.seed_sitemap_urls([f"https://a.test/{n}" for n in range(5)])
    await pad.record_batch(
        RecordBatch(crawled=(entry(0).url, entry(1).url), progress=(entry(0), entry(1)))
    )

    status, body = await platform.request("GET", "/api/audits/run-1/progress?limit=1")

    assert status == 200
    assert body["audit"]["id"] == "run-1"
    assert body["recent"] == [entry(1).to_dict()]
    assert body["frontier"] == {
        "seen": 5,
        "pending": 3,
        "leased": 0,
        "crawled": 2,
        "links_truncated": False,
    }
    assert body["external"] is None  # no links to other sites found


async def test_a_running_audit_shows_its_external_checks(platform: LocalPlatform) -> None:
    await audit(platform, "run-3", AuditStatus.RUNNING)
    pad = Scratchpad.for_audit(platform.env, "run-3")
    refs = tuple(ExternalRef("https://a.test/", f"https://{n}.invalid/") for n in "xyz")
    await pad.record_batch(RecordBatch(external=refs))
    await pad.claim_external(1, 2, budget=10)
    dead = "the host name does not resolve (DNS)"
    checks = [
        ExternalCheck(
            f"https://{n}.invalid/", "unresolved", 0, None, dead, f"{n}.invalid", "unresolved"
        )
        for n in "xy"
    ]
    await pad.record_external(checks)

    status, body = await platform.request("GET", "/api/audits/run-3/progress")

    assert status == 200
    assert body["external"] == {"urls": 3, "checked": 2, "hosts_failing": 2, "stopped": None}


async def test_an_ended_audit_has_no_feed_and_its_scratchpad_is_not_recreated(
    platform: LocalPlatform,
) -> None:
    await audit(platform, "done-1", AuditStatus.COMPLETED)
    status, body = await platform.request("GET", "/api/audits/done-1/progress")
    assert status == 200
    assert (body["recent"], body["frontier"], body["external"]) == ([], None, None)
    assert not list((platform.state_dir / "durable_objects").glob("**/*.sqlite"))


async def test_bad_limits_and_unknown_audits(platform: LocalPlatform) -> None:
    await audit(platform, "run-2", AuditStatus.RUNNING)
    for query in ("limit=0", "limit=301", "limit=x"):
        status, body = await platform.request("GET", f"/api/audits/run-2/progress?{query}")
        assert (status, body["error"]["code"]) == (400, "invalid_request"), query
    status, body = await platform.request("GET", "/api/audits/nope/progress")
    assert (status, body["error"]["code"]) == (404, "not_found")


# (URLs the frontier has seen, pages crawled, the audit's max_pages) -> pages the feed expects:
# the URLs seen, never more than the audit will crawl ("98 of 521" with max_pages 400, issue 27)
# and never fewer than it has crawled.
EXPECTED_PAGES = [
    (5, 2, 50, 5),
    (521, 98, 400, 400),
    (12, 3, 12, 12),
    (30, 4, 4, 4),
    (1, 0, 50, 1),
]


@pytest.mark.parametrize(("seen", "crawled", "max_pages", "expected"), EXPECTED_PAGES)
async def test_the_pages_expected_never_exceed_the_audits_maximum(
    platform: LocalPlatform, seen: int, crawled: int, max_pages: int, expected: int
) -> None:
    now = ports.iso_now()
    record = AuditRecord(
        "capped", "https://a.test/", now, started_at=now, options=AuditOptions(max_pages=max_pages)
    )
    await repository.insert_audit(platform.env.DB, record)
    pad = Scratchpad.for_audit(platform.env, "capped")
    await pad.seed_sitemap_urls([f"https://a.test/{n}" for n in range(seen)])
    urls = tuple(entry(n).url for n in range(crawled))
    await pad.record_batch(RecordBatch(crawled=urls, progress=tuple(map(entry, range(crawled)))))

    status, body = await platform.request("GET", "/api/audits/capped/progress?limit=1")

    assert status == 200 and body["frontier"]["seen"] == seen
    assert body["pages_expected"] == expected
