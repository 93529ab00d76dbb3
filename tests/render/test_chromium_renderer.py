"""The local renderer in a real browser (Debian's Chromium, as the browser tier finds it).

Two flows, one browser each: a page built by script on a loopback site, and the SSRF test, where
a page on an allowed host asks for a loopback address in every way a page can and a listener
there counts the connections it gets.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import pytest

from common import ports
from local_platform.chromium_renderer import ChromiumRenderer, chromium_executable
from local_platform.fetch import aclose_shared_client
from render.records import BlockReason, RenderBudget, RenderFailure
from tests.support.site_server import Reply, serve_site
from urls.private_hosts import PrivateHosts

pytestmark = pytest.mark.skipif(
    chromium_executable() is None,
    reason="the local renderer needs Chromium: no `chromium` on PATH (.ci/run installs it)",
)

JS = {"content-type": "text/javascript"}

APP_JS = b"""
document.title = 'Built by script';
const meta = document.createElement('meta');
meta.name = 'description'; meta.content = 'Set after load';
document.head.appendChild(meta);
fetch('/api/items').then(r => r.json()).then(items => {
  for (const item of items) {
    const a = document.createElement('a');
    a.href = item.href; a.textContent = item.name;
    document.getElementById('root').appendChild(a);
  }
});
console.error('boom in the console');
setTimeout(() => { throw new Error('uncaught after load'); }, 0);
"""


async def test_a_page_built_by_script_renders_with_what_went_wrong_on_it() -> None:
    routes = {
        "/": Reply(301, headers={"location": "/app"}),
        "/app": Reply(
            body=b"<!doctype html><title>shell</title><div id=root></div>"
            b"<img src=/hero.png><script src=/app.js></script>"
        ),
        "/app.js": Reply(body=APP_JS, headers=JS),
        "/api/items": Reply(
            body=b'[{"href": "/about", "name": "About us"}]',
            headers={"content-type": "application/json"},
        ),
        "/hero.png": Reply(body=b"\x89PNG", headers={"content-type": "image/png"}),
    }
    with serve_site(routes) as site:
        renderer = ChromiumRenderer(ports.http_client(), PrivateHosts.LOOPBACK)
        try:
            page = await renderer.render(site.url("/"), RenderBudget(time_s=15))
            document_bytes = len(routes["/app"].body)
            starved = await renderer.render(
                site.url("/app"), RenderBudget(max_bytes=document_bytes + 1)
            )
            too_large = await renderer.render(site.url("/app"), RenderBudget(max_bytes=10))
        finally:
            await renderer.aclose()
            await aclose_shared_client()
        served = [request.path for request in site.requests]

    assert page.ok, page.error
    assert (page.status, page.final_url) == (200, site.url("/app"))
    assert "<title>Built by script</title>" in page.html
    assert '<meta name="description" content="Set after load">' in page.html
    assert '<a href="/about">About us</a>' in page.html
    assert page.console_errors == ["boom in the console"]
    assert len(page.exceptions) == 1 and "uncaught after load" in page.exceptions[0]
    # The image was never asked of the server: media stays home unless the budget asks.
    assert [(b.url, b.reason) for b in page.blocked] == [
        (site.url("/hero.png"), BlockReason.RESOURCE_TYPE)
    ]
    assert "/hero.png" not in served
    assert page.bytes_loaded == sum(len(routes[p].body) for p in ("/app", "/app.js", "/api/items"))

    # A budget one byte above the document's: the document loads, its script does not; a budget
    # below it: no render at all.
    assert starved.ok and "Built by script" not in starved.html
    assert (site.url("/app.js"), BlockReason.BYTE_BUDGET) in [
        (b.url, b.reason) for b in starved.blocked
    ]
    assert too_large.failure is RenderFailure.TOO_LARGE and too_large.html == ""


class _Listener:
    """A TCP port that counts every connection made to it and answers none."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()


@contextmanager
def listening() -> Iterator[_Listener]:
    listener = _Listener()
    listener._thread.start()
    try:
        yield listener
    finally:
        listener.sock.close()


