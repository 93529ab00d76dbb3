"""The web app's test session: one `siteaudit serve` on a fresh state folder with a key made by
`siteaudit keys create` (the `worker` fixture of conftest.py, one per test module), and signing
in with it (tests/browser/test_webapp*.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.support.cli_process import running_serve, siteaudit


@dataclass(frozen=True)
class Worker:
    origin: str  # http://127.0.0.1:PORT
    key: str
    state: Path  # its state folder (D1 is state/d1/siteaudit.sqlite)

    def d1(self) -> closing[sqlite3.Connection]:
        """The served D1 database, to plant rows the app then shows."""
        return closing(sqlite3.connect(self.state / "d1" / "siteaudit.sqlite"))


@contextmanager
def served_worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    """`siteaudit serve` on a fresh state folder, with a key for the owner `browser`."""
    state = tmp_path_factory.mktemp("webapp") / "state"
    made = siteaudit("keys", "create", "--owner", "browser", state_dir=state)
    assert made.returncode == 0, made.stderr
    with running_serve(state) as audits_url:  # http://127.0.0.1:PORT/api/audits
        yield Worker(audits_url.removesuffix("/api/audits"), made.stdout.splitlines()[1], state)


def sign_in(page: Page, worker: Worker) -> None:
    page.goto(f"{worker.origin}/")
    page.get_by_label("API key").fill(worker.key)
    page.get_by_role("button", name="Sign in").click()
    page.locator("#workspace").wait_for()
