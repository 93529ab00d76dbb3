"""The browser tier's fixtures: one headless Chromium per test module, the product's screens
(`session`, tests/browser/screens.py) and one `siteaudit serve` with a signed-in key (`worker`)
per test module that asks for them.

What the screens show (`served_screens`: a `siteaudit serve`, two audits of the badseo site, a
monitor, the report) costs more than most of the tests that read it, so test_screens.py and
test_keyboard.py share one, package-scoped; they are one xdist group (screens.SCREENS_GROUP), so
one worker runs both and builds it once. The browser stays module-scoped: a live sync Playwright
marks the thread's event loop running, which the async tests of this package cannot share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.browser.app_session import Worker, served_worker
from tests.browser.chromium import headless_chromium
from tests.browser.screens import Served, Session, open_session, served_screens


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with headless_chromium() as chromium:
        yield chromium


@pytest.fixture(scope="package")
def screens_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with served_screens(tmp_path_factory.mktemp("screens")) as served:
        yield served


@pytest.fixture(scope="module")
def session(browser: Browser, screens_served: Served) -> Iterator[Session]:
    """The product's screens (tests/browser/screens.py), for the tests of one module."""
    with open_session(browser, screens_served) as opened:
        yield opened


@pytest.fixture(scope="module")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    with served_worker(tmp_path_factory) as served:
        yield served
