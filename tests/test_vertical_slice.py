"""The walking skeleton end to end: API -> Workflow -> Durable Object -> D1 -> API.

Every request goes through the Worker's real fetch handler (`entry.Default.fetch`) on the local
platform, and the audit runs as a SiteAuditWorkflow instance whose id is the audit id.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from local_platform.runtime import LocalPlatform
from tests.support.site_server import Site


async def start_audit(platform: LocalPlatform, url: str, **options: Any) -> str:
    status, body = await platform.request("POST", "/api/audits", {"url": url, **options})
    assert status == 201, body
    return body["audit"]["id"]


async def test_an_audit_runs_from_the_api_to_d1_and_back(
    platform: LocalPlatform, small_site: Site
) -> None:
    audit_id = await start_audit(platform, small_site.url("/"))

    await platform.wait_for_workflow(audit_id, timeout_s=30)
    status, body = await platform.request("GET", f"/api/audits/{audit_id}")

    assert status == 200
    audit = body["audit"]
    assert (audit["id"], audit["status"], audit["pages_crawled"]) == (audit_id, "completed", 2)
    assert audit["start_url"] == small_site.url("/")
    assert audit["error_code"] is None and audit["finished_at"] is not None
    instance = await platform.env.SITE_AUDIT_WORKFLOW.get(audit_id)
    assert (await instance.status())["status"] == "complete"


async def test_crawled_pages_are_recorded_as_audit_pages(
    platform: LocalPlatform, small_site: Site
) -> None:
    audit_id = await start_audit(platform, small_site.url("/"))
    await platform.wait_for_workflow(audit_id, timeout_s=30)

    status, body = await platform.request("GET", f"/api/audits/{audit_id}/pages")

    assert status == 200
    home, about = sorted(body["pages"], key=lambda p: len(p["url"]))
    assert (home["url"], home["status_code"], home["fetch_class"]) == (
        small_site.url("/"),
        200,
        "ok",
    )
    assert (about["url"], about["crawl_depth"]) == (small_site.url("/about"), 1)
    assert home["content_type"].startswith("text/html") and home["html_bytes"] > 0
    assert home["title"] == "Home of the small site" and home["h1_count"] == 1


async def test_the_audit_list_shows_the_newest_first(
    platform: LocalPlatform, small_site: Site
) -> None:
    first = await start_audit(platform, small_site.url("/"))
    second = await start_audit(platform, small_site.url("/about"))
    for audit_id in (first, second):
        await platform.wait_for_workflow(audit_id, timeout_s=30)

    status, body = await platform.request("GET", "/api/audits")

    assert status == 200
    assert {a["id"] for a in body["audits"]} == {first, second}


@pytest.mark.parametrize(
    ("method", "path", "payload", "status", "code"),
    [
        ("POST", "/api/audits", {"url": "ftp://example.com/"}, 400, "invalid_url"),
        ("POST", "/api/audits", {"url": "http://exa mple.com/"}, 400, "invalid_url"),
        ("POST", "/api/audits", {"url": ""}, 400, "invalid_request"),
        ("POST", "/api/audits", {"website": "https://example.com"}, 400, "invalid_request"),
        (
            "POST",
            "/api/audits",
            {"url": "https://example.com", "max_pages": 0},
            400,
            "invalid_request",
        ),
        ("POST", "/api/audits", ["https://example.com"], 400, "invalid_request"),
        ("GET", "/api/audits/no-such-audit", None, 404, "not_found"),
        ("GET", "/api/audits/no-such-audit/pages", None, 404, "not_found"),
        ("GET", "/api/nothing-here", None, 404, "not_found"),
        ("DELETE", "/api/audits", None, 405, "method_not_allowed"),
        ("PUT", "/api/audits/some-id", None, 405, "method_not_allowed"),
    ],
)
async def test_errors_are_json_with_a_clear_message(
    platform: LocalPlatform, method: str, path: str, payload: Any, status: int, code: str
) -> None:
    got_status, body = await platform.request(method, path, payload)

    assert (got_status, body["error"]["code"]) == (status, code)
    assert body["error"]["message"]


async def test_malformed_json_is_a_400(platform: LocalPlatform) -> None:
    from local_platform.http import Request

    key = await platform.local_key()
    request = Request(
        "http://siteaudit.local/api/audits",
        method="POST",
        headers={"authorization": f"Bearer {key}"},
        body="{not json",
    )
    response = await platform.fetch(request)

    assert response.status == 400
    assert (await response.json())["error"]["code"] == "invalid_json"


async def test_private_hosts_are_refused_unless_allowed(tmp_path: Path) -> None:
    strict = LocalPlatform(tmp_path / "strict")
    try:
        status, body = await strict.request("POST", "/api/audits", {"url": "http://127.0.0.1:9/"})
    finally:
        await strict.close()

    assert (status, body["error"]["code"]) == (400, "target_blocked")


@pytest.mark.parametrize(
    "payload",
    [
        {"url": "https://example.com", "include": ["blog"]},
        {"url": "https://example.com", "exclude": ["https://example.com/x"]},
        {"url": "https://example.com", "fetch_timeout_s": 0},
        {"url": "https://example.com", "fetch_timeout_s": 3600},
        {"url": "https://example.com", "max_depth": -1},
        {"url": "https://example.com", "check_external": "sometimes"},
    ],
)
async def test_crawl_options_are_validated_at_the_edge(
    platform: LocalPlatform, payload: dict[str, Any]
) -> None:
    status, body = await platform.request("POST", "/api/audits", payload)
    assert (status, body["error"]["code"]) == (400, "invalid_request")
