"""The local platform's renderer: Debian's Chromium under Playwright, every request ours to fetch.

Theory of operation. The browser never touches the network itself. It is started with
`--host-resolver-rules=MAP * ~NOTFOUND`, so it can resolve no name and (Chromium applies the rules
to IP literals too) connect to no address; every request its page makes — the document, each
subresource, XHR and fetch, a dedicated worker's requests — is paused by Playwright's request
interception (`BrowserContext.route`) and answered by us: the request is judged by
render.request_policy (the crawler's SSRF host test, then the budget's resource types, then the
audit's robots.txt when the workflow hands a `RobotsGate`: a disallowed script, stylesheet or
XHR on the audited site is refused and recorded, as Googlebot does not fetch it), fetched
through the platform's `ports.HttpClient` (whose connections are checked again against the
private-host setting at connect time, local_platform.fetch), and the response handed back with
`route.fulfill`. Anything that escaped interception would meet the resolver rules and fail, so
the backstop holds even where Playwright does not route: WebSockets are refused by
`route_web_socket` and recorded, and service workers are blocked for the context.

Redirects are followed here, hop by hop, each hop judged before it is fetched: Chromium follows a
redirect answered through `route.fulfill` without pausing the next request (tried with Chromium
and Playwright 1.65: the redirect target is requested from the network directly), so a 3xx is
never handed to the browser. The document's own redirects are resolved before navigating, so the
browser's URL is the one the page ends at and relative links resolve against it; a
subresource's redirect is fulfilled with the final response at the URL the page asked for.

Budget: the page's bytes (every response body let through, decoded) and its time (one deadline for
the navigation, the wait for a quiet network and every fetch). Images, media and fonts are
refused unless the budget asks for them.

Accessibility: when the budget asks (`RenderBudget.accessibility`), axe-core runs in the loaded
page before its context closes (a11y.axe: WCAG 2.1 A/AA and target-size, within AXE_TIME_S).
axe.min.js is read from the repository's node_modules/axe-core (npm ci installs the version
package.json pins), never fetched, and evaluated through the DevTools protocol, which the page's
Content-Security-Policy does not govern. Without the file, each such render's result says so.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import shutil
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from a11y.axe import AXE_RUN, AXE_TIME_S, AxeResult, axe_run_arguments, from_axe
from common import ports
from common.settings import CRAWL
from crawl.pacing import NoTurnLeft
from render.records import BlockedRequest, BlockReason, RenderBudget, RenderedPage, RenderFailure
from render.request_policy import RobotsGate, request_refusal
from urls.normalise import normalise_url
from urls.private_hosts import PrivateHosts

if TYPE_CHECKING:
    from playwright.async_api import Browser, Playwright, Route, WebSocketRoute

__all__ = ["AXE_SCRIPT", "ChromiumRenderer", "chromium_executable"]

log = logging.getLogger("siteaudit.render")

# The Fetch standard's redirect limit, which Chromium applies to its own loads.
MAX_REDIRECTS = 20
# Nothing the browser asks for may reach the network except through the route handler.
_LAUNCH_ARGS = ["--host-resolver-rules=MAP * ~NOTFOUND", "--disable-background-networking"]
# Request headers the client sets itself (its connection, its decoding) or that would lie about
# the body we send.
_REQUEST_HEADERS_DROPPED = frozenset(
    {"host", "connection", "content-length", "accept-encoding", "transfer-encoding"}
)
# The body handed back is decoded and whole.
_RESPONSE_HEADERS_DROPPED = frozenset(
    {"content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"}
)
# Chromium's Accept for a navigation.
_DOCUMENT_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
# Chromium's console line for a request we aborted: our refusal, recorded in `blocked`, not the
# page's error.
_OUR_ABORT = "net::ERR_BLOCKED_BY_CLIENT"
# axe-core's browser bundle, as `npm ci` installs it in the repository (MPL-2.0; package.json).
AXE_SCRIPT = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
# The wait for axe-core beyond its own timer (AXE_RUN's), for a page whose script hogs the thread.
_AXE_GRACE_S = 2.0


def chromium_executable() -> str | None:
    """Debian's `chromium` (or a distribution's `chromium-browser`); never a downloaded build."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass(slots=True)
