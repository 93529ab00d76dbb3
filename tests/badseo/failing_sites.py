"""badseo's failures: start URLs that cannot be audited, and a site that stops answering part-way.

Theory of operation
-------------------
* A start URL that cannot be audited ends the audit `failed` with the site's error code and a
  sentence for its owner (crawl.start_verdict), decided once in discovery. `START_FAILURES` lists
  one case per outcome badseo can serve: a closed port (nothing listens), the main site's 500 and
  404 fixtures, and its stylesheet. Each names the code and words the sentence must hold.
* The site that stops answering (`serve_stops_answering`) is a site of its own, because a crawl it
  stops is incomplete (no orphans are judged) and its security grade finds nothing to grade. Its
  start page links `DOWN_PAGES` pages, which are in no sitemap, so they are crawled after the
  start page. The site answers `DOWN_ANSWERED` of them, then goes down: every later request, on
  any path, has its connection dropped without an answer (`Outage`). The crawl's breaker
  (SITE_DOWN_STREAK fetches in a row without an answer) stops it well before the last page, and
  the audit completes with one `site-stopped-responding` on the start URL and nothing else: the
  pages that answered are clean, and a page that got no answer carries no issue of its own.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from audit.catalogue import SITE_DOWN_STREAK, IssueType
from common.failures import ErrorCode
from tests.badseo.site import (
    BadSeoSite,
    Category,
    Fixture,
    Route,
    external_routes,
    page,
    routes,
)
from tests.support.site_server import Reply, SiteRequest, StreamReply, serve_site

__all__ = [
    "DOWN_ANSWERED",
    "DOWN_PAGES",
    "START_FAILURES",
    "STOPS_ANSWERING_FIXTURES",
    "Outage",
    "StartFailureCase",
    "closed_port",
    "serve_stops_answering",
]

T = IssueType


@dataclass(frozen=True, slots=True)
class StartFailureCase:
    name: str
    path: str | None  # on the main badseo site; None: the start URL is on a closed port
    error_code: ErrorCode
    words: str  # what the sentence for the site's owner must say


START_FAILURES: tuple[StartFailureCase, ...] = (
    StartFailureCase(
        "closed-port", None, ErrorCode.SITE_CONNECTION_FAILED, "refused the connection"
    ),
    StartFailureCase(
        "server-error",
        "/status/server-error",
        ErrorCode.SITE_HTTP_ERROR,
        "answered 500 Internal Server Error",
    ),
    StartFailureCase(
        "not-found", "/status/not-found", ErrorCode.SITE_HTTP_ERROR, "answered 404 Not Found"
    ),
    StartFailureCase(
        "stylesheet", "/assets/style.css", ErrorCode.START_NOT_HTML, "text/css, not an HTML page"
    ),
)


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (it was free a moment ago)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


# ------------------------------------------------------------------------------- stops answering

DOWN_PREFIX = "/down/"
# Enough pages that the breaker trips with pages still left to fetch (the crawl stops early).
DOWN_PAGES = SITE_DOWN_STREAK * 2
DOWN_ANSWERED = 3


def _down_page(n: int) -> Fixture:
    return page(
        f"{DOWN_PREFIX}{n}",
        Category.SITE,
        f"Page {n} of the site that stops answering: one of {DOWN_PAGES} its start page links.",
        in_sitemap=False,
        linked_from_catalog=False,
        chrome=False,
        body='<p><a href="/">Back to the start page</a></p>',
    )


STOPS_ANSWERING_FIXTURES: tuple[Fixture, ...] = (
    page(
        "/",
        Category.SITE,
        "The start page of the site that stops answering part-way through its crawl.",
        (T.SITE_STOPPED_RESPONDING,),
        linked_from_catalog=False,
        chrome=False,
        title="badseo: the site that stops answering",
        h1="A site that goes down",
        description="The start page of the badseo variant that goes down part-way through its "
        "crawl; it links forty pages, and only the first three of them answer.",
        body="<ul>"
        + "".join(f'<li><a href="{DOWN_PREFIX}{n}">page {n}</a></li>' for n in range(DOWN_PAGES))
        + "</ul>",
    ),
    *(_down_page(n) for n in range(DOWN_PAGES)),
)


class Outage:
    """The site goes down once it has answered `answered` of its /down/ pages: from then on
    every request, whatever its path, has its connection dropped without an answer."""

    def __init__(self, answered: int) -> None:
        self._left = answered
        self._lock = threading.Lock()
        self.down = False

    def guard(self, route: Route) -> Route:
        def serve(request: SiteRequest) -> Reply | StreamReply:
            self._pass(request.path)
            return route(request)

        return serve

    def _pass(self, path: str) -> None:
        with self._lock:
            if self.down:
                # A ConnectionError: the fixture server closes the connection without a word.
                raise ConnectionResetError("badseo: the site is down")
            if path.startswith(DOWN_PREFIX):
                self._left -= 1
                self.down = self._left <= 0


@contextmanager
def serve_stops_answering() -> Iterator[BadSeoSite]:
    """The site that answers its start page and `DOWN_ANSWERED` more pages, then goes down."""
    outage = Outage(DOWN_ANSWERED)
    table = {path: outage.guard(route) for path, route in routes(STOPS_ANSWERING_FIXTURES).items()}
    with serve_site(dict(table)) as site:
        port = site.server.server_address[1]
        with serve_site(external_routes(), "127.0.0.2", port) as external:
            yield BadSeoSite(site, external)
