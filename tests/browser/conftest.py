"""The browser tier's fixtures: one headless Chromium per test module, and one `siteaudit serve`
with a signed-in key per test module that asks for it (`worker`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.browser.app_session import Worker, served_worker
from tests.browser.chromium import headless_chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with headless_chromium() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    with served_worker(tmp_path_factory) as served:
        yield served
