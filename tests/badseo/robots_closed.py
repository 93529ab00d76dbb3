"""badseo's site closed by robots.txt: `Disallow: /` for every agent, as staging sites serve it.

Theory of operation
-------------------
* The pages are the template site's (site.TEMPLATE_FIXTURES): six pages, one template, faults
  the audit must find once it may crawl them, and no fixture whose finding depends on robots.txt.
  Its robots.txt closes everything to everyone (`User-agent: *` / `Disallow: /`) and names its
  sitemap, which lists the pages: an audit that obeys robots.txt may fetch neither.
* Audited as it is, the audit must end `failed` with `start_robots_disallowed`: nothing was open
  to crawl, and an audit of nothing is no passing audit.
* An owner who proves control of the host (auditdb.verifications) may audit it with
  `ignore_robots`; `ClosedSite.publish` puts a verification's token where its method looks (the
  file at /.well-known/, or the meta tag on the start page), and `withdraw` takes it away again.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from html import escape

from tests.badseo.site import (
    TEMPLATE_FIXTURES,
    BadSeoSite,
    Fixture,
    external_routes,
    routes,
)
from tests.support.site_server import Reply, Route, SiteRequest, serve_site

__all__ = ["CLOSED_FIXTURES", "CLOSED_ROBOTS_TXT", "WELL_KNOWN", "ClosedSite", "serve_closed"]

CLOSED_FIXTURES: tuple[Fixture, ...] = TEMPLATE_FIXTURES
WELL_KNOWN = "/.well-known/siteaudit-verification.txt"
CLOSED_ROBOTS_TXT = (
    "# badseo's closed variant: a staging site that keeps every crawler out.\n"
    "User-agent: *\n"
    "Disallow: /\n"
    "\n"
    "Sitemap: {origin}/sitemap.xml\n"
)


def _robots(request: SiteRequest) -> Reply:
    host = request.headers.get("host", "")
    body = CLOSED_ROBOTS_TXT.replace("{origin}", f"http://{host}").encode()
    return Reply(200, body, {"content-type": "text/plain; charset=utf-8"})


@dataclass(frozen=True, slots=True)
class ClosedSite:
    badseo: BadSeoSite
    original_start: Route  # the start page as served before any proof was published

    @property
    def origin(self) -> str:
        return self.badseo.origin

    @property
    def start_url(self) -> str:
        return self.badseo.start_url

    def url(self, path: str) -> str:
        return self.badseo.url(path)

    @property
    def host(self) -> str:
        """The authority a verification names: `127.0.0.1:<port>`."""
        return self.origin.removeprefix("http://")

    def requested_paths(self) -> list[str]:
        return self.badseo.requested_paths()

    def publish(self, method: str, token: str) -> None:
        """Show `token` the way `method` (file or meta) looks for it."""
        table = self._routes
        if method == "file":
            table[WELL_KNOWN] = Reply(200, f"{token}\n".encode(), {"content-type": "text/plain"})
        elif method == "meta":
            start = self._start_page()
            meta = f'<meta name="siteaudit-verification" content="{escape(token)}">'
            body = start.body.replace(b"<head>", b"<head>" + meta.encode(), 1)
            table["/"] = Reply(start.status, body, dict(start.headers))
        else:
            raise ValueError(f"the site cannot publish a {method} proof")

    def withdraw(self) -> None:
        """Take every published proof away again."""
        self._routes.pop(WELL_KNOWN, None)
        self._routes["/"] = self.original_start

    @property
    def _routes(self) -> dict[str, Route]:
        return self.badseo.site.server.routes  # the live table: the server reads it per request

    def _start_page(self) -> Reply:
        route = self.original_start
        reply = route(SiteRequest("GET", "/", {})) if callable(route) else route
        assert isinstance(reply, Reply), "the template site's start page is a plain reply"
        return reply


@contextmanager
def serve_closed() -> Iterator[ClosedSite]:
    """The template site on 127.0.0.1 at a free port behind a robots.txt that closes it."""
    table = routes(CLOSED_FIXTURES)
    table["/robots.txt"] = _robots
    with serve_site(dict(table)) as site:
        port = site.server.server_address[1]
        with serve_site(external_routes(), "127.0.0.2", port) as external:
            yield ClosedSite(BadSeoSite(site, external), site.server.routes["/"])