class _Fetched:
    """A response to hand to the browser: the last hop's."""

    url: str
    status: int
    headers: dict[str, str]
    body: bytes


@dataclass  # no slots: Playwright marks the handlers it is given with attributes of its own
class _PageLoad:
    """One page's render: its budget, its deadline, and what it did."""

    http: ports.HttpClient
    private_hosts: PrivateHosts
    budget: RenderBudget
    deadline: float  # time.monotonic()
    robots: RobotsGate | None = None
    blocked: list[BlockedRequest] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    bytes_loaded: int = 0
    prefetched: dict[str, _Fetched] = field(default_factory=dict)

    def remaining_s(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    async def fetch(
        self, url: str, kind: str, method: str, headers: dict[str, str], body: bytes | None
    ) -> _Fetched | BlockedRequest:
        """`url` fetched hop by hop, each hop judged first; the last response or the refusal."""
        hops = [url]
        while True:
            refusal = await self._refusal(url, kind)
            if refusal is not None:
                return BlockedRequest(url, refusal, kind)
            try:
                result = await self.http.fetch(
                    ports.FetchRequest(
                        url,
                        self.remaining_s(),
                        self.budget.max_bytes - self.bytes_loaded,
                        headers,
                        method,
                        body,
                    )
                )
            except NoTurnLeft:  # the audit's rate leaves this request no turn in the step
                return BlockedRequest(url, BlockReason.TIME_BUDGET, kind)
            if result.status == 0:
                return BlockedRequest(url, self._no_response_reason(), kind)
            self.bytes_loaded += len(result.body)
            if result.truncated:
                return BlockedRequest(url, BlockReason.BYTE_BUDGET, kind)
            target = _redirect_target(result)
            if target is None:
                return _Fetched(url, result.status, result.headers, result.body)
            if target in hops or len(hops) > MAX_REDIRECTS:
                return BlockedRequest(target, BlockReason.REDIRECT_LIMIT, kind)
            hops.append(target)
            url = target
            if result.status == 303 or (result.status in (301, 302) and method == "POST"):
                method, body = "GET", None  # the Fetch standard's method change

    async def _refusal(self, url: str, kind: str) -> BlockReason | None:
        refusal = request_refusal(url, kind, self.budget, self.private_hosts)
        refusal = refusal or self._budget_refusal()
        if refusal is None and self.robots is not None and not await self.robots.allows(url):
            refusal = BlockReason.ROBOTS_TXT
        return refusal

    def _budget_refusal(self) -> BlockReason | None:
        if self.remaining_s() <= 0:
            return BlockReason.TIME_BUDGET
        if self.bytes_loaded >= self.budget.max_bytes:
            return BlockReason.BYTE_BUDGET
        return None

    def _no_response_reason(self) -> BlockReason:
        return BlockReason.TIME_BUDGET if self.remaining_s() <= 0 else BlockReason.NO_RESPONSE

    async def route(self, route: Route) -> None:
        request = route.request
        outcome: _Fetched | BlockedRequest | None = None
        if request.is_navigation_request():
            outcome = self.prefetched.pop(request.url, None)
        if outcome is None:
            outcome = await self.fetch(
                request.url,
                request.resource_type,
                request.method,
                _forwarded(await request.all_headers()),
                request.post_data_buffer,
            )
        if isinstance(outcome, BlockedRequest):
            self.blocked.append(outcome)
            await route.abort("blockedbyclient")
            return
        await route.fulfill(
            status=outcome.status, headers=_handed_back(outcome.headers), body=outcome.body
        )

    async def websocket(self, socket: WebSocketRoute) -> None:
        # Never connected to a server: a page's load needs no socket, and none may leave.
        self.blocked.append(BlockedRequest(socket.url, BlockReason.NOT_HTTP, "websocket"))
        await socket.close()

    def console(self, message: Any) -> None:  # Any: playwright's ConsoleMessage
        if message.type == "error" and _OUR_ABORT not in message.text:
            self.console_errors.append(message.text)

    def page_error(self, error: Any) -> None:  # Any: playwright's Error
        self.exceptions.append(str(error))


def _redirect_target(result: ports.FetchResult) -> str | None:
    if not 300 <= result.status < 400:
        return None
    location = result.header("location")
    return None if location is None else normalise_url(location, result.url)


def _forwarded(headers: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k.lower() not in _REQUEST_HEADERS_DROPPED}


def _handed_back(headers: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k.lower() not in _RESPONSE_HEADERS_DROPPED}


class ChromiumRenderer:
    """`render.renderer.Renderer` over the system Chromium: one browser, a fresh context a page.

    `http` is the platform's client (its connections checked at connect time), paced at the
    audit's rate in an audit (workflow.render_step); `private_hosts` the audit's setting;
    `robots` the audit's robots.txt (None: none checked); `axe_script` axe-core's bundle, run
    where the budget asks for accessibility. `aclose()` ends the browser.
    """

    name = "chromium"

    def __init__(
        self,
        http: ports.HttpClient,
        private_hosts: PrivateHosts,
        executable: str | None = None,
        user_agent: str | None = None,
        robots: RobotsGate | None = None,
        axe_script: Path = AXE_SCRIPT,
    ) -> None:
        # The crawler's user agent by default, so robots.txt groups and server logs see one agent.
        self.user_agent = user_agent or CRAWL.user_agent
        self.http, self.private_hosts, self.robots = http, private_hosts, robots
        self.executable = executable or chromium_executable()
        self.axe_script = axe_script
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._starting = asyncio.Lock()

    @property
    def unavailable(self) -> str | None:
        if self.executable is None:
            return "no `chromium` on PATH (Debian: apt-get install chromium)"
        try:
            import playwright.async_api  # noqa: F401
        except ImportError:
            return "the `playwright` package is not installed (uv sync installs it)"
        return None

    async def render(self, url: str, budget: RenderBudget) -> RenderedPage:
        started = time.monotonic()
        deadline = started + budget.time_s
        load = _PageLoad(self.http, self.private_hosts, budget, deadline, self.robots)
        try:
            return await self._render(url, load, started)
        except Exception as exc:  # a browser crash or a Playwright error: one failed render
            log.warning("render %s failed: %s", url, exc)
            elapsed = (time.monotonic() - started) * 1000
            error = f"{type(exc).__name__}: {exc}"
            return RenderedPage.failed(url, self.name, RenderFailure.BROWSER_ERROR, error, elapsed)

    async def _render(self, url: str, load: _PageLoad, started: float) -> RenderedPage:
        headers = {"user-agent": self.user_agent, "accept": _DOCUMENT_ACCEPT}
        document = await load.fetch(url, "document", "GET", headers, None)
        if isinstance(document, BlockedRequest):
            return self._refused(url, document, load, started)
        load.prefetched[document.url] = document
        browser = await self._started_browser()
        context = await browser.new_context(service_workers="block", user_agent=self.user_agent)
        try:
            await context.route("**/*", load.route)
            await context.route_web_socket("**/*", load.websocket)
            page = await context.new_page()
            page.on("console", load.console)
            page.on("pageerror", load.page_error)
            html, final_url, trouble = await _load(page, document.url, load)
            accessibility = None
            if html and load.budget.accessibility:
                accessibility = await _axe(page, self.axe_script)
        finally:
            await context.close()
        return RenderedPage(
            url,
            self.name,
            final_url=final_url,
            status=document.status,
            html=html,
            console_errors=load.console_errors,
            exceptions=load.exceptions,
            blocked=load.blocked,
            elapsed_ms=(time.monotonic() - started) * 1000,
            bytes_loaded=load.bytes_loaded,
            failure=RenderFailure.TIMEOUT if not html else None,
            error=trouble,
            accessibility=accessibility,
        )

    def _refused(
        self, url: str, refusal: BlockedRequest, load: _PageLoad, started: float
    ) -> RenderedPage:
        failure = {
            BlockReason.PRIVATE_ADDRESS: RenderFailure.REFUSED_URL,
            BlockReason.NOT_HTTP: RenderFailure.REFUSED_URL,
            BlockReason.ROBOTS_TXT: RenderFailure.REFUSED_URL,
            BlockReason.TIME_BUDGET: RenderFailure.TIMEOUT,
            BlockReason.BYTE_BUDGET: RenderFailure.TOO_LARGE,
        }.get(refusal.reason, RenderFailure.NO_RESPONSE)
        error = f"{refusal.url}: {refusal.reason}"
        elapsed = (time.monotonic() - started) * 1000
        page = RenderedPage.failed(url, self.name, failure, error, elapsed)
        return dataclasses.replace(page, blocked=[refusal], bytes_loaded=load.bytes_loaded)

    async def _started_browser(self) -> Browser:
        async with self._starting:
            if self._browser is None:
                from playwright.async_api import async_playwright

                self._playwright = await async_playwright().start()
                self._browser = await self._playwright.chromium.launch(
                    executable_path=self.executable, args=_LAUNCH_ARGS
                )
            return self._browser

    async def aclose(self) -> None:
        if self._browser is not None:
            await self._browser.close()
            self._browser = None
        if self._playwright is not None:
            await self._playwright.stop()
            self._playwright = None


async def _load(page: Any, url: str, load: _PageLoad) -> tuple[str, str, str | None]:
    """Navigate, wait for the network to go quiet within the budget, read the DOM.

    Returns the serialised DOM ("" when the document never loaded in time), the URL the page is
    at, and any trouble worth saying (a network that never went quiet is not a failure: the DOM
    read then is what a visitor sees after the budget's time).
    """
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    try:
        await page.goto(url, wait_until="load", timeout=_ms(load))
    except PlaywrightTimeout:
        return "", page.url, f"the page did not load within {load.budget.time_s:g} s"
    trouble = None
    try:
        await page.wait_for_load_state("networkidle", timeout=_ms(load))
    except PlaywrightTimeout:
        trouble = f"the network was still busy after {load.budget.time_s:g} s"
    return await page.content(), page.url, trouble


async def _axe(page: Any, script: Path) -> AxeResult:
    """axe-core's results on the loaded page; a run that could not happen or finish says why."""
    try:
        source = _axe_source(script)
    except OSError:
        return AxeResult.failed(f"axe-core is not installed: no {script.name} (npm ci)")
    try:
        # axe.min.js is a UMD bundle: run as a function body it sets window.axe when the page
        # has no module loader of its own.
        await page.evaluate("() => {\n" + source + "\n}")
        raw = await asyncio.wait_for(
            page.evaluate(AXE_RUN, axe_run_arguments()), AXE_TIME_S + _AXE_GRACE_S
        )
        return from_axe(raw)
    except TimeoutError:
        return AxeResult.failed(f"axe-core did not answer within {AXE_TIME_S:g} s")
    except Exception as exc:  # the page navigated away, closed, or answered nonsense
        return AxeResult.failed(f"axe-core failed: {type(exc).__name__}: {exc}")


@cache
def _axe_source(script: Path) -> str:
    return script.read_text(encoding="utf-8")


def _ms(load: _PageLoad) -> float:
    # Playwright reads 0 as "no timeout": a spent budget still gets a token millisecond.
    return max(1.0, load.remaining_s() * 1000)
