"""The https variant of badseo: the four issue types only an https site can raise.

Theory of operation
-------------------
* Same rules as the main site (see site.py): one defect per page, `expected` lists the issue types
  on the fixture's own URL, everything else must be clean.
* http and https count as one site only on their default ports (urls.normalise.same_site_parts), so
  the variant listens on 443 (TLS) and on 80 (its plain-http twin) of a loopback address of its
  own, `HOST`, never on a shared or public address. Binding them needs root (tests run as root);
  `serve_https_badseo` raises OSError when it cannot, and the test skips with the reason.
* TLS comes from a throwaway CA made by `trustme` for each server; the audit's outbound fetch must
  be told to trust it (`local_platform.fetch.trust_ca_file`), which `ca_file` is for.
* Because both origins are fixed (default ports), fixtures and golden entries carry absolute URLs.
* Every https page sends HSTS with a max-age of a year (above HSTS_MIN_MAX_AGE_S) unless the
  missing or short header is its defect. Pages drop the shared chrome: its relative links are fine
  on https, but the http page must not link relative URLs, or the crawl would walk a whole http
  copy of the site (each page another http-page-on-https-site, each a duplicate of its twin).
* The http twin serves only the http page and the image the mixed-content page refers to; anything
  else gets a 404, and the end-to-end test checks it was asked for nothing else.
"""

from __future__ import annotations

import ssl
import threading
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from socket import socket

from audit.catalogue import HSTS_MIN_MAX_AGE_S, IssueType
from tests.badseo.pages import Handler, Html, PageSpec, Resource
from tests.badseo.site import ASSETS, PIXEL_PNG, Category
from tests.support.site_server import Reply, _Handler, _SiteHTTPServer

__all__ = [
    "HOST",
    "HSTS_MISSING_URL",
    "HSTS_ONE_YEAR",
    "HSTS_SHORT",
    "HSTS_TOO_SHORT_URL",
    "HTTPS_FIXTURES",
    "HTTPS_ORIGIN",
    "HTTP_ORIGIN",
    "HTTP_PAGE_URL",
    "MIXED_CONTENT_URL",
    "MIXED_IMAGE_URL",
    "HttpsFixture",
    "HttpsSite",
    "https_expected_issues",
    "serve_https_badseo",
]

T = IssueType

HOST = "127.0.0.7"  # a loopback address of its own: ports 80 and 443 on it are ours
HTTPS_ORIGIN = f"https://{HOST}"
HTTP_ORIGIN = f"http://{HOST}"
HSTS_ONE_YEAR = "max-age=31536000; includeSubDomains"
HSTS_SHORT_S = 300  # five minutes
HSTS_SHORT = f"max-age={HSTS_SHORT_S}"
PIXEL_PATH = "/assets/pixel.png"

assert HSTS_SHORT_S < HSTS_MIN_MAX_AGE_S <= 31_536_000


@dataclass(frozen=True, slots=True)
class HttpsFixture:
    url: str  # absolute: the variant's origins are fixed
    category: Category
    summary: str
    expected: tuple[IssueType, ...]
    handler: Handler
    in_sitemap: bool = True

    @property
    def origin(self) -> str:
        scheme, _, rest = self.url.partition("://")
        return f"{scheme}://{rest.split('/', 1)[0]}"

    @property
    def path(self) -> str:
        return self.url.removeprefix(self.origin) or "/"


def _home_link() -> str:
    return f'<p>Back to the <a href="{HTTPS_ORIGIN}/">home page</a>.</p>'


def _page(
    url: str,
    summary: str,
    expected: tuple[IssueType, ...] = (),
    *,
    hsts: str | None = HSTS_ONE_YEAR,
    in_sitemap: bool = True,
    category: Category = Category.SECURITY,
    **spec: object,
) -> HttpsFixture:
    origin = HTTPS_ORIGIN if url.startswith(HTTPS_ORIGIN) else HTTP_ORIGIN
    path = url.removeprefix(origin) or "/"
    spec.setdefault("text", summary)
    spec.setdefault("body", _home_link())
    spec.setdefault("title", f"badseo https fixture {path}")
    spec.setdefault(
        "description", f"A page of the https badseo variant at {path} that shows one finding."
    )
    headers = {"strict-transport-security": hsts} if hsts is not None else {}
    handler = Html(PageSpec(path, chrome=False, headers=headers, **spec))  # type: ignore[arg-type]
    return HttpsFixture(url, category, summary, expected, handler, in_sitemap)


MIXED_CONTENT_URL = f"{HTTPS_ORIGIN}/security/mixed-content"
HSTS_MISSING_URL = f"{HTTPS_ORIGIN}/security/hsts-missing"
HSTS_TOO_SHORT_URL = f"{HTTPS_ORIGIN}/security/hsts-too-short"
HTTP_PAGE_URL = f"{HTTP_ORIGIN}/security/http-page"
MIXED_IMAGE_URL = f"{HTTP_ORIGIN}{PIXEL_PATH}"

_HOME_LINKS = (MIXED_CONTENT_URL, HSTS_MISSING_URL, HSTS_TOO_SHORT_URL, HTTP_PAGE_URL)

