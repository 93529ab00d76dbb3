"""Hostile and broken sites: every audit ends (completed, with the right issues), never hangs,
never crashes, and never fetches a private address."""

from __future__ import annotations

import gzip
import itertools
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from cli.report import full_report
from common import settings
from local_platform.runtime import LocalPlatform
from tests.support.loopback_http import LoopbackOnlyHttp
from tests.support.site_server import Reply, StreamReply, html_page, serve_site

# Generous for loopback: the fixture server's threads, the scratchpad and the parsing of every
# link of /many-links (10,000, all stored and enqueued) share one process, so a busy moment
# delays the other pages' bytes; /trickle still takes the whole timeout.
FETCH_TIMEOUT_S = 10.0
MIB = 1024 * 1024
# /huge must reach the parse cap inside the fetch timeout. At the product's 20 MiB a busy CI
# machine (two test workers and more) parsed too little of it in 4 s and then in 10 s, and the
# page timed out instead of being cut, and so did 4 MiB once on a machine at load 7 (a CI run
# beside two benchmarking sessions); the behaviour under test is the cut, whatever the cap, so
# this audit's cap is lower (still above html-too-large's 2 MiB threshold).
PARSE_CAP = 3 * MIB


def page(title: str, body: str = "") -> Reply:
    return Reply(body=html_page(title, body))


def trickle() -> Iterator[bytes]:
    yield b"<!doctype html><title>Trickle</title><p>"
    yield from itertools.repeat(b"x")


def fifty_megabytes() -> Iterator[bytes]:
    yield b"<!doctype html><title>Huge</title><p>"
    yield from itertools.repeat(b"word " * 20_000, 50 * MIB // 100_000)


def gzip_bomb() -> bytes:
    return gzip.compress(b"<p>" + b"\0" * (200 * MIB), compresslevel=9)


HOSTILE_LINKS = [
    "/loop-a",
    "/self",
    "/to-private",
    "/to-metadata",
    "/huge",
    "/trickle",
    "/bomb",
    "/many-links",
    "/image.png",
    "/data.json",
    "/no-type",
]


def hostile_routes() -> dict[str, Any]:
    many = "".join(f"<a href='/generated/{i}'>{i}</a>" for i in range(10_000))
    links = "".join(f"<a href='{path}'>{path}</a>" for path in HOSTILE_LINKS)
    bomb = gzip_bomb()
    return {
        "/": page("Hostile site home", f"<h1>Home</h1>{links}"),
        "/loop-a": Reply(301, b"", {"location": "/loop-b"}),
        "/loop-b": Reply(301, b"", {"location": "/loop-a"}),
        "/self": Reply(302, b"", {"location": "/self"}),
        "/to-private": Reply(302, b"", {"location": "http://10.1.2.3/admin"}),
        "/to-metadata": Reply(307, b"", {"location": "http://[::ffff:169.254.169.254]/latest"}),
        "/huge": StreamReply(fifty_megabytes),
        "/trickle": StreamReply(trickle, pause_s=0.05),
        "/bomb": Reply(
            body=bomb, headers={"content-type": "text/html", "content-encoding": "gzip"}
        ),
        "/many-links": page("Ten thousand links", many),
        "/image.png": Reply(
            body=b"\x89PNG\r\n\x1a\n" + b"\0" * 1000, headers={"content-type": "image/png"}
        ),
        "/data.json": Reply(body=b'{"a": 1}', headers={"content-type": "application/json"}),
        "/no-type": Reply(body=b"\xff\xfe\x00garbage\x00", headers={}),
        **hostile_discovery_routes(),
    }


def hostile_discovery_routes() -> dict[str, Any]:
    """Garbage robots.txt, a sitemap index that lists itself and a sitemap cut off mid-entry."""
    return {
        "/robots.txt": Reply(
            body=b"\x00\xff\xfeUser-agent \x01: *\nDisallow /\n\xff" * 100,
            headers={"content-type": "text/plain"},
        ),
        "/sitemap.xml": Reply(
            body=b"<?xml version='1.0'?><sitemapindex><sitemap><loc>/sitemap.xml</loc>"
            b"</sitemap><sitemap><loc>/broken.xml</loc></sitemap></sitemapindex>",
            headers={"content-type": "application/xml"},
        ),
        "/broken.xml": Reply(
            body=b"<urlset><url><loc>/from-broken</loc></url><url><loc",
            headers={"content-type": "application/xml"},
        ),
        "/from-broken": page("Listed in a broken sitemap"),
    }


async def test_a_hostile_site_is_audited_to_completion(
    platform: LocalPlatform, outbound_http: LoopbackOnlyHttp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "CRAWL", replace(settings.CRAWL, parse_max_bytes=PARSE_CAP))
    with serve_site(hostile_routes()) as site:
        status, body = await platform.request(
            "POST",
            "/api/audits",
            {"url": site.url("/"), "max_pages": 200, "fetch_timeout_s": FETCH_TIMEOUT_S},
        )
        assert status == 201
        audit_id = body["audit"]["id"]
        await platform.wait_for_workflow(audit_id, timeout_s=120)
        report: dict[str, Any] = await full_report(platform, audit_id)

    assert report["audit"]["status"] == "completed", report["audit"]
    pages = {p["url"].removeprefix(site.origin): p for p in report["pages"]}
    issues = {(i["issue_type"], i["page_url"].removeprefix(site.origin)) for i in report["issues"]}
    # Only the site itself was asked: over http, and over https by the security grade.
    host = site.origin.removeprefix("http://")
    assert all(url.split("://", 1)[1].startswith(host + "/") for url in outbound_http.urls)
    assert {("redirect-loop", "/self")} <= issues
    assert ("redirect-loop", "/loop-a") in issues or ("redirect-loop", "/loop-b") in issues
    assert pages["/huge"]["truncated"] and ("html-too-large", "/huge") in issues
    assert pages["/bomb"]["truncated"]
    assert pages["/trickle"]["status_code"] == 0 and pages["/trickle"]["fetch_class"] == "error"
    assert pages["/many-links"]["internal_link_count"] == 10_000  # every link, uncapped
    assert len([p for p in pages if p.startswith("/generated/")]) > 100
    assert pages["/image.png"]["is_html"] is False and pages["/data.json"]["is_html"] is False
    assert pages["/to-private"]["redirect_url"] == "http://10.1.2.3/admin"
    # Sitemap-only URLs come after every link-discovered one (durable.scratchpad._LEASE_LEVEL),
    # and the generated pages alone exceed max_pages.
    assert "/from-broken" not in pages


async def test_what_a_truncated_sitemap_listed_before_breaking_is_crawled(
    platform: LocalPlatform,
) -> None:
    routes = {"/": page("Home", "<h1>Home</h1>"), **hostile_discovery_routes()}
    with serve_site(routes) as site:
        status, body = await platform.request("POST", "/api/audits", {"url": site.url("/")})
        assert status == 201
        await platform.wait_for_workflow(body["audit"]["id"], timeout_s=60)
        report: dict[str, Any] = await full_report(platform, body["audit"]["id"])

    assert report["audit"]["status"] == "completed", report["audit"]
    assert {p["url"].removeprefix(site.origin) for p in report["pages"]} == {"/", "/from-broken"}
