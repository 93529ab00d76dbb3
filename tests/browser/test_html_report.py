"""The HTML report in a real browser: `siteaudit audit URL --format html --output report.html` on the
badseo site, opened offline from file://, renders under its own strict CSP and works."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from service.html_report import FIX_FIRST
from tests.badseo.site import serve_badseo
from tests.browser import layout
from tests.browser.chromium import watched_page
from tests.browser.report_ui import (
    chart_labels_fit,
    open_a_chart,
    page_column,
    sort_pages_by_status,
)
from tests.support.cli_process import siteaudit

pytestmark = pytest.mark.slow

INJECT_SCRIPT = """() => {
  const script = document.createElement('script');
  script.textContent = 'window.injectedRan = true;';
  document.body.appendChild(script);
}"""


def audit_to_html(tmp_path: Path) -> tuple[Path, dict]:
    """The badseo site audited into tmp_path/report.html, and the same audit's JSON report."""
    state, out = tmp_path / "state", tmp_path / "report.html"
    # Without the external checks: in a subprocess the other site's slow page would take the
    # product's 10 s timeout (tests/badseo/test_end_to_end.py shortens it and checks them).
    with serve_badseo() as site:
        done = siteaudit(
            "audit", site.start_url, "--allow-private-hosts", "--max-pages", "500",
            "--no-check-external", "--format", "html", "--output", str(out), state_dir=state,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    audit_id = done.stdout.splitlines()[0].removeprefix("audit ")
    as_json = siteaudit("report", audit_id, "--format", "json", state_dir=state)
    assert as_json.returncode == 0, as_json.stderr
    return out, json.loads(as_json.stdout)


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict]]:
    """One audit for the module's tests: each only reads the report (a CLI audit of the badseo
    site is most of a test's time)."""
    yield audit_to_html(tmp_path_factory.mktemp("html-report"))


def test_the_report_opens_offline_and_sorts_filters_and_charts(
    browser: Browser, audited: tuple[Path, dict]
) -> None:
    report, data = audited
    pages = data["pages"]
    with watched_page(browser, report.as_uri()) as watched:
        page = watched.page
        page.goto(report.as_uri())

        # First on screen, above the fold at 1280 px: the verdict (the overall score and the grade
        # side by side, the gauges) and the fix-first list, the JSON report's first actions.
        first = page.locator("main > section").first
        expect(first.locator("h2")).to_have_text("Verdict")
        ranked = [a["summary"] for a in data["actions"]][:FIX_FIRST]
        fixes = first.locator("ol.actions > li > a")
        expect(fixes).to_have_text(ranked)
        for shown in (first.locator(".headline"), first.locator(".gauges"), fixes.first):
            expect(shown).to_be_in_viewport()
        score, grade = first.locator(".headline .card").all()
        expect(score.locator("svg")).to_have_attribute(
            "aria-label", f"Overall score: {data['audit']['health_score']:g} out of 100"
        )
        expect(grade.locator(".grade")).to_have_text(data["audit"]["security_grade"])
        a, b = score.bounding_box(), grade.bounding_box()
        assert a and b and (a["y"], a["height"]) == (b["y"], b["height"])  # aligned, same height

        # A fix-first action leads to its issue group, opened; a "page view" link beside a URL to
        # that page's own section, opened, with its status, depth, outlinks and issues.
        target = fixes.first.get_attribute("href") or ""
        fixes.first.click()
        group = page.locator(f"[id='{target[1:]}']")
        expect(group.locator("details.more")).to_have_js_property("open", True)
        expect(group).to_be_in_viewport()
        view = page.locator("article.issue details[open] a.view").first
        target = view.get_attribute("href") or ""
        view.click()
        section = page.locator(f"[id='{target[1:]}']")
        expect(section).to_have_js_property("open", True)
        expect(section).to_be_in_viewport()
        for fact in ("Status", "Depth", "Outlinks", "Issues"):
            expect(section.locator("dt", has_text=fact)).to_be_visible()
        # The stylesheet applied (its hash matched the CSP): hidden labels are out of the flow.
        position = "e => getComputedStyle(e).position"
        assert page.locator(".visually-hidden").first.evaluate(position) == "absolute"

        open_a_chart(page)
        chart_labels_fit(page)
        # The script ran (its hash matched too): a header sorts, the box filters.
        sort_pages_by_status(page, len(pages))
        page.get_by_label("Filter by URL or title").fill("/content/")
        wanted = [p["url"] for p in pages if "/content/" in p["url"]]
        expect(page.locator("#page-shown")).to_have_text(
            f"1-{len(wanted)} of {len(wanted)} matching pages, page 1 of 1"
        )
        assert sorted(page_column(page, 1)) == sorted(wanted)

        watched.assert_quiet()
        assert watched.requests == [report.as_uri()]

        # The policy is in force, and a violation would have been seen: an inline script that is
        # not the report's own does not run.
        page.evaluate(INJECT_SCRIPT)
        assert page.evaluate("() => window.injectedRan") is None
        assert watched.csp_violations() == ["script-src-elem inline"]


# Paper, in CSS px (96 a inch): A4's 210 mm less Chromium's default margins of about 1 cm a side.
PRINTED_WIDTH = 718


@pytest.mark.parametrize("width", [1280, 375])
def test_no_chart_label_is_cut_on_a_wide_or_narrow_screen_or_in_print(
    browser: Browser, audited: tuple[Path, dict], width: int
) -> None:
    report, _ = audited
    with watched_page(browser, report.as_uri()) as watched:
        page = watched.page
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(report.as_uri())
        chart_labels_fit(page)
        # Nothing is wider than the screen (a chart grid of 36rem columns was, at 375 px).
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        # In print (the report's print media: one chart under the other, full width), at this
        # width and on a sheet of A4: every chart drawn, every label inside its chart.
        page.emulate_media(media="print")
        for printed in (width, PRINTED_WIDTH):
            page.set_viewport_size({"width": printed, "height": 900})
            assert page.evaluate("() => matchMedia('print').matches")
            chart_labels_fit(page)
            cut = [o for o in layout.overflows(page.main_frame) if o["chart"]]
            assert cut == [], f"in print at {printed} px:\n{layout.readable(cut)}"
        watched.assert_quiet()