HTTPS_FIXTURES: tuple[HttpsFixture, ...] = (
    _page(
        f"{HTTPS_ORIGIN}/",
        "The home page of the https variant: clean for SEO; its http twin answers / with a 404 "
        "instead of a redirect to https, which fails the security grade's redirection test.",
        (T.SECURITY_REDIRECTION,),
        category=Category.SITE,
        title="badseo over https: four transport defects",
        h1="badseo over https",
        description="The https variant of badseo: four pages, each with one transport security "
        "defect that only an https site can have.",
        body="<ul>"
        + "".join(f'<li><a href="{url}">{escape(url)}</a></li>' for url in _HOME_LINKS)
        + "</ul>",
    ),
    _page(
        MIXED_CONTENT_URL,
        "An https page that loads an image over plain http.",
        (T.MIXED_CONTENT,),
        body=f'<p><img src="{MIXED_IMAGE_URL}" alt="A pixel sent over http" width="1" '
        f'height="1"></p>{_home_link()}',
    ),
    _page(
        HSTS_MISSING_URL,
        "An https page without a Strict-Transport-Security header.",
        (T.HSTS_MISSING,),
        hsts=None,
    ),
    _page(
        HSTS_TOO_SHORT_URL,
        "An https page whose HSTS max-age is five minutes.",
        (T.HSTS_TOO_SHORT,),
        hsts=HSTS_SHORT,
    ),
    # Over http HSTS is ignored (and not sent), and the extractor records no mixed content.
    _page(
        HTTP_PAGE_URL,
        "A page served over plain http on the https site, not redirected.",
        (T.HTTP_PAGE_ON_HTTPS_SITE,),
        hsts=None,
        in_sitemap=False,
    ),
)


def https_expected_issues(
    fixtures: Sequence[HttpsFixture] = HTTPS_FIXTURES,
) -> set[tuple[str, str]]:
    """(issue type, absolute page URL) for every issue the audit of the variant must report."""
    return {(t.value, f.url) for f in fixtures for t in f.expected}


# ------------------------------------------------------------------------------- server

ROBOTS_TXT = f"User-agent: *\nDisallow:\n\nSitemap: {HTTPS_ORIGIN}/sitemap.xml\n"


def _sitemap_reply(fixtures: Sequence[HttpsFixture]) -> Reply:
    urls = "".join(f"<url><loc>{escape(f.url)}</loc></url>" for f in fixtures if f.in_sitemap)
    body = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>'
    ).encode()
    return Reply(200, body, {"content-type": "application/xml"})


def routes_for(origin: str, fixtures: Sequence[HttpsFixture] = HTTPS_FIXTURES) -> dict[str, object]:
    """The route table of one origin (the https site or its http twin)."""
    table: dict[str, object] = {f.path: f.handler.fresh() for f in fixtures if f.origin == origin}
    if origin == HTTPS_ORIGIN:
        table["/robots.txt"] = Reply(200, ROBOTS_TXT.encode(), {"content-type": "text/plain"})
        table["/sitemap.xml"] = _sitemap_reply(fixtures)
        table.update(ASSETS)
    else:
        table[PIXEL_PATH] = Resource("image/png", PIXEL_PNG)
    return table


class _TlsServer(_SiteHTTPServer):
    """The fixture server with TLS: the handshake runs in the request's own thread."""

    tls: ssl.SSLContext

    def finish_request(self, request: socket, client_address: object) -> None:  # type: ignore[override]
        try:
            wrapped = self.tls.wrap_socket(request, server_side=True)
        except OSError:
            return  # a client that does not trust the CA, or hung up mid-handshake
        with wrapped:
            super().finish_request(wrapped, client_address)


@dataclass
class HttpsSite:
    """Both servers of the variant, their request logs and the CA file a client must trust."""

    ca_file: Path
    https_server: _SiteHTTPServer
    http_server: _SiteHTTPServer
    fixtures: Sequence[HttpsFixture] = field(default=HTTPS_FIXTURES)

    @property
    def start_url(self) -> str:
        return f"{HTTPS_ORIGIN}/"

    def requested(self) -> list[str]:
        """Absolute URLs the two servers were asked for, in order per server."""
        return [HTTPS_ORIGIN + r.path for r in self.https_server.log] + [
            HTTP_ORIGIN + r.path for r in self.http_server.log
        ]


def _start(
    stack: ExitStack,
    port: int,
    routes: dict[str, object],
    tls: ssl.SSLContext | None,
    host: str = HOST,
) -> _SiteHTTPServer:
    server_class = _SiteHTTPServer if tls is None else _TlsServer
    server = server_class((host, port), _Handler)  # OSError when the port cannot be had
    stack.callback(server.server_close)
    if tls is not None:
        server.tls = tls  # type: ignore[attr-defined]
    server.routes = routes  # type: ignore[assignment]
    server.log = []
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    stack.callback(thread.join)
    stack.callback(server.shutdown)
    return server


@contextmanager
def serve_https_badseo(workdir: Path) -> Iterator[HttpsSite]:
    """The variant on https://127.0.0.7 (443) and http://127.0.0.7 (80), with a fresh CA whose
    certificate is written to `workdir`/badseo-ca.pem. Raises OSError if a port is taken."""
    import trustme

    ca = trustme.CA(organization_name="badseo test CA")
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(HOST).configure_cert(tls)
    ca_file = workdir / "badseo-ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    with ExitStack() as stack:
        https_server = _start(stack, 443, routes_for(HTTPS_ORIGIN), tls)
        http_server = _start(stack, 80, routes_for(HTTP_ORIGIN), None)
        yield HttpsSite(ca_file, https_server, http_server)
