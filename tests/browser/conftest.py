"""The browser tier's fixture: one headless Chromium per test module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

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
