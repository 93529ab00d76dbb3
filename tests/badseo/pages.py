"""The badseo site's building blocks: a clean page by default, and the handlers that serve routes.

Theory of operation
-------------------
* `PageSpec` describes one HTML page. Its defaults make a page that no per-page rule reports:
  a unique 10-60 character title, a 70-160 character description, one H1, `lang`, a viewport,
  at least 150 words, the security headers. A fixture changes exactly the fields of its defect.
* The shared chrome (a nav of three links and a footer line) is SEO-neutral as in the original
  harness (original system §6.3): no headings and no images, so it never adds to a page's H1 or
  image counts. Its words and links do count, which is why thin and link-free fixtures turn it off.
* Handlers are small callables over `SiteRequest` that carry the status of their first answer, so
  the site's tests can read what each route must do from the same data that serves it. A handler
  with per-server state (the 429 counter) hands out a fresh copy for every server via `fresh()`.
* Absolute URLs inside a page (canonicals, Link headers) are built from the request's Host header,
  because the port changes from run to run.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from html import escape
from typing import Self
from urllib.parse import urljoin

from demo.shop import head_tags, open_graph_tags
from tests.support.site_server import Reply, SiteRequest, StreamReply

__all__ = [
    "EXTERNAL_HOST",
    "FILLER",
    "HTML_TYPE",
    "NAMED_HOST",
    "SECURITY_HEADERS",
    "Handler",
    "Html",
    "PageSpec",
    "RateLimited",
    "Redirect",
    "Resource",
    "Status",
    "external_origin",
    "named_origin",
    "origin_of",
]

HTML_TYPE = "text/html; charset=utf-8"
# The image every page shares itself with (og:image): served by site.ASSETS, checked once.
SHARE_IMAGE = "/assets/pixel.png"

# The MDN HTTP Observatory's passing values for the three headers the security rules read on a
# plain-http site (HSTS is judged on https pages only).
SECURITY_HEADERS: Mapping[str, str] = {
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'self'",
    "x-frame-options": "SAMEORIGIN",
    "referrer-policy": "strict-origin-when-cross-origin",
}

# 170 words of prose: with it any page clears the 150-word thin-content threshold on its own.
FILLER = (
    "This page belongs to badseo, a small website built to be audited. Every page on the site "
    "shows one search engine optimisation defect and nothing else, so that an audit of the whole "
    "site can be compared with a list of expected findings, finding by finding. The pages share a "
    "plain layout without headings or pictures, which keeps the layout itself from causing any "
    "finding. Each page explains in one sentence what it demonstrates, then adds this paragraph "
    "of ordinary text, long enough that no page looks thin to the audit unless thin content is "
    "the very defect being shown. Readers who arrive here by accident can return to the home "
    "page or browse the catalog, which lists every fixture together with a short summary of the "
    "defect it carries. The site answers quickly, sends the usual security headers, declares its "
    "language and a mobile viewport, and links its pages to each other so that an audit can reach "
    "all of them by following links. A few pages are reachable only through the sitemap, on "
    "purpose, and say so."
)


def origin_of(request: SiteRequest) -> str:
    """The site's origin as the client addressed it (the server binds a fresh port each run)."""
    return f"http://{request.headers.get('host', '127.0.0.1')}"


# The other site external links point at: a second server on 127.0.0.2 (loopback on Linux, and
# another host to `urls.normalise.same_site`) at the main site's port, so its origin follows from
# the main one's.
EXTERNAL_HOST = "127.0.0.2"


def external_origin(origin: str) -> str:
    return origin.replace("127.0.0.1", EXTERNAL_HOST, 1)


# The main site by a name, for links that need an external host *name* that resolves: `localhost`
# resolves through the hosts file, never through DNS, and is another host to `same_site`. Names
# that do not resolve are written under `.invalid` (RFC 6761 §6.4), which tests/conftest.py
# answers as the platform answers an unknown name, without asking any resolver.
NAMED_HOST = "localhost"


def named_origin(origin: str) -> str:
    return origin.replace("127.0.0.1", NAMED_HOST, 1)


