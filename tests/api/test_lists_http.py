"""The list routes and the report over HTTP: body shape, next_cursor, the Link header, refusals."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from api.app import handle_request
from api.http import ApiRequest, ApiResponse
from audit.catalogue import IssueType
from auditdb import repository
from auditdb.records import AuditRecord, IssueRecord, PageRecord
from local_platform.runtime import LocalPlatform
from service.audits import LOCAL_OWNER

AUDIT = "audit-1"
TYPES = [IssueType.MISSING_TITLE, IssueType.THIN_CONTENT, IssueType.BROKEN_INTERNAL_LINK]


@pytest.fixture
async def seeded(platform: LocalPlatform) -> LocalPlatform:
    db = platform.env.DB
    await repository.insert_audit(
        db, AuditRecord(AUDIT, "https://a.test/", "2026-12-01T00:00:00.000Z", owner=LOCAL_OWNER)
    )
    pages = [
        PageRecord(
            f"p{n:02d}",
            AUDIT,
            f"https://a.test/{n:02d}",
            "t",
            status_code=404 if n % 5 == 0 else 200,
        )
        for n in range(25)
    ]
    issues = [
        IssueRecord(
            f"i{n:02d}-{t}", AUDIT, page.url, str(t), "warning" if t != TYPES[0] else "critical"
        )
        for n, page in enumerate(pages)
        for t in TYPES[: 1 + n % 3]
    ]
    await repository.write_crawled_pages(db, pages, issues)
    return platform


async def get(platform: LocalPlatform, path: str) -> ApiResponse:
    headers = {"authorization": f"Bearer {await platform.local_key()}"}  # owner LOCAL_OWNER
    return await handle_request(ApiRequest("GET", f"https://api.test{path}", headers), platform.env)


async def test_a_list_page_links_to_the_next_with_the_same_filters(seeded: LocalPlatform) -> None:
    path = f"/api/audits/{AUDIT}/issues"
    response = await get(seeded, f"{path}?type=thin-content&type=broken-internal-link&limit=4")

    body = response.json()
    assert response.status == 200 and len(body["issues"]) == 4
    link = response.headers["link"]
    assert link.endswith('>; rel="next"')
    target = urlsplit(link[1 : link.index(">")])
    assert target.path == path
    assert parse_qs(target.query) == {
        "type": ["thin-content", "broken-internal-link"],
        "limit": ["4"],
        "cursor": [body["next_cursor"]],
    }


async def test_following_next_cursor_reads_every_row_once_and_the_last_page_says_so(
    seeded: LocalPlatform,
) -> None:
    seen: list[str] = []
    url = f"/api/audits/{AUDIT}/pages?status=2xx&limit=7"
    while True:
        response = await get(seeded, url)
        body = response.json()
        seen += [p["url"] for p in body["pages"]]
        if body["next_cursor"] is None:
            assert "link" not in response.headers
            break
        url = response.headers["link"][1:].split(">")[0]

    assert seen == [f"https://a.test/{n:02d}" for n in range(25) if n % 5]


async def test_audits_list_pages_too(seeded: LocalPlatform) -> None:
    response = await get(seeded, "/api/audits?limit=1")

    assert response.json()["audits"][0]["id"] == AUDIT
    assert response.json()["next_cursor"] is None and "link" not in response.headers


@pytest.mark.parametrize(
    "query",
    [
        "/pages?cursor=bogus",
        "/pages?limit=0",
        "/pages?status=abc",
        "/issues?severity=high",
        "/issues?type=nope",
        "/issues?colour=red",
    ],
)
async def test_bad_query_parameters_are_400_invalid_request(
    seeded: LocalPlatform, query: str
) -> None:
    response = await get(seeded, f"/api/audits/{AUDIT}{query}")

    assert response.status == 400
    assert response.json()["error"]["code"] == "invalid_request"


async def test_an_unknown_audit_is_404_before_its_query_is_used(seeded: LocalPlatform) -> None:
    response = await get(seeded, "/api/audits/nope/issues?type=missing-title")
    assert response.status == 404


async def test_the_report_summarises_and_links_instead_of_embedding_rows(
    seeded: LocalPlatform,
) -> None:
    response = await get(seeded, f"/api/audits/{AUDIT}/report")

    body = response.json()
    assert set(body) == {
        *("scores", "actions", "verdict_note"),
        *("audit", "summary", "security", "exposure", "timing", "links"),
        "scope",  # the scope the audit ran with (service.scope_report)
        "rendering",  # what rendering did (docs/rendering.md)
        "structured_data",  # the pages' structured data (docs/structured-data.md)
    }
    assert body["timing"] is None  # the timing check has not run
    assert body["rendering"] is None  # finalize has not stored it
    assert body["structured_data"] is None  # nor this
    # a running audit has no verdict yet, and says so
    assert (body["scores"], body["actions"]) == (None, [])
    assert (
        body["verdict_note"] == "The audit is still running: the verdict comes when it completes."
    )
    assert body["exposure"] == {"status": "pending", "summary": None}
    # a running audit whose security-grade step has not run yet
    assert body["security"] == {
        "status": "pending",
        "grade": None,
        "score": None,
        "reason": None,
        "tests": [],
    }
    assert body["links"] == {
        "pages": f"/api/audits/{AUDIT}/pages",
        "issues": f"/api/audits/{AUDIT}/issues",
        "lighthouse": f"/api/audits/{AUDIT}/lighthouse",
    }
    summary = body["summary"]
    assert summary["issues_by_severity"] == {"critical": 25, "warning": 24, "info": 0}
    assert summary["issues_by_type"] == {
        "missing-title": 25,
        "thin-content": 16,
        "broken-internal-link": 8,
    }
    assert summary["issues_total"] == 49
    assert summary["top_issues"] == [
        {
            "issue_type": "missing-title",
            "severity": "critical",
            "count": 25,
            "example_pages": ["https://a.test/00", "https://a.test/01", "https://a.test/02"],
        },
        {
            "issue_type": "thin-content",
            "severity": "warning",
            "count": 16,
            "example_pages": ["https://a.test/01", "https://a.test/02", "https://a.test/04"],
        },
        {
            "issue_type": "broken-internal-link",
            "severity": "warning",
            "count": 8,
            "example_pages": ["https://a.test/02", "https://a.test/05", "https://a.test/08"],
        },
    ]
