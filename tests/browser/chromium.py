"""Headless Chromium driven by Playwright, with everything a page does written down.

The browser is the system's (Debian's `chromium` package, which `.ci/run` installs): Playwright is
pointed at its executable and never downloads a build of its own (no `playwright install`).
A `Watched` page records its console messages, uncaught errors, Content-Security-Policy
violations and requests; a request beyond the origins a test allows is recorded and aborted, so a
page under test cannot reach any other host even when it tries to.

Screenshots go where the test says (a temporary folder) unless SITEAUDIT_SCREENSHOTS names a
folder: scripts/screenshots.py runs the browser tests with it set to docs/screenshots.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    Page,
    Request,
    Route,
    ViewportSize,
    sync_playwright,
)

SCREENSHOTS = "SITEAUDIT_SCREENSHOTS"
VIEWPORT: ViewportSize = {"width": 1280, "height": 900}

# Runs in every document before its own scripts: CSP violations become a list the test reads,
# whether or not the browser also prints them to the console.
_RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__cspViolations.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline'));
});
"""


def chromium_executable() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def headless_chromium() -> Iterator[Browser]:
    """The system Chromium under Playwright; a skip that says why when there is none."""
    executable = chromium_executable()
    if executable is None:
        pytest.skip(
            "browser tests need Chromium: no `chromium` on PATH "
            "(Debian: apt-get install chromium chromium-driver; .ci/run installs them)"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Watched:
    """A page and what it did: console errors, uncaught exceptions, requests."""

    page: Page
    allowed: tuple[str, ...]  # URL prefixes the page may request
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    def csp_violations(self) -> list[str]:
        """Every frame's, the page's own first (a report in an iframe has a list of its own)."""
        read = "() => window.__cspViolations || []"
        return [v for frame in self.page.frames for v in frame.evaluate(read)]

    def assert_quiet(self) -> None:
        """No console error, no uncaught exception, no CSP violation, no foreign request."""
        assert self.console_errors == []
        assert self.page_errors == []
        assert self.csp_violations() == []
        assert self.refused == []

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.console_errors.append(message.text)

    def _request(self, request: Request) -> None:
        self.requests.append(request.url)

    def _route(self, route: Route) -> None:
        url = route.request.url
        if url.startswith(self.allowed):
            route.continue_()
        else:
            self.refused.append(url)
            route.abort()


@contextmanager
def watched_page(browser: Browser, *allowed: str) -> Iterator[Watched]:
    """A fresh context and page that may request only URLs starting with one of `allowed`."""
    context = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
    context.add_init_script(_RECORD_VIOLATIONS)
    page = context.new_page()
    watched = Watched(page, allowed)
    page.on("console", watched._console)
    page.on("pageerror", lambda error: watched.page_errors.append(str(error)))
    page.on("request", watched._request)
    context.route("**/*", watched._route)
    try:
        yield watched
    finally:
        context.close()


def screenshot(page: Page, name: str, default_folder: Path) -> Path:
    """The viewport as NAME.png, in SITEAUDIT_SCREENSHOTS when set, else in `default_folder`."""
    folder = Path(os.environ.get(SCREENSHOTS) or default_folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=path)
    return path
