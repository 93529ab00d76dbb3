"""badseo's client-rendered site (client_rendered.py) audited through the Worker's API and the
full workflow with the local renderer (Debian's Chromium; skipped with the reason without it).

`--render auto` renders the app shell, finds every route through links present only in the
rendered DOM, judges each route on what a visitor's browser shows (its title, description and
h1, the canonical and the `noindex` added by script), and finds the broken link that exists only
in the rendered DOM, all at the audit's rate, the renders' fetches too; every defect planted in
a route is reported on its page by the raw-versus-rendered rules (audit.rendering_rules), the
script robots.txt disallows among them. `--render never` finds the start page
alone, and says rendering would find more. One audit per mode: a render costs about a second."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cli.report import format_summary, full_report
from local_platform.chromium_renderer import chromium_executable
from local_platform.runtime import LocalPlatform
from tests.badseo.client_rendered import (
    BLOCKED_SCRIPT,
    BROKEN_TARGET,
    ROUTES,
    SOFT_404,
    serve_client_rendered,
)
from tests.badseo.test_client_rendered_rules import ALL_ROUTES, expected_types
from tests.scope.test_pace_carried import Start, starts
from tests.scope.test_pace_carried import _gaps as gaps
from tests.support.platform_vars import TEST_VARS

__all__ = ["starts"]  # the pacers' bookings (tests.scope.test_pace_carried)

RATE = 20.0  # requests a second to the site: 50 ms apart

needs_chromium = pytest.mark.skipif(
    chromium_executable() is None, reason="needs Chromium: no `chromium` on PATH"
)


async def audited(
    tmp_path: Path, render: str, *, renderer: bool = True, **options: Any
) -> tuple[dict[str, Any], str, list[str]]:
    """The full report of an audit of the site in the `render` mode, the site's origin and the
    paths it was asked for; `renderer`: the local platform renders with Chromium."""
    platform = LocalPlatform(tmp_path / "state", var_overrides=TEST_VARS, local_renderer=renderer)
    try:
        with serve_client_rendered() as site:
            request = {"url": site.url("/"), "max_pages": 30, "render": render, **options}
            status, body = await platform.request("POST", "/api/audits", request)
            assert status == 201, body
            audit_id = body["audit"]["id"]
            await platform.wait_for_workflow(audit_id, timeout_s=300)
            requested = [request.path for request in site.requests]
            return await full_report(platform, audit_id), site.origin, requested
    finally:
        await platform.close()


def by_path(report: dict[str, Any], origin: str) -> dict[str, dict[str, Any]]:
    return {page["url"].removeprefix(origin) or "/": page for page in report["pages"]}


def issues_of(report: dict[str, Any], origin: str) -> set[tuple[str, str]]:
    return {(i["issue_type"], i["page_url"].removeprefix(origin) or "/") for i in report["issues"]}


@pytest.mark.slow
@needs_chromium
async def test_auto_renders_the_shell_and_finds_every_route_and_the_broken_link(
    tmp_path: Path, starts: list[Start]
) -> None:
    report, origin, requested = await audited(tmp_path, "auto", rate_per_s=RATE)

    assert report["audit"]["status"] == "completed", report["audit"]
    pages = by_path(report, origin)
    assert {route.path for route in ROUTES} | {SOFT_404, BROKEN_TARGET} <= set(pages)
    for route in ROUTES:  # judged on the rendered DOM: the title and h1 the script set
        assert (pages[route.path]["title"], pages[route.path]["h1_count"]) == (route.title, 1)
    assert pages["/products/widget"]["canonical_url"] == f"{origin}/products"
    assert pages["/private"]["is_indexable"] is False
    found = issues_of(report, origin)
    assert ("broken-page", BROKEN_TARGET) in found  # linked only from the rendered /downloads
    assert ("noindex-page", "/private") in found
    assert ("canonicalized-page", "/products/widget") in found
    assert not {(t, p) for t, p in found if t == "javascript-rendering-suspected"}
    # Every planted defect, as the raw-versus-rendered rules name it, on its own page.
    for route in ALL_ROUTES:
        wanted = {(issue_type.value, route.path) for issue_type in expected_types(route)}
        assert wanted <= found, route.path
    # The script robots.txt disallows: refused by the render, and reported on its page. (The
    # site does see it requested: the exposure checks read same-site scripts by content, and
    # apply no robots.txt; tests/badseo/test_client_rendered.py shows the render never asks.)
    blocked = next(i for i in report["issues"] if i["issue_type"] == "resources-blocked-by-robots")
    assert blocked["page_url"] == f"{origin}/reviews"
    assert blocked["details"]["sample"] == [
        {"url": f"{origin}{BLOCKED_SCRIPT}", "resourceType": "script"}
    ]
    rendered = [i for i in report["issues"] if i["page_url"].startswith(f"{origin}/private")]
    assert rendered and all(i["details"].get("rendered") is True for i in rendered)
    summary = report["rendering"]["counts"]
    # Every route, the soft 404 and the missing brochure came from rendered links alone.
    assert summary["script_links"] >= len(ROUTES) + 1
    assert report["rendering"]["mode"] == "auto"
    assert (summary["shells_not_rendered"], summary["failed"]) == (0, 0)
    assert summary["rendered"] == len(ROUTES) + 1  # each route and the soft-404 route
    assert "rendering would find more" not in format_summary(report)
    # At the audit's rate, the renders too (workflow.render_step): every request the site got
    # was booked by a pacer, each app.js a render loaded among them, never two closer than 1/rate
    # on the pacers' clock (a millisecond for a turn carried across a step through the wall).
    to_site = [s for s in starts if s.url.startswith(origin)]
    assert sorted(s.path for s in to_site) == sorted(requested)
    assert sum(s.path == "/app.js" for s in to_site) >= len(ROUTES) + 1
    assert min(gap for gap, _, _ in gaps(to_site)) >= 1 / RATE - 0.001


@pytest.mark.parametrize(
    ("render", "renderer", "reason"),
    [
        pytest.param("never", True, "the audit's render option is never", marks=needs_chromium),
        ("auto", False, "no renderer: the BROWSER_RENDERING_ACCOUNT_ID var and"),
    ],
    ids=["never", "auto-without-a-renderer"],
)
async def test_without_rendering_only_the_start_page_is_found_and_the_audit_says_why(
    tmp_path: Path, render: str, renderer: bool, reason: str
) -> None:
    report, origin, _ = await audited(tmp_path, render, renderer=renderer)

    assert report["audit"]["status"] == "completed", report["audit"]
    assert set(by_path(report, origin)) == {"/"}
    assert ("javascript-rendering-suspected", "/") in issues_of(report, origin)
    not_done = [i for i in report["issues"] if i["issue_type"] == "rendering-not-done"]
    assert [(i["page_url"], i["details"]["reason"]) for i in not_done] == [
        (f"{origin}/", "render-never" if render == "never" else "no-renderer")
    ]
    # One fix, one finding: led by the shell finding (audit.verdict.SHARED_FIXES).
    shell = [f for f in report["actions"] if "rendering-not-done" in f.get("issue_types", [])]
    assert [f["issue_type"] for f in shell] == ["javascript-rendering-suspected"]
    summary = report["rendering"]["counts"]
    assert (summary["rendered"], summary["shells_not_rendered"]) == (0, 1)
    assert summary["reason"].startswith(reason)
    line = "rendering: rendering would find more: 1 page looks like an app shell and was not "
    assert f"{line}rendered ({summary['reason']})" in format_summary(report).splitlines()
