"""The sign-in link `siteaudit serve` prints, opened in a real browser: the app signs in by itself,
lists the audit the CLI ran on the same state dir, and leaves no key in the address bar; comparing
the CLI's audits of two different sites there shows the comparison's warning (issue 27)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.chromium import watched_page
from tests.support.cli_process import serving, siteaudit
from tests.support.site_server import Reply, Site, html_page, serve_site

pytestmark = pytest.mark.slow


def test_the_sign_in_link_opens_the_app_on_the_cli_audits(
    browser: Browser, small_site: Site, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    done = siteaudit("audit", small_site.url("/"), "--allow-private-hosts", state_dir=state)
    assert done.returncode == 0, done.stderr
    with serving(state) as banner, watched_page(browser, banner.app) as watched:
        page = watched.page
        page.goto(banner.sign_in_link)
        expect(page.get_by_role("button", name="Sign out")).to_be_visible()
        expect(page.locator("#audits-table")).to_contain_text(small_site.url("/"))
        assert page.url == banner.app  # the key left the address bar (and the history entry)
        assert page.evaluate("location.hash") == ""
        watched.assert_quiet()


def test_comparing_audits_of_two_sites_shows_a_warning(
    browser: Browser, small_site: Site, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    with serve_site({"/": Reply(body=html_page("Another site", "<h1>Another</h1>"))}) as other:
        for url in (small_site.url("/"), other.url("/")):
            done = siteaudit("audit", url, "--allow-private-hosts", state_dir=state)
            assert done.returncode == 0, done.stderr
    with serving(state) as banner, watched_page(browser, banner.app) as watched:
        page = watched.page
        page.goto(banner.sign_in_link)
        page.get_by_role("link", name="Compare").click()
        page.get_by_role("button", name="Compare").click()
        warning = page.locator("#compare-warning")
        expect(warning).to_be_visible()
        expect(warning).to_contain_text("these audits are of different sites")
        watched.assert_quiet()
