"""A site whose audit runs long enough to be cancelled by a click: a home page linking to
`SLOW_PAGES` pages that each take 1.5 s to send (tests/browser/test_webapp_actions.py, and the
cancelled audit's screen of tests/browser/screens.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from demo.server import StreamReply
from tests.support.site_server import Reply, Site, html_page, serve_site

SLOW_PAGES = 6
PAUSE_S = 1.5  # between a page's two halves


def slow_page(n: int) -> StreamReply:
    body = html_page(f"Slow page {n}", f"<h1>Slow page {n}</h1><a href='/'>Home</a>")
    half = len(body) // 2
    return StreamReply(lambda: iter([body[:half], body[half:]]), pause_s=PAUSE_S)


@contextmanager
def serve_slow_site() -> Iterator[Site]:
    links = "".join(f"<a href='/slow-{n}'>Page {n}</a>" for n in range(SLOW_PAGES))
    routes: dict[str, Reply | StreamReply] = {
        "/": Reply(body=html_page("Home of the slow site", f"<h1>Home</h1>{links}"))
    }
    routes.update({f"/slow-{n}": slow_page(n) for n in range(SLOW_PAGES)})
    with serve_site(routes) as site:
        yield site
