"""badseo's client-rendered site through the raw-versus-rendered rules (audit.rendering_rules):
every planted defect (client_rendered.Planted) maps to its issue type on its route, and nothing
else is found.

The raw page of every route is the app shell the server sends; the rendered pages are documents
written here the way `/app.js`'s `render()` builds them (a mirror, fast and browser-free), and, in
the browser tier, the DOM Debian's Chromium builds (the local renderer), which must give the same
findings.
"""

from __future__ import annotations

from html import escape

import pytest

from audit.catalogue import IssueType
from audit.issues import DetectedIssue
from audit.page import PageObservation
from audit.rendering_rules import (
    RenderNotDoneReason,
    rendered_page_issues,
    rendering_not_done_issue,
)
from audit.rules_head import javascript_shell
from common import ports
from common.fetch_class import FetchClass
from local_platform.chromium_renderer import ChromiumRenderer, chromium_executable
from local_platform.fetch import aclose_shared_client
from parse.extractor import PageExtractor
from render.records import BlockedRequest, BlockReason, RenderBudget, RenderedPage
from tests.badseo.client_rendered import (
    BLOCKED_SCRIPT,
    BROKEN_TARGET,
    NOT_FOUND_TITLE,
    ROUTES,
    SHELL,
    SOFT_404,
    Planted,
    Route,
    robots_gate,
    serve_client_rendered,
)
from urls.private_hosts import PrivateHosts

T = IssueType
ORIGIN = "http://127.0.0.1:8000"

# Each planted defect and the issue type that reports it. A broken link present only in the
# rendered DOM is one of the links only script builds; the crawl reaches its target through them
# and reports broken-internal-link there (a cross-page rule, not one of these).
PLANTED_AS = {
    Planted.LINKS_ONLY_AFTER_SCRIPT: T.LINKS_ONLY_AFTER_SCRIPT,
    Planted.TITLE_SET_BY_SCRIPT: T.TITLE_CHANGED_BY_SCRIPT,
    Planted.DESCRIPTION_SET_BY_SCRIPT: T.META_DESCRIPTION_CHANGED_BY_SCRIPT,
    Planted.CANONICAL_ADDED_BY_SCRIPT: T.CANONICAL_ADDED_BY_SCRIPT,
    Planted.NOINDEX_ADDED_BY_SCRIPT: T.NOINDEX_ADDED_BY_SCRIPT,
    Planted.BROKEN_LINK_ONLY_RENDERED: T.LINKS_ONLY_AFTER_SCRIPT,
    Planted.UNCAUGHT_EXCEPTION: T.UNCAUGHT_EXCEPTION_DURING_LOAD,
    Planted.SOFT_404: T.SOFT_404,
    Planted.RESOURCE_BLOCKED_BY_ROBOTS: T.RESOURCES_BLOCKED_BY_ROBOTS,
}
# The not-found view app.js renders for a path that is no route (`NOT_FOUND`).
NOT_FOUND = Route(SOFT_404, NOT_FOUND_TITLE, "", "Page not found", ("/",), (Planted.SOFT_404,))
NOT_FOUND_TEXT = "Sorry, this page does not exist."


def observation(url: str, html: bytes) -> PageObservation:
    extractor = PageExtractor(url, content_type="text/html; charset=utf-8")
    extractor.feed(html)
    facts = extractor.close()
    return PageObservation(
        url, url, 200, FetchClass.OK, 50, "text/html; charset=utf-8", True, len(html), facts=facts
    )


def rendered_document(route: Route) -> str:
    """The DOM `render(route.path)` leaves, serialised as Chromium's `page.content()` does."""
    head = ['<meta charset="utf-8">', f"<title>{escape(route.title)}</title>"]
    head.append('<script type="module" src="/app.js"></script>')
    if route.description:
        head.append(f'<meta name="description" content="{escape(route.description)}">')
    if route.robots:
        head.append(f'<meta name="robots" content="{escape(route.robots)}">')
    if route.canonical:
        head.append(f'<link rel="canonical" href="{escape(route.canonical)}">')
    text = NOT_FOUND_TEXT if route is NOT_FOUND else f"{route.heading}: {route.description}"
    links = "".join(f'<a href="{escape(href)}">{escape(href)}</a>' for href in route.links)
    body = f'<div id="app"><h1>{escape(route.heading)}</h1><p>{escape(text)}</p><nav>{links}</nav></div>'
    return f'<!DOCTYPE html><html lang="en"><head>{"".join(head)}</head><body>{body}</body></html>'


