"""List mode end to end (issue 28, item 4): exactly the listed URLs are audited with the per-page
rules, no link is followed, and what a list cannot tell is not checked."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from local_platform.runtime import LocalPlatform
from tests.support.site_server import Reply, Site, html_page, serve_site


def _page(n: int, size: int) -> Reply:
    # Each page links to the next two and to one page that is never listed: a crawl would follow
    # them, a list audit must not.
    links = f"<a href='/p/{(n + 1) % size}'>next</a><a href='/unlisted/{n}'>more</a>"
    title = f"Page number {n} of the generated list site"
    return Reply(body=html_page(title, f"<h1>Page {n}</h1>{links}"))


def _site_routes(size: int) -> dict[str, Reply]:
    routes = {f"/p/{n}": _page(n, size) for n in range(size)}
    routes["/"] = Reply(body=html_page("Home of the generated list site", "<h1>Home</h1>"))
    routes["/moved"] = Reply(status=301, headers={"location": "/p/0"})
    routes["/gone"] = Reply(status=404, body=b"gone")
    return routes


@pytest.fixture
def list_site() -> Iterator[Site]:
    with serve_site(_site_routes(1_000)) as site:
        yield site


async def _audit(platform: LocalPlatform, body: dict[str, Any]) -> dict[str, Any]:
    status, created = await platform.request("POST", "/api/audits", body)
    assert status == 201, created
    audit_id = created["audit"]["id"]
    await platform.wait_for_workflow(audit_id, timeout_s=120)
    _, read = await platform.request("GET", f"/api/audits/{audit_id}")
    return read["audit"]


async def _pages(platform: LocalPlatform, audit_id: str) -> list[dict[str, Any]]:
    pages: list[dict[str, Any]] = []
    cursor = ""
    while True:
        _, body = await platform.request("GET", f"/api/audits/{audit_id}/pages?limit=1000{cursor}")
        pages.extend(body["pages"])
        if not body.get("next_cursor"):
            return pages
        cursor = f"&cursor={body['next_cursor']}"


async def _issue_types(platform: LocalPlatform, audit_id: str, *asked: str) -> set[str]:
    """Which of the asked types the audit found (each asked by the list's own filter: a thousand
    pages' other findings would fill any one page of the list)."""
    found: set[str] = set()
    for issue_type in asked:
        path = f"/api/audits/{audit_id}/issues?type={issue_type}&limit=1"
        _, body = await platform.request("GET", path)
        found.update(issue["issue_type"] for issue in body["issues"])
    return found


async def test_a_short_list_audits_exactly_its_urls_and_the_redirect_of_one(
    platform: LocalPlatform, list_site: Site
) -> None:
    listed = [list_site.url(path) for path in ("/p/1", "/p/2", "/moved", "/gone")]

    audit = await _audit(platform, {"mode": "list", "urls": listed})

    assert audit["status"] == "completed", audit
    crawled = {page["url"] for page in await _pages(platform, audit["id"])}
    # /moved's target is the same page, moved: followed; /p/3 and /unlisted/* are links: not.
    assert crawled == {*listed, list_site.url("/p/0")}
    assert audit["start_url"] == listed[0]
    types = await _issue_types(platform, audit["id"], "broken-page", "orphan-page")
    assert "broken-page" in types  # /gone, a per-page finding
    assert "orphan-page" not in types  # nothing links to /p/1 from the list: not checked
    _, report = await platform.request("GET", f"/api/audits/{audit['id']}/report")
    assert report["scope"]["not_checked"] == ["orphan pages", "crawl depth", "sitemap coverage"]


async def test_a_thousand_url_list_is_audited_in_one_run(
    platform: LocalPlatform, list_site: Site
) -> None:
    listed = [list_site.url(f"/p/{n}") for n in range(1_000)]
    started = time.monotonic()

    audit = await _audit(platform, {"mode": "list", "urls": listed})

    assert audit["status"] == "completed", audit
    pages = await _pages(platform, audit["id"])
    assert sorted(page["url"] for page in pages) == sorted(listed)
    assert all(page["status_code"] == 200 for page in pages)
    # The per-page rules ran on every page (each title is 42 characters or so: none too long).
    types = await _issue_types(platform, audit["id"], "missing-meta-description", "orphan-page")
    assert "missing-meta-description" in types and "orphan-page" not in types
    print(f"1,000-URL list audited in {time.monotonic() - started:.1f} s")
