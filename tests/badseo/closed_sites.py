"""badseo's closed staging sites (issue 28): the same small site behind HTTP basic auth, behind a
required access header, and behind a login cookie.

Theory of operation
-------------------
* One site, three walls. `CLOSED_FIXTURES` is a four-page site (its start page, two pages it
  links, and one page listed only in its sitemap, an orphan, so a crawl that read the sitemap
  finds it). Every route of it, robots.txt and sitemap.xml included (a closed staging site keeps
  them behind the same wall), answers only a request that brings the variant's credentials; any
  other gets the wall's refusal: 401 with `WWW-Authenticate: Basic` (basic auth), 403 (the access
  header, as Cloudflare Access refuses a bad service token), 403 (the login cookie).
* With the right credentials an audit must find exactly `expected_issues(origin,
  CLOSED_FIXTURES)`, as the open site would; without them it must fail at its start URL with a
  sentence naming what to pass (`ClosedVariant.missing_words`).
* Two other origins must never see a credential: the badseo "other site" (127.0.0.2 at the same
  port), which the start page links (checked as an external link), and `elsewhere`, another port
  of 127.0.0.1, another origin (RFC 6454) to which `/hop` redirects; its `/bounce` redirects back
  to the closed start page, whose request must carry them again. Each server records every
  request's headers (`SiteRequest.headers`) for the tests to read.
* The secrets are distinctive strings, so tests/badseo/test_redaction.py can grep every output
  of an audit for them (`SECRETS`).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum

from audit.catalogue import IssueType
from common.wire import JsonObject
from tests.badseo.pages import EXTERNAL_HOST, HTML_TYPE
from tests.badseo.site import (
    _PLAIN_HTTP_GRADE,
    Category,
    Fixture,
    Route,
    external_routes,
    page,
    routes,
)
from tests.support.site_server import Reply, Site, SiteRequest, StreamReply, html_page, serve_site

__all__ = [
    "CLOSED_FIXTURES",
    "SECRETS",
    "VARIANTS",
    "ClosedSite",
    "ClosedVariant",
    "Wall",
    "carries_credentials",
    "serve_closed",
]

T = IssueType

BASIC_USER = "ci-preview"
BASIC_PASSWORD = "badseo-basic-pa55-Zq8wR"
ACCESS_ID = "badseo-access.id"
ACCESS_SECRET = "badseo-access-secret-Kx7mT"
SESSION = "badseo-session-Vw3pL"
# Every secret an output must never show (the basic-auth user is shown, by design).
SECRETS = (
    BASIC_PASSWORD,
    base64.b64encode(f"{BASIC_USER}:{BASIC_PASSWORD}".encode()).decode(),
    ACCESS_SECRET,
    SESSION,
)


class Wall(StrEnum):
    BASIC = "basic"
    HEADER = "header"
    COOKIE = "cookie"


@dataclass(frozen=True, slots=True)
class ClosedVariant:
    wall: Wall
    admits: Callable[[Mapping[str, str]], bool]  # a request's lowercased headers
    refusal: Reply
    credentials: JsonObject  # the API's `credentials` object that opens it
    cli_options: tuple[str, ...]  # the same, as `siteaudit audit` options
    missing_words: tuple[str, ...]  # what the failure without credentials must say


def _basic(headers: Mapping[str, str]) -> bool:
    token = base64.b64encode(f"{BASIC_USER}:{BASIC_PASSWORD}".encode()).decode()
    return headers.get("authorization") == f"Basic {token}"


def _access(headers: Mapping[str, str]) -> bool:
    return (
        headers.get("cf-access-client-id") == ACCESS_ID
        and headers.get("cf-access-client-secret") == ACCESS_SECRET
    )


def _session(headers: Mapping[str, str]) -> bool:
    cookies = dict(
        part.strip().partition("=")[::2] for part in headers.get("cookie", "").split(";")
    )
    return cookies.get("badseo_session") == SESSION


_REFUSED = html_page("Closed", "<h1>This preview is closed</h1>")

VARIANTS: tuple[ClosedVariant, ...] = (
    ClosedVariant(
        Wall.BASIC,
        _basic,
        Reply(
            401,
            _REFUSED,
            {
                "content-type": HTML_TYPE,
                "www-authenticate": 'Basic realm="badseo staging", charset="UTF-8"',
            },
        ),
        {"basic_auth": {"user": BASIC_USER, "password": BASIC_PASSWORD}},
        ("--auth", f"{BASIC_USER}:{BASIC_PASSWORD}"),
        ("answered 401 Unauthorized", "needs HTTP basic auth: pass --auth"),
    ),
    ClosedVariant(
        Wall.HEADER,
        _access,
        Reply(403, _REFUSED, {"content-type": HTML_TYPE}),
        {"headers": {"CF-Access-Client-Id": ACCESS_ID, "CF-Access-Client-Secret": ACCESS_SECRET}},
        (
            "--header",
            f"CF-Access-Client-Id: {ACCESS_ID}",
            "--header",
            f"CF-Access-Client-Secret: {ACCESS_SECRET}",
        ),
        ("answered 403 Forbidden", "--header 'NAME: VALUE'", "--cookie NAME=VALUE"),
    ),
    ClosedVariant(
        Wall.COOKIE,
        _session,
        Reply(403, _REFUSED, {"content-type": HTML_TYPE}),
        {"cookies": {"badseo_session": SESSION, "theme": "dark"}},
        ("--cookie", f"badseo_session={SESSION}", "--cookie", "theme=dark"),
        ("answered 403 Forbidden", "--header 'NAME: VALUE'", "--cookie NAME=VALUE"),
    ),
)

CLOSED_FIXTURES: tuple[Fixture, ...] = (
    page(
        "/",
        Category.SITE,
        "The start page of a closed staging site: every request needs its credentials.",
        _PLAIN_HTTP_GRADE,
        linked_from_catalog=False,
        chrome=False,
        title="badseo: the closed staging site",
        h1="Closed staging site",
        description="The start page of the closed badseo variants, served only to requests that "
        "bring basic auth, an access header or a login cookie.",
        body='<p>Read <a href="/about">about it</a>, the <a href="/news">news</a>, or '
        '<a href="{external}/landing">a site elsewhere</a>.</p>',
    ),
    page(
        "/about",
        Category.SITE,
        "The closed site's about page, linked from its start page.",
        linked_from_catalog=False,
        chrome=False,
        in_sitemap=False,
        description="About the closed badseo staging site: a page behind the same wall as every "
        "other, reached by a link.",
        body='<p>Back to <a href="/">the start page</a>.</p>',
    ),
    page(
        "/news",
        Category.SITE,
        "The closed site's news page, linked from its start page and listed in its sitemap.",
        linked_from_catalog=False,
        chrome=False,
        description="News of the closed badseo staging site: linked from its start page and "
        "listed in its sitemap, behind the wall.",
        body='<p>Back to <a href="/">the start page</a>.</p>',
    ),
    page(
        "/from-sitemap",
        Category.SITEMAP,
        "A page only the closed site's sitemap lists: found only if the sitemap was read through "
        "the wall, and an orphan then.",
        (T.ORPHAN_PAGE,),
        linked_from_catalog=False,
        chrome=False,
        body='<p>Back to <a href="/">the start page</a>.</p>',
    ),
)


def carries_credentials(request: SiteRequest) -> bool:
    """Whether a request brought any of the three walls' credentials, even partly."""
    headers = request.headers
    sent = {"authorization", "cf-access-client-id", "cf-access-client-secret", "cookie"}
    return bool(sent & set(headers)) or any(
        secret in value for value in headers.values() for secret in SECRETS
    )


