"""`GET /api/audits/{id}/report.html` and the web app over HTTP, as `siteaudit serve` runs them:
the Worker's `Default.fetch` behind the local HTTP server, read by httpx."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from api import webapp
from auditdb import repository
from auditdb.records import AuditRecord, AuditStatus, IssueRecord, PageRecord
from local_platform.runtime import LocalPlatform
from service import html_report, html_style
from service.audits import LOCAL_OWNER
from tests.api.client import served

AUDIT = "html-1"
SITE = "https://a.test/"
HOSTILE_TITLE = "<script>alert(1)</script>"


@pytest.fixture
async def client(platform: LocalPlatform) -> AsyncIterator[httpx.AsyncClient]:
    env = platform.env
    record = AuditRecord(
        AUDIT, SITE, "2026-12-01T00:00:00.000Z", LOCAL_OWNER, status=AuditStatus.COMPLETED
    )
    await repository.insert_audit(env.DB, record)
    pages = [
        PageRecord(f"p{n}", AUDIT, f"{SITE}{n}", "2026-12-01T00:00:00.000Z", title=HOSTILE_TITLE)
        for n in range(3)
    ]
    issues = [IssueRecord(f"i{p.id}", AUDIT, p.url, "missing-h1", "warning", p.id) for p in pages]
    await repository.write_crawled_pages(env.DB, pages, issues)
    async with served(platform) as client:
        yield client


async def test_the_html_report_is_the_one_the_cli_writes(
    platform: LocalPlatform, client: httpx.AsyncClient
) -> None:
    response = await client.get(f"/api/audits/{AUDIT}/report.html")

    export = await html_report.export_html(platform.core_env, LOCAL_OWNER, AUDIT)
    expected = b"".join([chunk async for chunk in export.chunks])
    assert response.status_code == 200
    assert response.content == expected
    assert response.headers["content-type"] == html_report.MEDIA_TYPE
    assert response.headers["content-security-policy"] == html_style.CSP
    assert response.headers["content-disposition"] == f'attachment; filename="{export.file_name}"'
    assert response.headers["cache-control"] == "no-store"
    assert HOSTILE_TITLE not in response.text  # escaped, as in every report


@pytest.mark.parametrize(
    ("path", "key", "status", "code"),
    [
        (f"/api/audits/{AUDIT}/report.html", "", 401, "unauthorized"),
        ("/api/audits/no-such-audit/report.html", None, 404, "not_found"),
    ],
)
async def test_a_refusal_is_a_json_error_before_any_html(
    client: httpx.AsyncClient, path: str, key: str | None, status: int, code: str
) -> None:
    headers = {} if key is None else {"authorization": key}
    response = await client.get(path, headers=headers)

    assert (response.status_code, response.json()["error"]["code"]) == (status, code)


async def test_the_app_is_served_with_its_headers_and_revalidated(
    client: httpx.AsyncClient,
) -> None:
    page = await client.get("/", headers={"authorization": ""})
    head = await client.head("/")
    again = await client.get("/", headers={"if-none-match": page.headers["etag"]})

    assert (page.status_code, page.content) == (200, webapp.asset("/").body)
    assert page.headers["content-security-policy"] == webapp.CSP
    assert (head.status_code, head.content, head.headers["etag"]) == (
        200,
        b"",
        page.headers["etag"],
    )
    assert (again.status_code, again.content) == (304, b"")
