"""The browser tier's fixtures: one headless Chromium per test module, the product's screens
(`session`, tests/browser/screens.py) and one `siteaudit serve` with a signed-in key (`worker`)
per test module that asks for them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.browser.app_session import Worker, served_worker
from tests.browser.chromium import headless_chromium
from tests.browser.screens import Session, open_session


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with headless_chromium() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def session(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    """The product's screens (tests/browser/screens.py), for the tests of one module."""
    with open_session(browser, tmp_path_factory.mktemp("screens")) as opened:
        yield opened


@pytest.fixture(scope="module")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    with served_worker(tmp_path_factory) as served:
        yield served