@dataclass(frozen=True, slots=True)
class ClosedSite:
    site: Site
    external: Site  # 127.0.0.2 at the same port: what the start page links
    elsewhere: Site  # 127.0.0.1 at another port: where /hop redirects

    @property
    def origin(self) -> str:
        return self.site.origin

    @property
    def start_url(self) -> str:
        return self.site.url("/")

    def url(self, path: str) -> str:
        return self.site.url(path)


def _walled(route: Route, variant: ClosedVariant) -> Route:
    def serve(request: SiteRequest) -> Reply | StreamReply:
        if not variant.admits(request.headers):
            return variant.refusal
        return route(request) if callable(route) else route

    return serve


def _redirect_to(url: Callable[[], str]) -> Route:
    def serve(request: SiteRequest) -> Reply:
        return Reply(302, b"", {"location": url(), "content-type": HTML_TYPE})

    return serve


@contextmanager
def serve_closed(variant: ClosedVariant) -> Iterator[ClosedSite]:
    """The closed site behind `variant`'s wall, the other site, and `elsewhere`."""
    landing = Reply(200, html_page("Elsewhere", "<h1>Another origin</h1>"))
    elsewhere_routes: dict[str, Route] = {"/landing": lambda request: landing}
    with serve_site(elsewhere_routes) as elsewhere:
        table = routes(CLOSED_FIXTURES)
        table["/hop"] = _redirect_to(lambda: elsewhere.url("/bounce"))
        walled = {path: _walled(route, variant) for path, route in table.items()}
        with serve_site(walled) as site:
            # Back to the closed start page: a later hop to an allowed origin gets them again.
            elsewhere_routes["/bounce"] = _redirect_to(lambda: site.url("/"))
            port = site.server.server_address[1]
            with serve_site(external_routes(), EXTERNAL_HOST, port) as external:
                yield ClosedSite(site, external, elsewhere)
