"""badseo's client-rendered site: an app shell whose every fact is built by script (issue 30).

Theory of operation
-------------------
* Every path but the script, robots.txt, the sitemap and the missing brochure answers 200 with
  the same shell: an empty `<div id=app>`, a module script, the title "Loading". Raw HTML is
  therefore the same app shell on every route (`javascript-rendering-suspected` today), and a
  crawler that does not render finds the start page and nothing else: the shell has no links.
* `/app.js` is a history-API router: on load it renders the route of `location.pathname`; a click
  on an internal link calls `history.pushState` and renders the next route without a request.
  Each route sets its title, meta description and `<h1>` and injects its links after load.
* The defects planted (`Planted`, per route in `ROUTES`) are those only a rendered DOM shows:
  links that appear only after script (every route), a title and description set by script (every
  route), a canonical added by script (`/products/widget`, pointing at `/products`), a `noindex`
  added by script (`/private`), a broken link present only in the rendered DOM (`/downloads`
  links `/downloads/brochure.pdf`, which answers 404), an uncaught exception during load
  (`/throws`), a soft 404: `/old-offer` is linked but is no route, so it answers 200 and
  renders the "Page not found" view, and a script robots.txt disallows (`/reviews` loads
  `/private-api/reviews.js`, under robots.txt's `Disallow: /private-api/`): Googlebot does not
  fetch it, so a render that obeys robots.txt must not either, and says so.
* Every route is reachable from `/` through rendered links only, and none is in the sitemap
  (which lists `/` alone), so only rendering finds them.

`tests/badseo/test_client_rendered_rules.py` maps each planted defect to the catalogue type the
raw-versus-rendered rules (audit.rendering_rules) report it with; the browser test here checks
each is there to be found.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum

from crawl.host_robots import HostRobots
from crawl.render_robots import RenderRobots
from crawl.robots import RobotsRules
from crawl.url_policy import UrlPolicy
from tests.support.site_server import Reply, Site, SiteRequest, serve_site
from tests.support.site_server import Route as Served
from urls.private_hosts import PrivateHosts

__all__ = [
    "BLOCKED_SCRIPT",
    "BROKEN_TARGET",
    "ROBOTS_TXT",
    "ROUTES",
    "SHELL",
    "SOFT_404",
    "Planted",
    "Route",
    "robots_gate",
    "serve_client_rendered",
]


class Planted(StrEnum):
    LINKS_ONLY_AFTER_SCRIPT = "links-only-after-script"
    TITLE_SET_BY_SCRIPT = "title-set-by-script"
    DESCRIPTION_SET_BY_SCRIPT = "description-set-by-script"
    CANONICAL_ADDED_BY_SCRIPT = "canonical-added-by-script"
    NOINDEX_ADDED_BY_SCRIPT = "noindex-added-by-script"
    BROKEN_LINK_ONLY_RENDERED = "broken-link-only-rendered"
    UNCAUGHT_EXCEPTION = "uncaught-exception"
    SOFT_404 = "soft-404"
    RESOURCE_BLOCKED_BY_ROBOTS = "resource-blocked-by-robots"


@dataclass(frozen=True, slots=True)
class Route:
    path: str
    title: str
    description: str
    heading: str
    links: tuple[str, ...]
    planted: tuple[Planted, ...]
    canonical: str | None = None
    robots: str | None = None
    throws: str | None = None
    script: str | None = None  # a script the route loads after it renders


_EVERY_ROUTE = (
    Planted.LINKS_ONLY_AFTER_SCRIPT,
    Planted.TITLE_SET_BY_SCRIPT,
    Planted.DESCRIPTION_SET_BY_SCRIPT,
)
BROKEN_TARGET = "/downloads/brochure.pdf"
BLOCKED_SCRIPT = "/private-api/reviews.js"
ROBOTS_TXT = b"User-agent: *\nDisallow: /private-api/\nAllow: /\n"
SOFT_404 = "/old-offer"
_NAV = ("/", "/products", "/about")


def _route(path: str, name: str, links: tuple[str, ...], *planted: Planted, **kw: str) -> Route:
    return Route(
        path,
        f"{name} | Client-rendered shop",
        f"The {name.lower()} page of a shop whose pages are all built in the browser.",
        name,
        links,
        (*_EVERY_ROUTE, *planted),
        **kw,
    )


ROUTES = (
    _route("/", "Home", (*_NAV, "/downloads", "/private", "/throws", "/reviews", SOFT_404)),
    _route("/products", "Products", (*_NAV, "/products/widget")),
    _route(
        "/products/widget",
        "Widget",
        _NAV,
        Planted.CANONICAL_ADDED_BY_SCRIPT,
        canonical="/products",
    ),
    _route("/about", "About", _NAV),
    _route("/downloads", "Downloads", (*_NAV, BROKEN_TARGET), Planted.BROKEN_LINK_ONLY_RENDERED),
    _route("/private", "Private", _NAV, Planted.NOINDEX_ADDED_BY_SCRIPT, robots="noindex"),
    _route(
        "/throws",
        "Throws",
        _NAV,
        Planted.UNCAUGHT_EXCEPTION,
        throws="the widget failed to load",
    ),
    _route(
        "/reviews",
        "Reviews",
        _NAV,
        Planted.RESOURCE_BLOCKED_BY_ROBOTS,
        script=BLOCKED_SCRIPT,
    ),
)
NOT_FOUND_TITLE = "Page not found | Client-rendered shop"

SHELL = (
    b"<!doctype html><html lang=en><head><meta charset=utf-8><title>Loading</title>"
    b'<script type=module src="/app.js"></script></head><body><div id=app></div></body></html>'
)

# The router: the route table as JSON, rendered into the shell on load and on every pushState.
_APP_JS = """\
const ROUTES = %(routes)s;
const NOT_FOUND = {title: %(not_found)s, heading: "Page not found",
  description: "", links: ["/"], text: "Sorry, this page does not exist."};