class _PublicName:
    """The platform's client, with `http://site.example` standing for a loopback site: the page
    is on a host the policy allows (DENY lets no loopback through), served from this machine.
    Any other URL goes where it says, so a request the renderer wrongly let through reaches the
    listener and is counted."""

    def __init__(self, inner: ports.HttpClient, origin: str) -> None:
        self.inner, self.origin, self.urls = inner, origin, list[str]()

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        self.urls.append(request.url)
        parts = urlsplit(request.url)
        if parts.hostname != "site.example":  # what the renderer let through goes where it says
            return await self.inner.fetch(request)
        local = self.origin + parts.path + (f"?{parts.query}" if parts.query else "")
        result = await self.inner.fetch(
            ports.FetchRequest(local, request.timeout_s, request.max_bytes, request.headers)
        )
        location = result.header("location")
        if location and location.startswith(self.origin):  # keep the site's name in redirects
            headers = {
                **result.headers,
                "location": "http://site.example" + location[len(self.origin) :],
            }
            return ports.FetchResult(request.url, result.status, headers, result.body, False, 0)
        return ports.FetchResult(request.url, result.status, result.headers, result.body, False, 0)


def _hostile_page(port: int) -> bytes:
    loopback = f"http://127.0.0.1:{port}"
    return f"""<!doctype html><title>waiting</title>
<link rel=stylesheet href="http://localhost:{port}/style.css">
<link rel=preconnect href="{loopback}"><link rel=dns-prefetch href="{loopback}">
<link rel=prefetch href="{loopback}/prefetch">
<img src="{loopback}/pixel.gif">
<iframe src="{loopback}/frame"></iframe>
<script src="{loopback}/script.js"></script>
<script>
const tries = [
  fetch('{loopback}/fetch'),
  fetch('/to-loopback'),
  fetch('http://2130706433:{port}/decimal'),
  fetch('http://[::ffff:7f00:1]:{port}/mapped'),
  fetch('{loopback}/post', {{method: 'POST', body: 'x'}}),
  new Promise(done => {{
    const x = new XMLHttpRequest(); x.open('GET', '{loopback}/xhr');
    x.onloadend = done; x.send();
  }}),
  new Promise(done => {{
    const code = "fetch('{loopback}/worker').finally(() => postMessage(1))";
    const w = new Worker(URL.createObjectURL(new Blob([code])));
    w.onmessage = done; w.onerror = done;
  }}),
  new Promise(done => {{
    const ws = new WebSocket('ws://127.0.0.1:{port}/socket');
    ws.onerror = done; ws.onclose = done;
  }}),
];
navigator.sendBeacon('{loopback}/beacon', 'x');
Promise.allSettled(tries).then(() => {{ document.title = 'tried everything'; }});
</script>""".encode()


async def test_no_rendered_page_reaches_a_loopback_address() -> None:
    with listening() as canary:
        routes = {
            "/": Reply(body=_hostile_page(canary.port)),
            "/to-loopback": Reply(302, headers={"location": f"http://127.0.0.1:{canary.port}/r"}),
            "/go-home": Reply(302, headers={"location": f"http://127.0.0.1:{canary.port}/"}),
        }
        with serve_site(routes) as site:
            http = _PublicName(ports.http_client(), site.origin)
            renderer = ChromiumRenderer(http, PrivateHosts.DENY)
            try:
                page = await renderer.render("http://site.example/", RenderBudget(time_s=15))
                redirected = await renderer.render("http://site.example/go-home", RenderBudget())
                direct = await renderer.render(f"http://127.0.0.1:{canary.port}/", RenderBudget())
            finally:
                await renderer.aclose()
                await aclose_shared_client()
        assert canary.connections == 0

    assert page.ok, page.error
    assert "<title>tried everything</title>" in page.html
    refused = {(urlsplit(b.url).path, b.reason) for b in page.blocked}
    for path in ("/style.css", "/pixel.gif", "/frame", "/script.js", "/fetch", "/r", "/decimal"):
        assert (path, BlockReason.PRIVATE_ADDRESS) in refused, path
    for path in ("/mapped", "/post", "/xhr", "/worker"):
        assert (path, BlockReason.PRIVATE_ADDRESS) in refused, path
    assert ("/socket", BlockReason.NOT_HTTP) in refused
    assert set(http.urls) == {
        "http://site.example/",
        "http://site.example/to-loopback",
        "http://site.example/go-home",
    }

    for refused_page in (redirected, direct):
        assert refused_page.failure is RenderFailure.REFUSED_URL
        assert refused_page.html == ""
        assert [b.reason for b in refused_page.blocked] == [BlockReason.PRIVATE_ADDRESS]
