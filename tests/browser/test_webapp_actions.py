"""The web app's actions in a real browser, one test each, as a user drives them: click, see the
effect. Audits: cancel, resume, re-run and delete, from the list and from the audit's own
section; monitors: edit, pause and resume, run now, the run history's score chart, delete; a
comparison of two sites warns; a site URL wraps only between its parts; the report opens at its
top."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.app_session import Worker, sign_in
from tests.browser.chromium import watched_page
from tests.browser.slow_site import SLOW_PAGES, serve_slow_site
from tests.support.site_server import Reply, Site, html_page, serve_site

pytestmark = pytest.mark.slow

AUDIT_TIMEOUT_MS = 60_000


@pytest.fixture(scope="module")
def slow_site() -> Iterator[Site]:
    """An audit of it runs long enough to be cancelled by a click (tests/browser/slow_site.py)."""
    with serve_slow_site() as site:
        yield site


@pytest.fixture(scope="module")
def quick_site() -> Iterator[Site]:
    home = html_page("Home of the quick site", "<h1>Home</h1><a href='/about'>About</a>")
    about = html_page("About the quick site", "<h1>About</h1><a href='/'>Home</a>")
    with serve_site({"/": Reply(body=home), "/about": Reply(body=about)}) as site:
        yield site


def audit_row(page: Page, audit_id: str) -> Locator:
    return page.locator(f'#audits-table tr[data-audit-id="{audit_id}"]')


def row_button(row: Locator, label: str) -> Locator:
    return row.get_by_role("button", name=re.compile(f"^{re.escape(label)} "))


def start_audit(page: Page, url: str, max_pages: int) -> str:
    """Start an audit from the form; its id, as the notice names it, once its row is listed."""
    page.get_by_label("Site URL", exact=True).fill(url)
    page.get_by_label("Maximum pages", exact=True).fill(str(max_pages))
    page.get_by_role("button", name="Start audit").click()
    notice = page.locator("#notice")
    expect(notice).to_have_text(re.compile(r"^Audit \S+ started\.$"))
    # The notice names the new audit before the list is reloaded: the list's first row may
    # still be an older audit of this worker (one another test cancelled).
    match = re.fullmatch(r"Audit (\S+) started\.", notice.inner_text().strip())
    assert match is not None
    audit_id = match.group(1)
    expect(audit_row(page, audit_id)).to_have_count(1)
    return audit_id


def status_of(page: Page, audit_id: str) -> Locator:
    return audit_row(page, audit_id).locator("td").first


def api_status(page: Page, worker: Worker, path: str) -> int:
    headers = {"authorization": f"Bearer {worker.key}"}
    return page.request.get(f"{worker.origin}{path}", headers=headers).status


def test_a_user_cancels_resumes_reruns_and_deletes_audits(
    browser: Browser, worker: Worker, slow_site: Site
) -> None:
    with watched_page(browser, f"{worker.origin}/") as watched:
        page = watched.page
        page.on("dialog", lambda dialog: dialog.accept())  # the delete's confirmation
        sign_in(page, worker)
        first = start_audit(page, slow_site.url("/"), SLOW_PAGES + 1)
        expect(status_of(page, first)).to_have_text("running")

        # Cancel, from the list: the audit stops and keeps what it crawled.
        row_button(audit_row(page, first), "Cancel").click()
        expect(status_of(page, first)).to_have_text("cancelled")
        expect(page.locator("#progress-text")).to_contain_text("Audit cancelled")
        expect(row_button(audit_row(page, first), "Delete")).to_be_visible()
        expect(row_button(audit_row(page, first), "Resume")).to_be_focused()

        # Resume, from the list: it runs again and finishes.
        row_button(audit_row(page, first), "Resume").click()
        expect(page.locator("#notice")).to_have_text(f"Audit {first} resumed.")
        expect(status_of(page, first)).to_have_text("completed", timeout=AUDIT_TIMEOUT_MS)
        pages = int(audit_row(page, first).locator("td").nth(1).inner_text())
        assert pages == SLOW_PAGES + 1  # the resume crawled what the cancel left

        # Re-run, from the list: a new audit of the same site, watched in the progress section.
        row_button(audit_row(page, first), "Re-run").click()
        expect(page.locator("#audits-table tbody tr")).to_have_count(2)
        second = page.locator("#audits-table tbody tr").first.get_attribute("data-audit-id")
        assert second is not None and second != first
        expect(audit_row(page, second).locator("th")).to_have_text(slow_site.url("/"))
        expect(page.locator("#progress-site")).to_contain_text(second)
        # Cancel and re-run from the audit's own section this time.
        page.locator("#progress").get_by_role("button", name="Cancel audit").click()
        expect(status_of(page, second)).to_have_text("cancelled")
        section = page.locator("#progress")
        expect(section.get_by_role("button", name="Resume audit")).to_be_focused()
        section.get_by_role("button", name="Re-run audit").click()
        expect(page.locator("#audits-table tbody tr")).to_have_count(3)
        third = page.locator("#audits-table tbody tr").first.get_attribute("data-audit-id")
        assert third not in (None, first, second)
        expect(status_of(page, third)).to_have_text("completed", timeout=AUDIT_TIMEOUT_MS)

        # Delete, from the audit's section, then from the list: each is gone from the app and
        # from the API.
        section.get_by_role("button", name="Delete audit").click()
        expect(page.locator("#notice")).to_have_text(f"Audit {third} deleted.")
        expect(audit_row(page, third)).to_have_count(0)
        expect(page.locator("#progress")).to_be_hidden()
        row_button(audit_row(page, first), "Delete").click()
        expect(audit_row(page, first)).to_have_count(0)
        expect(page.locator("#audits-table tbody tr")).to_have_count(1)
        assert api_status(page, worker, f"/api/audits/{first}") == 404
        assert api_status(page, worker, f"/api/audits/{third}") == 404
        assert api_status(page, worker, f"/api/audits/{second}") == 200
        watched.assert_quiet()


def monitor_row(page: Page, url: str) -> Locator:
    return page.locator("#monitors-table tbody tr", has_text=url)


SCORES = [("2026-12-01", 60.0), ("2026-12-02", 75.0), ("2026-12-03", 90.0)]


def test_a_user_edits_pauses_runs_charts_and_deletes_a_monitor(
    browser: Browser, worker: Worker, quick_site: Site
) -> None:
    url = quick_site.url("/")
    with watched_page(browser, f"{worker.origin}/") as watched:
        page = watched.page
        page.on("dialog", lambda dialog: dialog.accept())
        sign_in(page, worker)
        page.get_by_label("Monitored site URL").fill(url)
        page.get_by_role("button", name="Create monitor").click()
        row = monitor_row(page, url)
        expect(row.locator("td").nth(1)).to_have_text("active")
        monitor_id = row.get_attribute("data-monitor-id")

        # Edit: weekly at 06:00 UTC, at most 3 pages.
        row_button(row, "Edit").click()
        expect(page.locator("#edit-monitor-h")).to_be_focused()
        page.get_by_label("Run frequency").select_option("weekly")
        page.get_by_label("Hour of the run (UTC, 0-23)").fill("6")
        page.get_by_label("Maximum pages of each run").fill("3")
        page.get_by_role("button", name="Save monitor").click()
        expect(page.locator("#notice")).to_have_text(f"Monitor of {url} saved.")
        expect(row.locator("td").first).to_have_text("weekly")
        expect(page.locator("#edit-monitor")).to_be_hidden()
        saved = page.request.get(
            f"{worker.origin}/api/monitors/{monitor_id}",
            headers={"authorization": f"Bearer {worker.key}"},
        ).json()["monitor"]
        assert (saved["frequency"], saved["hour"], saved["max_pages"]) == ("weekly", 6, 3)

        # Pause, then resume: no run now while paused.
        row_button(row, "Pause").click()
        expect(row.locator("td").nth(1)).to_have_text("paused")
        expect(row_button(row, "Run now")).to_have_count(0)
        expect(row_button(row, "Resume")).to_be_focused()
        row_button(row, "Resume").click()
        expect(row.locator("td").nth(1)).to_have_text("active")

        # The run history's score chart: one point per scored run, oldest on the left.
        with worker.d1() as db:
            db.executemany(
                "INSERT INTO monitor_runs (id, monitor_id, audit_id, due_at, started_at, status, "
                "health_score) VALUES (?, ?, ?, ?, ?, 'completed', ?)",
                [
                    (f"chart-run-{day}", monitor_id, f"chart-audit-{day}", day,
                     f"{day}T06:00:00.000Z", score)
                    for day, score in SCORES
                ],
            )  # fmt: skip
            db.commit()
        row_button(row, "Runs").click()
        chart = page.locator("#runs-chart svg")
        expect(chart.locator("circle")).to_have_count(len(SCORES))
        summary = "Health score of 3 runs: 60 on 2026-12-01, 90 on 2026-12-03."
        expect(page.locator("#runs-chart figcaption")).to_have_text(summary)
        expect(page.get_by_role("img", name=summary)).to_be_visible()
        heights = [float(c.get_attribute("cy") or "nan") for c in chart.locator("circle").all()]
        assert heights == sorted(heights, reverse=True)  # rising scores draw a rising line

        # Run now: a run starts at once, with an audit of the site.
        row_button(row, "Run now").click()
        expect(page.locator("#notice")).to_contain_text(f"Run of the monitor of {url} started")
        expect(page.locator("#monitor-runs-table tbody tr")).to_have_count(len(SCORES) + 1)
        expect(page.locator("#monitor-runs-h")).to_be_focused()
        expect(page.locator("#audits-table tbody tr th", has_text=url).first).to_be_visible()

        # Delete: the monitor and its shown runs go.
        row_button(row, "Delete").click()
        expect(page.locator("#notice")).to_have_text(f"Monitor of {url} deleted.")
        expect(monitor_row(page, url)).to_have_count(0)
        expect(page.locator("#monitor-runs")).to_be_hidden()
        watched.assert_quiet()


LONG_HOST = "a-rather-long-subdomain-of-the-audited-site.example-company.com"
LONG_URL = f"https://{LONG_HOST}/products/category-of-things/a-long-product-name/reviews/"


def plant_audit(worker: Worker, audit_id: str, url: str, created_at: str) -> None:
    """A completed audit of `url` with no pages, as the app lists it."""
    with worker.d1() as db:
        db.execute(
            "INSERT INTO audits (id, owner, start_url, status, created_at, started_at, "
            "finished_at) VALUES (?, 'browser', ?, 'completed', ?, ?, ?)",
            (audit_id, url, created_at, created_at, created_at),
        )
        db.commit()


def test_comparing_audits_of_two_different_sites_warns(browser: Browser, worker: Worker) -> None:
    plant_audit(worker, "site-a-1", "https://a.example/", "2026-11-01T00:00:00.000Z")
    plant_audit(worker, "site-a-2", "https://a.example/", "2026-11-02T00:00:00.000Z")
    plant_audit(worker, "site-b-1", "https://b.example/", "2026-11-03T00:00:00.000Z")
    with watched_page(browser, f"{worker.origin}/") as watched:
        page = watched.page
        sign_in(page, worker)
        warning = page.locator("#compare-warning")

        page.get_by_label("Older audit").select_option("site-a-1")
        page.get_by_label("Newer audit").select_option("site-b-1")
        page.get_by_role("button", name="Compare", exact=True).click()
        expect(warning).to_be_visible()
        expect(warning).to_contain_text(
            "different sites (https://a.example/ and https://b.example/)"
        )

        page.get_by_label("Newer audit").select_option("site-a-2")
        page.get_by_role("button", name="Compare", exact=True).click()
        expect(page.locator("#compare-summary")).to_contain_text("site-a-2")
        expect(warning).to_be_hidden()
        watched.assert_quiet()


# The lines a range of an element's text falls on: the distinct tops of its boxes. `start` and
# `end` are offsets in the element's textContent.
LINES_OF_TEXT = """(element, [start, end]) => {
  const range = document.createRange();
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let seen = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const length = node.textContent.length;
    if (seen <= start && start <= seen + length) range.setStart(node, start - seen);
    if (seen <= end && end <= seen + length) { range.setEnd(node, end - seen); break; }
    seen += length;
  }
  return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size;
}"""


def lines_of(cell: Locator, part: str) -> int:
    text = cell.inner_text()
    start = cell.evaluate("e => e.textContent").index(part)
    assert part in text
    lines: int = cell.evaluate(LINES_OF_TEXT, [start, start + len(part)])
    return lines


@pytest.mark.parametrize("width", [375, 1280])
def test_a_site_url_wraps_only_between_its_parts(
    browser: Browser, worker: Worker, width: int
) -> None:
    audit_id = f"long-url-{width}"
    plant_audit(worker, audit_id, LONG_URL, "2026-10-01T00:00:00.000Z")
    with watched_page(browser, f"{worker.origin}/") as watched:
        page = watched.page
        page.set_viewport_size({"width": width, "height": 900})
        sign_in(page, worker)
        cell = page.locator(f'#audits-table tr[data-audit-id="{audit_id}"] th')
        expect(cell).to_have_text(LONG_URL)

        assert lines_of(cell, f"https://{LONG_HOST}/") == 1
        for segment in ["category-of-things/", "a-long-product-name/"]:
            assert lines_of(cell, segment) == 1
        if width == 375:
            assert lines_of(cell, LONG_URL) > 1  # it did wrap: between its parts
        watched.assert_quiet()


def test_the_report_opens_at_its_top(browser: Browser, worker: Worker, quick_site: Site) -> None:
    with watched_page(browser, f"{worker.origin}/") as watched:
        page = watched.page
        sign_in(page, worker)
        audit_id = start_audit(page, quick_site.url("/"), 5)
        expect(status_of(page, audit_id)).to_have_text("completed", timeout=AUDIT_TIMEOUT_MS)
        expect(page.locator("#progress").get_by_role("button", name="Open report")).to_be_visible()

        row_button(audit_row(page, audit_id), "Report").click()  # scrolled to, as a user does

        expect(page.frame_locator("#report-frame").locator("h1")).to_be_visible()
        expect(page.locator("#report-h")).to_be_focused()
        page.wait_for_function(
            "() => Math.abs(document.getElementById('report').getBoundingClientRect().top) < 2",
            timeout=5_000,
        )
        frame = page.locator("#report-frame").bounding_box()
        viewport = page.viewport_size
        assert frame is not None and viewport is not None
        assert frame["y"] < 120  # the frame starts under the report's own bar
        assert frame["y"] + frame["height"] <= viewport["height"] + 1  # and ends in the window
        report = next(f for f in page.frames if f is not page.main_frame)
        assert report.evaluate("() => window.scrollY") == 0
        watched.assert_quiet()