class Handler:
    """A route: `status` is what the first request gets; `__call__` serves one request."""

    status: int  # each subclass declares it as a dataclass field

    def __call__(self, request: SiteRequest) -> Reply | StreamReply:
        raise NotImplementedError

    def fresh(self) -> Self:
        """A copy with its own per-server state (stateless handlers share themselves)."""
        return self


@dataclass(frozen=True, slots=True)
class PageSpec:
    """One HTML page; every default is the clean choice. `None` leaves an element out."""

    path: str  # the main path; the default title and description are derived from it
    text: str  # the first paragraph: what the page demonstrates (makes the body text unique)
    title: str | None = ""  # "" = the default title
    description: str | None = ""  # "" = the default description
    h1: str | None = ""  # "" = the default H1; None = no H1 element
    # Extra markup after the first paragraph; "{external}": the other site, "{named}": this site
    # by a name that resolves (`named_origin`).
    body: str = ""
    head: str = ""  # extra markup at the end of <head>
    lang: str | None = "en"
    viewport: bool = True
    filler: bool = True
    chrome: bool = True
    canonical: str | None = None  # path or URL; "{origin}" is replaced by the request's origin
    open_graph: bool = True  # the page's Open Graph tags (og:url: the canonical, else the page)
    headers: Mapping[str, str | None] = field(default_factory=dict)  # None drops a header
    padding_bytes: int = 0  # an HTML comment of this size at the end of <body>
    frameset: str | None = None  # a <frameset> document: this markup instead of <body>

    @property
    def title_text(self) -> str | None:
        return f"badseo fixture {self.path}" if self.title == "" else self.title

    @property
    def description_text(self) -> str | None:
        if self.description != "":
            return self.description
        return f"A badseo fixture page at {self.path} that shows exactly one audit finding."

    @property
    def h1_text(self) -> str | None:
        return f"Fixture {self.path}" if self.h1 == "" else self.h1

    def render(self, origin: str) -> bytes:
        return _render_page(self, origin).encode()

    def response_headers(self, origin: str) -> dict[str, str]:
        merged = {"content-type": HTML_TYPE, **SECURITY_HEADERS, **self.headers}
        return {k: v.replace("{origin}", origin) for k, v in merged.items() if v is not None}


def _head(spec: PageSpec, origin: str) -> str:
    canonical = None if spec.canonical is None else spec.canonical.replace("{origin}", origin)
    parts = head_tags(spec.title_text, spec.description_text, spec.viewport, canonical)
    if spec.open_graph:
        shared_as = urljoin(f"{origin}{spec.path}", canonical or spec.path)
        title = spec.title_text or f"badseo fixture {spec.path}"
        description = spec.description_text or f"The badseo fixture at {spec.path}."
        parts += open_graph_tags(title, description, shared_as, f"{origin}{SHARE_IMAGE}")
    parts.append(spec.head.replace("{origin}", origin))
    return "".join(parts)


_NAV = (
    '<nav><a href="/">Home</a> | <a href="/catalog">Catalog</a> | '
    '<a href="/privacy">Privacy</a></nav>'
)
_FOOTER = "<footer><p>badseo, the test site of siteaudit.</p></footer>"


def _body(spec: PageSpec, origin: str) -> str:
    h1 = "" if spec.h1_text is None else f"<h1>{escape(spec.h1_text)}</h1>"
    filler = f"<p>{FILLER}</p>" if spec.filler else ""
    main = f"<main>{h1}<p>{escape(spec.text)}</p>{spec.body}{filler}</main>"
    main = main.replace("{external}", external_origin(origin))
    main = main.replace("{named}", named_origin(origin))
    padding = f"<!--{'x' * spec.padding_bytes}-->" if spec.padding_bytes else ""
    return (_NAV + main + _FOOTER if spec.chrome else main) + padding


def _render_page(spec: PageSpec, origin: str) -> str:
    lang = "" if spec.lang is None else f' lang="{spec.lang}"'
    return (
        f"<!doctype html><html{lang}><head>{_head(spec, origin)}</head>"
        f"{spec.frameset or f'<body>{_body(spec, origin)}</body>'}</html>"
    )


