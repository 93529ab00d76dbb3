"""The web app at `/` of `siteaudit serve` in a real browser, as a user drives it: sign in with a key
made by `siteaudit keys create`, audit the badseo site, watch it complete, read its report (a
chart's table, the page table) and download the pages CSV; audit a host typed without a scheme and
one that is down, and read which scheme was used and why the audit failed; read why a monitor's
run failed; the page talks only to the Worker."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from audit.catalogue import IssueType
from service.exports import PAGE_COLUMNS
from tests.badseo.failing_sites import closed_port
from tests.badseo.site import FIXTURES, BadSeoSite, serve_badseo
from tests.browser.app_session import Worker
from tests.browser.chromium import watched_page
from tests.browser.report_ui import CHARTS, open_a_chart, sort_pages_by_status
from tests.browser.screens import DNS_SENTENCE, add_two_runs
from tests.support.site_server import Reply, html_page, serve_site

pytestmark = pytest.mark.slow

# badseo's Product pages: a valid one, and one without offers, review or rating (site.py).
PRODUCT_PAGES = {
    f"/content/{name}"
    for name in (
        *("structured-data-valid-product", "rich-result-missing-required"),  # JSON-LD
        *("microdata-product", "microdata-itemref", "microdata-unknown-property"),
        *("microdata-property-not-on-type", "microdata-missing-required", "rdfa-product"),
    )
}
IMAGE_ALT_PAGES = {
    path
    for fixture in FIXTURES
    if IssueType.A11Y_IMAGE_ALT in fixture.expected
    for path in fixture.paths
}
AUDIT_TIMEOUT_MS = 60_000  # the badseo audit takes a few seconds; a loaded machine, longer


@pytest.fixture(scope="module")
def badseo() -> Iterator[BadSeoSite]:
    with serve_badseo() as site:
        yield site


def test_a_user_audits_a_site_reads_the_report_and_downloads_the_pages(
    browser: Browser, worker: Worker, badseo: BadSeoSite, tmp_path: Path
) -> None:
    origin = worker.origin
    # Downloads are blob: URLs the page makes from the API's answers.
    with watched_page(browser, f"{origin}/", f"blob:{origin}/") as watched:
        page = watched.page
        page.goto(f"{origin}/")
        page.get_by_label("API key").fill(worker.key)
        page.get_by_role("button", name="Sign in").click()

        page.get_by_label("Site URL", exact=True).fill(badseo.start_url)
        page.get_by_label("Maximum pages", exact=True).fill(
            "500"
        )  # all of badseo: every status class
        page.get_by_role("button", name="Start audit").click()
        finished = page.get_by_role("button", name="Open report")
        expect(finished).to_be_visible(timeout=AUDIT_TIMEOUT_MS)
        expect(page.locator("#progress-text")).to_contain_text("Audit completed")
        row = page.locator("#audits-table tbody tr").first
        expect(row.locator("td").first).to_have_text("completed")
        crawled = int(row.locator("td").nth(1).inner_text())

        finished.click()
        report = page.frame_locator("#report-frame")
        expect(report.locator("figure.chart")).to_have_count(CHARTS)
        # The verdict is the report's first section: the scores, then the ranked actions.
        expect(report.locator("main > section").first.locator("h2")).to_have_text("Verdict")
        expect(report.locator("ul.gauges li")).to_have_count(6)
        expect(report.locator("ol.actions > li").first).to_contain_text("critical")
        page.locator("#progress").evaluate("section => section.scrollIntoView()")
        open_a_chart(report)
        sort_pages_by_status(report, crawled)

        # Back up to the list, as a reader does after the report: the report's frame (80% of the
        # viewport) still holds the focus from the sort, and an automated click scrolled straight
        # to the row could land in the frame while the page moved under it.
        page.locator("#audits-h").scroll_into_view_if_needed()
        with page.expect_download() as downloading:
            row.get_by_role("button", name=re.compile(r"^Pages CSV")).click()
        saved = tmp_path / downloading.value.suggested_filename
        downloading.value.save_as(saved)
        with saved.open(newline="") as f:
            rows = list(csv.reader(f))
        assert tuple(rows[0]) == PAGE_COLUMNS
        assert len(rows) - 1 == crawled

        # The report's structured data: the pages of one type, as the pages export filtered.
        structured = page.locator("#report-structured")
        structured.scroll_into_view_if_needed()
        expect(structured.locator("summary")).to_contain_text("Structured data: ")
        structured.locator("summary").click()
        products = downloaded_rows(page, structured, "Pages CSV of type Product", tmp_path)
        assert {r["url"].removeprefix(badseo.origin) for r in products} == PRODUCT_PAGES
        assert all(json.loads(r["structured_types"]) == ["Product"] for r in products)

        # The report's accessibility: the pages one rule failed on, as the pages export filtered.
        accessibility = page.locator("#report-a11y")
        expect(accessibility.locator("summary")).to_contain_text(
            # badseo's audit renders nothing: the rules only a browser decides were not checked
            re.compile(r"^Accessibility: [\d.]+, \d+ failing rules; static rules only$")
        )
        accessibility.locator("summary").click()
        expect(accessibility.locator("#a11y-where")).to_contain_text("were not checked")
        failing = downloaded_rows(page, accessibility, "Pages CSV of rule image-alt", tmp_path)
        assert {r["url"].removeprefix(badseo.origin) for r in failing} == IMAGE_ALT_PAGES

        watched.assert_quiet()
        assert watched.requests
        assert all(url.startswith(watched.allowed) for url in watched.requests)


def downloaded_rows(page: Page, box: Locator, button: str, folder: Path) -> list[dict[str, str]]:
    """The rows of the CSV file the named button in BOX downloads."""
    with page.expect_download() as downloading:
        box.get_by_role("button", name=button).click()
    saved = folder / downloading.value.suggested_filename
    downloading.value.save_as(saved)
    with saved.open(newline="") as f:
        return list(csv.DictReader(f))


def test_a_monitors_runs_say_why_a_run_failed(browser: Browser, worker: Worker) -> None:
    origin = worker.origin
    with watched_page(browser, f"{origin}/") as watched:
        page = watched.page
        page.goto(f"{origin}/")
        page.get_by_label("API key").fill(worker.key)
        page.get_by_role("button", name="Sign in").click()
        page.get_by_label("Monitored site URL").fill("https://example.com/")
        page.get_by_role("button", name="Create monitor").click()
        row = page.locator("#monitors-table tbody tr").first
        expect(row).to_contain_text("https://example.com/")
        monitor_id = row.get_attribute("data-monitor-id")
        assert monitor_id is not None
        add_two_runs(worker.state, monitor_id, "browser")

        row.get_by_role("button", name=re.compile(r"^Runs")).click()

        expect(page.locator("#monitor-runs-h")).to_be_focused()
        failed = page.locator('#monitor-runs-table tr[data-run-id="browser-run-2"]')
        expect(failed.locator("td").first).to_have_text(f"failed{DNS_SENTENCE}")
        expect(failed.locator("td .reason")).to_have_text(DNS_SENTENCE)
        expect(failed.locator("td").nth(2)).to_have_text("–")  # not compared, not 0
        good = page.locator('#monitor-runs-table tr[data-run-id="browser-run-1"]')
        expect(good.locator("td").first).to_have_text("completed")
        expect(good.locator("td").nth(1)).to_have_text("91")
        watched.assert_quiet()


def test_a_user_reads_which_scheme_was_used_and_why_an_audit_failed(
    browser: Browser, worker: Worker
) -> None:
    origin = worker.origin
    home = {"/": Reply(body=html_page("Home of a plain-http site", "<h1>Home</h1>"))}
    down = f"http://127.0.0.1:{closed_port()}/"
    with serve_site(home) as plain, watched_page(browser, f"{origin}/") as watched:
        host = plain.origin.removeprefix("http://")
        note = f"no scheme given: https://{host}/ did not connect (TLS failed), auditing http://{host}/"
        page = watched.page
        page.goto(f"{origin}/")
        page.get_by_label("API key").fill(worker.key)
        page.get_by_role("button", name="Sign in").click()

        audit(page, host)
        expect(page.locator("#progress-text")).to_contain_text(
            "Audit completed", timeout=AUDIT_TIMEOUT_MS
        )
        expect(page.locator("#progress-scheme")).to_have_text(note)
        expect(page.locator("#audits-table tbody tr").first.locator("th")).to_contain_text(note)

        audit(page, down)
        sentence = f"{down} refused the connection"
        expect(page.locator("#progress-text")).to_contain_text(
            f"Audit failed: {sentence}", timeout=AUDIT_TIMEOUT_MS
        )
        status = page.locator("#audits-table tbody tr").first.locator("td").first
        expect(status).to_contain_text("failed")
        expect(status.locator(".failure")).to_contain_text(sentence)
        watched.assert_quiet()


def audit(page: Page, url: str) -> None:
    """Start an audit of `url` (the progress section then follows it)."""
    page.get_by_label("Site URL", exact=True).fill(url)
    page.get_by_role("button", name="Start audit").click()
