"""A chain of pages for audits killed mid-crawl: each page links the next, so a crawl fetches them
one at a time, and a test can hold the chain at one page, answered only once the test lets go.

A test that kills an audit once it reports some pages crawled kills it while the crawl waits at
the held page (`Chain.held`), so the crawl cannot finish before the kill lands, however loaded
the machine is: an event the test sets, not a real pause per page that the kill must beat.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from tests.support.site_server import Reply, Route, SiteRequest, html_page

PAGES = 30
# The crawl waits at /p{HELD} with the home page and /p0../p{HELD - 1} crawled: a kill may wait
# for up to HELD + 1 pages crawled.
HELD = 10


class Chain:
    def __init__(self) -> None:
        self._open = threading.Event()
        self._open.set()

    def routes(self) -> dict[str, Route]:
        table: dict[str, Route] = {f"/p{i}": _page(i) for i in range(PAGES)}
        table[f"/p{HELD}"] = self._held_page
        table["/"] = Reply(body=html_page("Home of the slow site", "<a href='/p0'>start</a>"))
        return table

    @contextmanager
    def held(self) -> Iterator[None]:
        """/p{HELD} answers only once the block has ended."""
        self._open.clear()
        try:
            yield
        finally:
            self._open.set()

    def _held_page(self, request: SiteRequest) -> Reply:
        self._open.wait()
        return _page(HELD)


def _page(i: int) -> Reply:
    return Reply(body=html_page(f"Page {i} of the slow site", f"<a href='/p{i + 1}'>next</a>"))