@dataclass(frozen=True, slots=True)
class Html(Handler):
    """An HTML page, optionally after a delay (slept before the headers: the rules time those)."""

    spec: PageSpec
    delay_s: float = 0.0
    status: int = 200

    def __call__(self, request: SiteRequest) -> Reply:
        if self.delay_s:
            time.sleep(self.delay_s)
        origin = origin_of(request)
        return Reply(self.status, self.spec.render(origin), self.spec.response_headers(origin))


@dataclass(slots=True)
class SlowFirst(Handler):
    """An HTML page whose first GET waits `delay_s` before the headers and whose later requests
    do not: a page slow once, as a cold cache or a busy moment makes it (the per-server count
    starts over with every server)."""

    spec: PageSpec
    delay_s: float
    status: int = 200
    _served: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, request: SiteRequest) -> Reply:
        with self._lock:
            self._served += request.method == "GET"
            first = self._served == 1 and request.method == "GET"
        return Html(self.spec, self.delay_s if first else 0.0)(request)

    def fresh(self) -> Self:
        return type(self)(self.spec, self.delay_s)


# Where a `Generated` page's generated middle goes: put it in the spec's body.
GENERATED_MARK = "<!--generated-->"
_FILLER_BLOCK = (
    b"<p>" + b"Generated text, one paragraph of many on a very large page. " * 16 + b"</p>"
) * 64


@dataclass(frozen=True, slots=True)
class Generated(Handler):
    """An HTML page with about `size` bytes of paragraphs generated at `GENERATED_MARK` while it
    is sent (no Content-Length): megabytes that are never stored in git nor held in memory."""

    spec: PageSpec
    size: int
    status: int = 200

    def __call__(self, request: SiteRequest) -> StreamReply:
        origin = origin_of(request)
        lead, _, tail = self.spec.render(origin).partition(GENERATED_MARK.encode())
        blocks = max(1, self.size // len(_FILLER_BLOCK))

        def chunks() -> Iterator[bytes]:
            yield lead
            for _ in range(blocks):
                yield _FILLER_BLOCK
            yield tail

        return StreamReply(chunks, self.status, self.spec.response_headers(origin))


@dataclass(frozen=True, slots=True)
class Redirect(Handler):
    status: int
    location: str  # path-absolute, so it needs no origin

    def __call__(self, request: SiteRequest) -> Reply:
        headers = {"location": self.location, "content-type": HTML_TYPE}
        return Reply(self.status, b"", headers)


@dataclass(frozen=True, slots=True)
class Status(Handler):
    """A fixed non-page answer (errors, challenges) with its headers and body."""

    status: int
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, request: SiteRequest) -> Reply:
        return Reply(self.status, self.body, {"content-type": HTML_TYPE, **self.headers})


@dataclass(frozen=True, slots=True)
class Resource(Handler):
    """A non-HTML resource (content checks are skipped for it)."""

    content_type: str
    body: bytes
    status: int = 200

    def __call__(self, request: SiteRequest) -> Reply:
        return Reply(self.status, self.body, {"content-type": self.content_type})


@dataclass(frozen=True, slots=True)
class HeadRefused(Resource):
    """A resource whose server refuses HEAD with 405 and answers GET as `Resource` does."""

    def __call__(self, request: SiteRequest) -> Reply:
        if request.method == "HEAD":
            return Reply(405, b"", {"allow": "GET", "content-type": "text/plain"})
        return super(HeadRefused, self).__call__(request)


@dataclass(slots=True)
class RateLimited(Handler):
    """429 for the first `limit` requests (None: always), then `then`. The count is per server,
    so a crawl that retries sees the page recover; a warm-up request would use up the 429s."""

    then: Handler | None = None
    limit: int | None = None
    retry_after: str | None = None
    status: int = 429
    _count: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, request: SiteRequest) -> Reply | StreamReply:
        with self._lock:
            self._count += 1
            limited = self.limit is None or self._count <= self.limit
        if not limited and self.then is not None:
            return self.then(request)
        headers = {"retry-after": self.retry_after} if self.retry_after else {}
        body = b"<!doctype html><title>Too many requests</title><p>Slow down.</p>"
        return Reply(429, body, {"content-type": HTML_TYPE, **headers})

    def fresh(self) -> Self:
        return type(self)(self.then, self.limit, self.retry_after)
