"""Issue 31 item 2: axe-core on rendered pages. The local renderer (ChromiumRenderer) runs the
real axe-core (node_modules/axe-core) on pages a loopback site serves, and the rendered page's
observation carries its findings merged with the static rules' (crawl.rendered_pages,
a11y.merge); the recorded results tests/a11y/test_axe.py converts still match a fresh run."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from a11y.findings import Source
from a11y.rule_ids import RenderedRuleId, RuleId
from common import ports
from local_platform.chromium_renderer import ChromiumRenderer
from local_platform.fetch import aclose_shared_client
from render.records import RenderBudget, RenderedPage
from tests.browser.axe import axe_source
from tests.browser.capture_axe import FIXTURES, fixtures, run_axe
from tests.support.site_server import Reply, Site, serve_site
from urls.private_hosts import PrivateHosts

pytestmark = pytest.mark.slow

PAGES = {f"/{path.name}": Reply(body=path.read_bytes()) for path in fixtures()}


@pytest.fixture
async def renderer() -> AsyncIterator[ChromiumRenderer]:
    axe_source()  # a skip that says how to get axe-core when it is missing
    chromium = ChromiumRenderer(ports.http_client(), PrivateHosts.LOOPBACK)
    if chromium.unavailable is not None:
        pytest.skip(f"the local renderer cannot run: {chromium.unavailable}")
    try:
        yield chromium
    finally:
        await chromium.aclose()
        await aclose_shared_client()


async def _render(
    renderer: ChromiumRenderer, site: Site, name: str, **budget: bool
) -> RenderedPage:
    page = await renderer.render(site.url(f"/{name}.html"), RenderBudget(time_s=15, **budget))
    assert page.ok, page.error
    return page


async def test_a_low_contrast_page_rendered_with_axe_core_has_a_rendered_color_contrast_finding(
    renderer: ChromiumRenderer,
) -> None:
    with serve_site(PAGES) as site:
        page = await _render(renderer, site, "low-contrast", accessibility=True)
    assert page.accessibility is not None
    assert page.accessibility.error is None
    assert page.accessibility.engine == "axe-core 4.14.1"
    found = {(f.rule, f.selector) for f in page.accessibility.findings}
    assert (RenderedRuleId.COLOR_CONTRAST, "#faint") in found
    assert (RuleId.IMAGE_ALT, "img") in found
    assert (RenderedRuleId.TARGET_SIZE, 'button[aria-label="one"]') in found
    assert all(f.source is Source.RENDERED for f in page.accessibility.findings)
    assert RenderedPage.from_dict(page.to_dict()) == page


async def test_axe_core_runs_only_where_the_budget_asks(renderer: ChromiumRenderer) -> None:
    with serve_site(PAGES) as site:
        page = await _render(renderer, site, "low-contrast")
    assert page.accessibility is None


async def test_without_axe_core_installed_the_render_says_so(tmp_path: Path) -> None:
    chromium = ChromiumRenderer(
        ports.http_client(), PrivateHosts.LOOPBACK, axe_script=tmp_path / "axe.min.js"
    )
    if chromium.unavailable is not None:
        pytest.skip(f"the local renderer cannot run: {chromium.unavailable}")
    try:
        with serve_site(PAGES) as site:
            page = await _render(chromium, site, "clean", accessibility=True)
    finally:
        await chromium.aclose()
        await aclose_shared_client()
    assert page.accessibility is not None
    assert page.accessibility.error == "axe-core is not installed: no axe.min.js (npm ci)"
    assert "<h1>Nothing to report</h1>" in page.html  # the render itself stands


def test_the_recorded_axe_core_results_match_a_fresh_run(browser: Browser) -> None:
    axe_source()
    for fixture in fixtures():
        recorded = json.loads(fixture.with_suffix(".json").read_text(encoding="utf-8"))
        fresh = run_axe(browser, fixture)
        assert fresh == recorded, (
            f"{fixture.name}: axe-core's result changed; rerun "
            f"`uv run python -m tests.browser.capture_axe` and review {FIXTURES}"
        )