function meta(name, content) {
  let tag = document.head.querySelector(`meta[name="${name}"]`);
  if (!tag) { tag = document.createElement("meta"); tag.name = name; document.head.append(tag); }
  tag.content = content;
}
function canonical(href) {
  let tag = document.head.querySelector('link[rel="canonical"]');
  if (!href) { if (tag) tag.remove(); return; }
  if (!tag) { tag = document.createElement("link"); tag.rel = "canonical"; document.head.append(tag); }
  tag.href = href;
}
function render(path) {
  const route = ROUTES[path] || NOT_FOUND;
  document.title = route.title;
  if (route.description) meta("description", route.description);
  if (route.robots) meta("robots", route.robots);
  canonical(route.canonical);
  const app = document.getElementById("app");
  app.replaceChildren();
  const h1 = document.createElement("h1"); h1.textContent = route.heading; app.append(h1);
  const p = document.createElement("p");
  p.textContent = route.text || `${route.heading}: ${route.description}`;
  app.append(p);
  const nav = document.createElement("nav");
  for (const href of route.links) {
    const a = document.createElement("a"); a.href = href; a.textContent = href; nav.append(a);
  }
  app.append(nav);
  if (route.throws) setTimeout(() => { throw new Error(route.throws); }, 0);
  if (route.script) {
    const script = document.createElement("script"); script.src = route.script;
    document.body.append(script);
  }
}
document.addEventListener("click", (event) => {
  const a = event.target.closest("a");
  if (!a || a.origin !== location.origin || a.pathname.startsWith("/downloads/")) return;
  event.preventDefault();
  history.pushState(null, "", a.pathname);
  render(a.pathname);
});
window.addEventListener("popstate", () => render(location.pathname));
render(location.pathname);
"""


def app_js() -> bytes:
    table = {
        route.path: {
            "title": route.title,
            "description": route.description,
            "heading": route.heading,
            "links": list(route.links),
            "canonical": route.canonical,
            "robots": route.robots,
            "throws": route.throws,
            "script": route.script,
        }
        for route in ROUTES
    }
    source = _APP_JS % {"routes": json.dumps(table), "not_found": json.dumps(NOT_FOUND_TITLE)}
    return source.encode()


def _answer(request: SiteRequest) -> Reply:
    path = request.path.split("?")[0]
    if path == BROKEN_TARGET:
        return Reply(404, b"<!doctype html><title>Not found</title><p>No such file.</p>")
    return Reply(body=SHELL)  # the app answers every other path, known or not


def robots_gate(origin: str) -> RenderRobots:
    """The site's robots.txt as an audit of it applies it to a render (crawl.render_robots)."""
    robots = RobotsRules.from_bytes(ROBOTS_TXT)
    policy = UrlPolicy(f"{origin}/", private_hosts=PrivateHosts.LOOPBACK, robots=robots)

    async def no_other_host(origin: str) -> str:
        raise AssertionError(f"{origin} is not on the site: its robots.txt is never read")

    return RenderRobots(policy, HostRobots(policy, no_other_host))


@contextmanager
def serve_client_rendered() -> Iterator[Site]:
    """The site on a free port of 127.0.0.1."""
    with serve_site({}) as site:
        site.server.routes = _Routes(site.origin)
        yield site


class _Routes(dict[str, Served]):
    """Every path falls back to the app, as a single-page app's server does."""

    def __init__(self, origin: str) -> None:
        super().__init__(
            {
                "/app.js": Reply(body=app_js(), headers={"content-type": "text/javascript"}),
                "/robots.txt": Reply(body=ROBOTS_TXT, headers={"content-type": "text/plain"}),
                # What a render that ignored robots.txt would run: the reviews, as a list.
                BLOCKED_SCRIPT: Reply(
                    body=b'document.getElementById("app").append("5 stars");',
                    headers={"content-type": "text/javascript"},
                ),
                "/sitemap.xml": Reply(
                    body=(
                        '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns='
                        '"http://www.sitemaps.org/schemas/sitemap/0.9">'
                        f"<url><loc>{origin}/</loc></url></urlset>"
                    ).encode(),
                    headers={"content-type": "application/xml"},
                ),
            }
        )

    def get(self, key: str, default: object = None) -> Served:
        return super().get(key, _answer)
