"""Issue 31 item 2 in a whole audit: with `render: always`, the local renderer (Debian's
Chromium) runs the real axe-core on the audit's first AXE_PAGES rendered pages and on no other,
across render steps (workflow.render_step: PAGES_PER_STEP pages a step), and each run finds the
low contrast every page of the site has. The audit reports it: an `a11y-color-contrast` issue on
each page axe-core ran on and on no other, its element marked rendered, and a verdict that counts
those pages and calls the fault site-wide among them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from a11y.rule_ids import RenderedRuleId
from common import ports
from local_platform.chromium_renderer import ChromiumRenderer
from local_platform.runtime import LocalPlatform
from render.records import RenderBudget, RenderedPage
from render.renderers import use_local_renderer
from render.request_policy import RobotsGate
from tests.browser.axe import axe_source
from tests.support.platform_vars import TEST_VARS
from tests.support.site_server import Reply, html_page, serve_site
from urls.private_hosts import PrivateHosts
from workflow.render_step import AXE_PAGES, PAGES_PER_STEP

pytestmark = pytest.mark.slow

PAGES = AXE_PAGES + 4  # more than AXE_PAGES, over more than one render step
assert PAGES > PAGES_PER_STEP
FAINT = '<p id="faint" style="color: #bbbbbb; background: #ffffff">Grey on white.</p>'


def _site() -> dict[str, Reply]:
    links = "".join(f'<a href="/p{n}">Page {n}</a> ' for n in range(1, PAGES))
    routes = {"/": Reply(body=html_page("Home", f"<main><h1>Home</h1>{FAINT}{links}</main>"))}
    for n in range(1, PAGES):
        routes[f"/p{n}"] = Reply(body=html_page(f"Page {n}", f"<main><h1>{n}</h1>{FAINT}</main>"))
    routes["/robots.txt"] = Reply(body=b"", headers={"content-type": "text/plain"})
    return routes


@dataclass
class Recorded:
    """The renders of the audit, as the render steps asked for them and got them."""

    renders: list[tuple[RenderBudget, RenderedPage]] = field(default_factory=list)


class RecordingRenderer(ChromiumRenderer):
    def __init__(self, recorded: Recorded, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.recorded = recorded

    async def render(self, url: str, budget: RenderBudget) -> RenderedPage:
        page = await super().render(url, budget)
        self.recorded.renders.append((budget, page))
        return page


async def test_axe_core_runs_on_the_first_axe_pages_rendered_pages_of_an_audit(
    tmp_path: Path,
) -> None:
    axe_source()  # a skip that says how to get axe-core when it is missing
    recorded = Recorded()

    def factory(
        http: ports.HttpClient, private_hosts: PrivateHosts, robots: RobotsGate | None
    ) -> ChromiumRenderer:
        return RecordingRenderer(recorded, http, private_hosts, robots=robots)

    platform = LocalPlatform(tmp_path / "state", var_overrides=TEST_VARS, local_renderer=True)
    if ChromiumRenderer(ports.http_client(), PrivateHosts.LOOPBACK).unavailable is not None:
        await platform.close()
        pytest.skip("the local renderer cannot run here (no Chromium or no Playwright)")
    use_local_renderer(factory)
    try:
        with serve_site(_site()) as site:
            request = {"url": site.url("/"), "max_pages": PAGES, "render": "always"}
            status, body = await platform.request("POST", "/api/audits", request)
            assert status == 201, body
            audit_id = body["audit"]["id"]
            await platform.wait_for_workflow(audit_id, timeout_s=300)
        issues = await _got(platform, f"/api/audits/{audit_id}/issues?type={CONTRAST}&limit=100")
        actions = await _got(platform, f"/api/audits/{audit_id}/actions")
    finally:
        await platform.close()
        use_local_renderer(None)

    assert len(recorded.renders) == PAGES
    assert all(page.ok for _, page in recorded.renders), [p.error for _, p in recorded.renders]
    asked = [page for budget, page in recorded.renders if budget.accessibility]
    assert len(asked) == AXE_PAGES
    assert all(page.accessibility is None for b, page in recorded.renders if not b.accessibility)
    for page in asked:
        assert page.accessibility is not None and page.accessibility.error is None, page.url
        rules = {(f.rule, f.selector) for f in page.accessibility.findings}
        assert (RenderedRuleId.COLOR_CONTRAST, "#faint") in rules, page.url

    # The audit's issues: color-contrast on exactly the pages axe-core ran on, marked rendered.
    assert {i["page_url"] for i in issues["issues"]} == {page.url for page in asked}
    for issue in issues["issues"]:
        assert issue["details"]["rule"] == "color-contrast"
        assert [(e["selector"], e["source"]) for e in issue["details"]["elements"]] == [
            ("#faint", "rendered")
        ]
    # The verdict counts the pages axe-core checked and judges the fault among them only.
    assert actions["scores"]["accessibility_rendered"] == AXE_PAGES
    [contrast] = [a for a in actions["actions"] if a["issue_type"] == CONTRAST]
    assert contrast["scope"] == "site-wide" and contrast["pages"] == AXE_PAGES
    assert f"{AXE_PAGES} of the {AXE_PAGES} pages axe-core checked" in contrast["summary"]


CONTRAST = "a11y-color-contrast"


async def _got(platform: LocalPlatform, path: str) -> Any:
    status, body = await platform.request("GET", path)
    assert status == 200, body
    return body  # JSON whose shape the test knows
