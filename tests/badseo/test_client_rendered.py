"""badseo's client-rendered site (client_rendered.py): raw HTML is the same empty app shell on
every route, and every route's facts and every planted defect appear once a browser renders it
(the local renderer, in Debian's Chromium, obeying the site's robots.txt as an audit does)."""

from __future__ import annotations

import httpx
import pytest

from audit.rules_head import is_javascript_shell
from common import ports
from local_platform.chromium_renderer import ChromiumRenderer, chromium_executable
from local_platform.fetch import aclose_shared_client
from parse.extractor import PageExtractor
from parse.facts import PageFacts
from render.records import BlockedRequest, BlockReason, RenderBudget
from tests.badseo.client_rendered import (
    BLOCKED_SCRIPT,
    BROKEN_TARGET,
    NOT_FOUND_TITLE,
    ROUTES,
    SOFT_404,
    Planted,
    robots_gate,
    serve_client_rendered,
)
from urls.private_hosts import PrivateHosts


def facts(url: str, html: str | bytes) -> PageFacts:
    extractor = PageExtractor(url, content_type="text/html; charset=utf-8")
    extractor.feed(html.encode() if isinstance(html, str) else html)
    return extractor.close()


def paths(page: PageFacts, origin: str) -> set[str]:
    urls = (link.href.url for link in page.links if link.href.url)
    return {url.removeprefix(origin) or "/" for url in urls if url.startswith(origin)}


def test_raw_html_is_the_same_empty_shell_on_every_route() -> None:
    with serve_client_rendered() as site:
        bodies = {path: httpx.get(site.url(path)).content for path in [r.path for r in ROUTES]}
        missing = httpx.get(site.url(BROKEN_TARGET))
    assert len(set(bodies.values())) == 1
    shell = facts(site.url("/"), bodies["/"])
    assert is_javascript_shell(shell)
    assert (shell.titles, shell.links_seen, shell.meta_descriptions) == (("Loading",), 0, ())
    assert missing.status_code == 404


@pytest.mark.skipif(chromium_executable() is None, reason="needs Chromium: no `chromium` on PATH")
async def test_rendering_shows_every_route_and_every_planted_defect() -> None:
    with serve_client_rendered() as site:
        gate = robots_gate(site.origin)
        renderer = ChromiumRenderer(ports.http_client(), PrivateHosts.LOOPBACK, robots=gate)
        try:
            paths_to_render = [route.path for route in ROUTES] + [SOFT_404]
            rendered = {
                p: await renderer.render(site.url(p), RenderBudget()) for p in paths_to_render
            }
        finally:
            await renderer.aclose()
            await aclose_shared_client()
        requested = {request.path for request in site.requests}

    found: set[Planted] = set()
    for route in ROUTES:
        page = rendered[route.path]
        assert page.ok and page.status == 200, (route.path, page.error)
        built = facts(page.final_url, page.html)
        assert built.titles == (route.title,)
        assert built.meta_descriptions == (route.description,)
        assert paths(built, site.origin) == set(route.links)
        assert [h.text for h in built.headings] == [route.heading]
        found.update((Planted.TITLE_SET_BY_SCRIPT, Planted.DESCRIPTION_SET_BY_SCRIPT))
        found.add(Planted.LINKS_ONLY_AFTER_SCRIPT)
        if route.canonical:
            assert [c.url for c in built.canonicals] == [site.url(route.canonical)]
            found.add(Planted.CANONICAL_ADDED_BY_SCRIPT)
        if route.robots:
            assert built.meta_robots == (route.robots,)
            found.add(Planted.NOINDEX_ADDED_BY_SCRIPT)
        if BROKEN_TARGET in route.links:
            found.add(Planted.BROKEN_LINK_ONLY_RENDERED)
        if route.throws:
            assert len(page.exceptions) == 1 and route.throws in page.exceptions[0]
            found.add(Planted.UNCAUGHT_EXCEPTION)
        else:
            assert page.exceptions == [], route.path
        if route.script:  # robots.txt disallows it: refused, recorded, never requested
            blocked = BlockedRequest(site.url(route.script), BlockReason.ROBOTS_TXT, "script")
            assert page.blocked == [blocked]
            found.add(Planted.RESOURCE_BLOCKED_BY_ROBOTS)
        else:
            assert page.blocked == [], route.path
        assert page.console_errors == [], route.path

    # Every route is reachable from the start page through rendered links alone.
    reachable, frontier = {"/"}, ["/"]
    while frontier:
        built = facts(site.url(frontier[0]), rendered[frontier.pop(0)].html)
        for target in paths(built, site.origin) - reachable:
            reachable.add(target)
            if target in rendered:
                frontier.append(target)
    assert {route.path for route in ROUTES} | {SOFT_404, BROKEN_TARGET} == reachable

    soft = rendered[SOFT_404]
    assert soft.ok and soft.status == 200
    assert facts(soft.final_url, soft.html).titles == (NOT_FOUND_TITLE,)
    found.add(Planted.SOFT_404)
    assert found == set(Planted)
    assert BLOCKED_SCRIPT not in requested and "/app.js" in requested
