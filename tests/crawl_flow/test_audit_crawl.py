"""Whole audits through the Worker's API on the local platform: discovery, chunks, finalize."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cli.report import full_report
from local_platform.runtime import LocalPlatform
from service.audits import LOCAL_OWNER
from service.html_report import export_html
from tests.support.loopback_http import LoopbackOnlyHttp
from tests.support.site_server import Reply, html_page, serve_site


def page(title: str, *links: str, extra: str = "") -> Reply:
    anchors = "".join(f"<a href='{href}'>{href}</a> " for href in links)
    return Reply(body=html_page(title, f"<h1>{title}</h1>{anchors}{extra}"))


async def audit_site(platform: LocalPlatform, url: str, **options: Any) -> dict[str, Any]:
    status, body = await platform.request("POST", "/api/audits", {"url": url, **options})
    assert status == 201, body
    audit_id = body["audit"]["id"]
    await platform.wait_for_workflow(audit_id, timeout_s=60)
    report = await full_report(platform, audit_id)
    return report


def paths(report: dict[str, Any], origin: str) -> set[str]:
    return {p["url"].removeprefix(origin) for p in report["pages"]}


async def test_every_linked_page_is_crawled_once(platform: LocalPlatform) -> None:
    routes = {f"/p{i}": page(f"Page number {i}", f"/p{(i + 1) % 30}", "/") for i in range(30)}
    # "/p15#section" and "/p%31%35" are spellings of /p15 (the fragment is never sent; %31%35 is
    # "15", RFC 3986 §6.2.2.2); "/p15?" would not be: a browser requests it as written.
    routes["/"] = page("Home page", "/p0", "/p15#section", "/p%31%35")
    with serve_site(routes) as site:
        report = await audit_site(platform, site.url("/"))
        fetched = [r.path for r in site.requests if r.path not in ("/robots.txt", "/sitemap.xml")]

    assert report["audit"]["status"] == "completed"
    assert paths(report, site.origin) >= {"/", *(f"/p{i}" for i in range(30))}
    # Each page is fetched once; "/" four times: discovery first probes the start URL's
    # redirects, and the security grade asks its http entry point, then the CORS probe.
    assert Counter(fetched) == {"/": 4, **{f"/p{i}": 1 for i in range(30)}}
    assert report["audit"]["pages_crawled"] == len(report["pages"])


async def test_max_pages_bounds_the_crawl(platform: LocalPlatform) -> None:
    routes = {f"/p{i}": page(f"Page number {i}", f"/p{i + 1}") for i in range(40)}
    routes["/"] = page("Home page", "/p0")
    with serve_site(routes) as site:
        report = await audit_site(platform, site.url("/"), max_pages=12)

    assert report["audit"]["status"] == "completed"
    assert len(report["pages"]) == 12


async def test_robots_and_sitemaps_shape_the_frontier(platform: LocalPlatform) -> None:
    routes = {
        "/": page("Home page", "/a", "/private/secret"),
        "/a": page("Page A"),
        "/private/secret": page("Secret"),
        "/only-in-sitemap": page("Only in the sitemap"),
    }
    with serve_site(routes) as site:
        robots = f"User-agent: *\nDisallow: /private\nSitemap: {site.url('/custom-sitemap.xml')}\n"
        site.server.routes["/robots.txt"] = Reply(
            body=robots.encode(), headers={"content-type": "text/plain"}
        )
        sitemap = (
            "<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>"
            f"<url><loc>{site.url('/only-in-sitemap')}</loc></url>"
            f"<url><loc>{site.url('/private/listed')}</loc></url></urlset>"
        )
        site.server.routes["/custom-sitemap.xml"] = Reply(
            body=sitemap.encode(), headers={"content-type": "application/xml"}
        )
        report = await audit_site(platform, site.url("/"))
        requested = {r.path for r in site.requests}

    crawled = paths(report, site.origin)
    assert {"/", "/a", "/only-in-sitemap"} <= crawled
    assert not any(p.startswith("/private") for p in crawled | requested)
    sitemap_page = next(p for p in report["pages"] if p["url"].endswith("/only-in-sitemap"))
    assert (sitemap_page["in_sitemap"], sitemap_page["crawl_depth"]) == (True, None)
    issue_types = {
        (i["issue_type"], i["page_url"].removeprefix(site.origin)) for i in report["issues"]
    }
    assert ("orphan-page", "/only-in-sitemap") in issue_types
    assert ("sitemap-url-blocked", "/private/listed") in issue_types


def robots_reply(disallow: str) -> Reply:
    body = f"User-agent: *\nDisallow: {disallow}\n".encode()
    return Reply(body=body, headers={"content-type": "text/plain"})


async def test_robots_txt_is_read_once_while_the_start_url_is_resolved(
    platform: LocalPlatform,
) -> None:
    routes = {"/": page("Home page", "/a", "/b"), "/a": page("Page A"), "/b": page("Page B")}
    routes["/robots.txt"] = robots_reply("/b")
    with serve_site(routes) as site:
        report = await audit_site(platform, site.url("/"))
        robots_reads = [r.path for r in site.requests].count("/robots.txt")

    assert robots_reads == 1
    assert paths(report, site.origin) == {"/", "/a"}


async def test_a_start_url_that_leaves_its_origin_takes_the_final_origins_robots(
    platform: LocalPlatform,
) -> None:
    final_routes = {"/": page("Home page", "/a", "/b"), "/a": page("Page A"), "/b": page("Page B")}
    final_routes["/robots.txt"] = robots_reply("/a")
    with serve_site(final_routes) as final, serve_site({}) as first:
        first.server.routes["/"] = Reply(301, b"", {"location": final.url("/")})
        first.server.routes["/robots.txt"] = robots_reply("/b")
        report = await audit_site(platform, first.url("/"))

    # The first origin's robots.txt was asked for alongside the redirect, and then not used.
    assert paths(report, final.origin) >= {"/", "/b"}
    assert final.url("/a") not in {p["url"] for p in report["pages"]}


async def test_redirects_and_broken_links_become_cross_page_issues(platform: LocalPlatform) -> None:
    routes = {
        "/": page("Home page", "/old", "/missing"),
        "/old": Reply(301, b"", {"location": "/older"}),
        "/older": Reply(301, b"", {"location": "/new"}),
        "/new": page("New page"),
    }
    with serve_site(routes) as site:
        report = await audit_site(platform, site.url("/"))

    issues = {(i["issue_type"], i["page_url"].removeprefix(site.origin)) for i in report["issues"]}
    assert ("redirect-chain", "/old") in issues
    assert ("broken-internal-link", "/") in issues
    assert ("broken-page", "/missing") in issues
    statuses = {p["url"].removeprefix(site.origin): p["status_code"] for p in report["pages"]}
    assert statuses["/old"] == 301 and statuses["/new"] == 200


async def test_a_redirect_to_a_private_address_is_never_followed(
    platform: LocalPlatform, outbound_http: LoopbackOnlyHttp
) -> None:
    routes = {
        "/": page("Home page", "/go", "http://10.0.0.1/internal", "http://2130706433:8080/"),
        "/go": Reply(302, b"", {"location": "http://169.254.169.254/latest/meta-data"}),
    }
    with serve_site(routes) as site:
        report = await audit_site(platform, site.url("/"))

    assert report["audit"]["status"] == "completed"
    go = next(p for p in report["pages"] if p["url"].endswith("/go"))
    assert (go["status_code"], go["redirect_url"]) == (
        302,
        "http://169.254.169.254/latest/meta-data",
    )
    # Only the site itself was asked: over http, and over https by the security grade.
    host = site.origin.removeprefix("http://")
    assert all(url.split("://", 1)[1].startswith(host + "/") for url in outbound_http.urls)


async def test_a_start_url_redirecting_to_an_embedded_loopback_address_is_refused_at_the_hop(
    platform: LocalPlatform, outbound_http: LoopbackOnlyHttp
) -> None:
    # `::ffff:0:7f00:1` is 127.0.0.1 in the IPv4-translated form (RFC 6145). The platform allows
    # loopback hosts, but only as themselves (urls.private_hosts), so the hop is not followed.
    routes = {"/": Reply(302, b"", {"location": "http://[::ffff:0:7f00:1]/"})}
    with serve_site(routes) as site:
        report = await audit_site(platform, site.url("/"))

    audit = report["audit"]
    assert (audit["status"], audit["final_url"]) == ("completed", site.url("/"))
    home = next(p for p in report["pages"] if p["url"] == site.url("/"))
    assert (home["status_code"], home["redirect_url"]) == (302, "http://[::ffff:0:7f00:1]/")
    # The security grade follows the same redirect by itself, and refuses the same hop.
    assert audit["security_error"] == "http://[::ffff:0:7f00:1]/: a private or reserved address"
    host = site.origin.removeprefix("http://")
    assert all(url.split("://", 1)[1].startswith(host + "/") for url in outbound_http.urls)


async def test_pages_the_sitemap_lists_first_keep_the_depth_links_give_them(
    platform: LocalPlatform,
) -> None:
    """Issue 27: on a site whose sitemap lists its pages, pages first seen in the sitemap kept an
    unknown depth though links reached them. Every page links reach has its shortest link
    distance; only the page no link reaches has none, and the HTML report says "not linked"."""
    routes = {
        "/": page("Home page", "/a", "/b"),
        "/a": page("Page A", "/a/deep"),
        "/b": page("Page B", "/a/deep"),
        "/a/deep": page("A deep page", "/"),
        "/orphan": page("Listed only in the sitemap"),
    }
    with serve_site(routes) as site:
        locs = "".join(f"<url><loc>{site.url(path)}</loc></url>" for path in sorted(routes))
        sitemap = f"<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>{locs}</urlset>"
        site.server.routes["/sitemap.xml"] = Reply(
            body=sitemap.encode(), headers={"content-type": "application/xml"}
        )
        report = await audit_site(platform, site.url("/"))
    export = await export_html(platform.core_env, LOCAL_OWNER, report["audit"]["id"])
    html = b"".join([chunk async for chunk in export.chunks]).decode()

    depths = {p["url"].removeprefix(site.origin): p["crawl_depth"] for p in report["pages"]}
    assert depths == {"/": 0, "/a": 1, "/b": 1, "/a/deep": 2, "/orphan": None}
    assert all(p["in_sitemap"] for p in report["pages"])
    assert "not linked" in html and "unknown" not in html