def mirrored_render(route: Route, origin: str) -> RenderedPage:
    url = origin + route.path
    exceptions = [f"Error: {route.throws}"] if route.throws else []
    # The one script robots.txt disallows, refused as a render that obeys it refuses it.
    script = route.script
    blocked = [BlockedRequest(origin + script, BlockReason.ROBOTS_TXT, "script")] if script else []
    html = rendered_document(route)
    return RenderedPage(
        url,
        "mirror",
        final_url=url,
        status=200,
        html=html,
        exceptions=exceptions,
        blocked=blocked,
    )


def findings(route: Route, page: RenderedPage, origin: str) -> list[DetectedIssue]:
    url = origin + route.path
    raw = observation(url, SHELL)
    rendered = observation(page.final_url, page.html.encode())
    return rendered_page_issues(raw, rendered, page)


def expected_types(route: Route) -> set[IssueType]:
    return {PLANTED_AS[planted] for planted in route.planted} | (
        {T.TITLE_CHANGED_BY_SCRIPT, T.LINKS_ONLY_AFTER_SCRIPT} if route is NOT_FOUND else set()
    )


ALL_ROUTES = (*ROUTES, NOT_FOUND)


def check_every_planted_defect(pages: dict[str, RenderedPage], origin: str) -> None:
    found: set[Planted] = set()
    for route in ALL_ROUTES:
        issues = findings(route, pages[route.path], origin)
        assert {issue.issue_type for issue in issues} == expected_types(route), route.path
        assert len(issues) == len(expected_types(route)), route.path  # each once
        found.update(route.planted)
        links = next(i for i in issues if i.issue_type is T.LINKS_ONLY_AFTER_SCRIPT)
        assert links.details["count"] == len(route.links), route.path
        if BROKEN_TARGET in route.links:
            assert origin + BROKEN_TARGET in links.details["sampleUrls"]  # type: ignore[operator]
    assert found == set(Planted)


def test_every_planted_defect_maps_to_its_issue_type():
    check_every_planted_defect({r.path: mirrored_render(r, ORIGIN) for r in ALL_ROUTES}, ORIGIN)


@pytest.mark.parametrize(
    ("path", "issue_type", "details"),
    [
        ("/", T.TITLE_CHANGED_BY_SCRIPT, {"raw": "Loading", "rendered": ROUTES[0].title}),
        (
            "/products/widget",
            T.CANONICAL_ADDED_BY_SCRIPT,
            {"renderedCanonical": f"{ORIGIN}/products"},
        ),
        (
            "/private",
            T.NOINDEX_ADDED_BY_SCRIPT,
            {"rawDirectives": [], "renderedDirectives": ["noindex"]},
        ),
        (
            "/throws",
            T.UNCAUGHT_EXCEPTION_DURING_LOAD,
            {"count": 1, "sample": ["Error: the widget failed to load"]},
        ),
        (
            "/reviews",
            T.RESOURCES_BLOCKED_BY_ROBOTS,
            {"count": 1, "sample": [{"url": ORIGIN + BLOCKED_SCRIPT, "resourceType": "script"}]},
        ),
        (
            SOFT_404,
            T.SOFT_404,
            {"statusCode": 200, "title": NOT_FOUND_TITLE, "h1": "Page not found"},
        ),
    ],
)
def test_what_the_owner_is_told(path, issue_type, details):
    route = next(r for r in ALL_ROUTES if r.path == path)
    issues = findings(route, mirrored_render(route, ORIGIN), ORIGIN)
    assert [i.details for i in issues if i.issue_type is issue_type] == [details]


def test_without_rendering_the_shell_says_rendering_would_find_more():
    """`--render never`: the start page is an app shell, and the finding says why it was not
    rendered."""
    raw = observation(ORIGIN + "/", SHELL)
    assert javascript_shell(raw)
    issue = rendering_not_done_issue(raw, RenderNotDoneReason.MODE_NEVER, "rendering was off")
    assert (issue.issue_type, issue.details["rawWordCount"]) == (T.RENDERING_NOT_DONE, 0)


@pytest.mark.skipif(chromium_executable() is None, reason="needs Chromium: no `chromium` on PATH")
async def test_the_browsers_rendering_gives_the_same_findings() -> None:
    with serve_client_rendered() as site:
        gate = robots_gate(site.origin)
        renderer = ChromiumRenderer(ports.http_client(), PrivateHosts.LOOPBACK, robots=gate)
        try:
            pages = {
                r.path: await renderer.render(site.url(r.path), RenderBudget()) for r in ALL_ROUTES
            }
        finally:
            await renderer.aclose()
            await aclose_shared_client()
    check_every_planted_defect(pages, site.origin)
