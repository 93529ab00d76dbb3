"""Rendering's cost: whole audits with and without it, and the local renderer page after page.

Run: `uv run python bench/render_bench.py [--pages N] [--shells K]` (audits, the default) or
`uv run python bench/render_bench.py --renderer [--passes N]`. Needs Debian's `chromium`
(apt-get install chromium).

Audits (the default). A mixed site on 127.0.0.1: bench/synthetic_site.py's server-rendered site
of N pages (200 by default), whose start page also links the first of K app-shell routes
(`/shell/<k>.html`, 10 by default). Each shell is an empty `<div id=app>` and a module script
that builds the route's title, text and links in the browser; shell k links shell k+1 only in
its rendered DOM, so only rendering finds the rest. Two whole audits through the local platform's
API and workflow (one process, a fresh state folder each, the local renderer installed for
both): `--render never` (raw HTML only) and `--render auto` (the app shells, and auto's sample of
the other pages). Each prints pages crawled, pages/s, pages rendered and wall time; the last line
is `key=value` pairs for both.

Renderer (`--renderer`). The site (tests/badseo/client_rendered.py, its seven routes and the soft-404
route) is served on 127.0.0.1; each pass renders every path once with the local renderer
(local_platform.chromium_renderer: one browser, a fresh context a page, every request fetched
through the platform's client), one page at a time, then fetches the same paths raw through the
same client for comparison. Figures:

- rendered pages/s and the median wall time of a render (the first pass, which starts the browser,
  is reported apart and left out of both);
- browser memory: the summed RSS of the Chromium processes under this one (`/proc`), sampled after
  each render; its peak, and its growth per page after the first pass (a leak shows here);
- raw pages/s over the same client, and how many raw fetches one render costs in time.

The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for entry in (ROOT / "src", ROOT):
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))

from site_server import Page, SiteServer  # bench/ is the script's folder, so it is on sys.path
from synthetic_site import SyntheticSite

from common import ports
from local_platform import workers_sdk
from local_platform.chromium_renderer import ChromiumRenderer, chromium_executable
from local_platform.fetch import aclose_shared_client
from render.records import RenderBudget
from tests.badseo.client_rendered import ROUTES, SOFT_404, serve_client_rendered
from urls.private_hosts import PrivateHosts

PATHS = [route.path for route in ROUTES] + [SOFT_404]

# -- whole audits on a mixed site ----------------------------------------------------------------

SHELL_PATH = "/shell/{}.html"
# One app shell for every shell route: the router reads the route number from the path.
_SHELL = (
    b"<!doctype html><html lang=en><head><meta charset=utf-8><title>Loading</title>"
    b'<script type=module src="/shell.js"></script></head><body><div id=app></div></body></html>'
)
_SHELL_JS = """const k = parseInt(location.pathname.split("/")[2], 10);  // /shell/<k>.html
document.title = `App view ${k}`;
const app = document.getElementById("app");
const h1 = document.createElement("h1"); h1.textContent = `App view ${k}`; app.append(h1);
const p = document.createElement("p");
p.textContent = "A view of the shop that only a browser builds: " + "words ".repeat(60);
app.append(p);
for (const href of (%(links)s)(k)) {
  const a = document.createElement("a"); a.href = href; a.textContent = href; app.append(a);
}
"""


@dataclass(frozen=True, slots=True)
class MixedSite:
    """`pages` server-rendered pages (SyntheticSite) and `shells` app-shell routes."""

    pages: int
    shells: int

    def page(self, path: str) -> Page | None:
        if path == "/shell.js":
            return Page(self._script(), "text/javascript")
        if path.startswith("/shell/"):
            number = path.removeprefix("/shell/").removesuffix(".html")
            known = number.isdigit() and int(number) < self.shells
            return Page(_SHELL) if known else None
        page = SyntheticSite(self.pages).page(path)
        if path != "/" or page is None:
            return page
        link = f'<a href="{SHELL_PATH.format(0)}">the app</a></body>'.encode()
        return Page(page.body.replace(b"</body>", link, 1))

    def _script(self) -> bytes:
        # Shell k links the next shell (while there is one), the home page and a server page.
        links = (
            f"(k) => [...(k + 1 < {self.shells} ? [`/shell/${{k + 1}}.html`] : []), "
            '"/", `/p/${k + 1}.html`]'
        )
        return (_SHELL_JS % {"links": links}).encode()


@dataclass(frozen=True, slots=True)
class AuditRun:
    render: str
    seconds: float
    status: str
    pages: int
    rendered: int

    @property
    def pages_per_s(self) -> float:
        return self.pages / self.seconds


async def audit(url: str, render: str, max_pages: int) -> AuditRun:
    """One whole audit through the local platform's API and workflow, timed from the POST."""
    from cli.report import full_report
    from local_platform.runtime import LocalPlatform

    with tempfile.TemporaryDirectory(prefix="render-bench-") as state:
        platform = LocalPlatform(
            Path(state), var_overrides={"ALLOW_PRIVATE_HOSTS": "loopback"}, local_renderer=True
        )
        try:
            await platform.local_key()  # made before the clock starts
            import api.schemas  # noqa: F401  (imported on the first POST: outside the clock)

            started = time.perf_counter()
            body = {"url": url, "max_pages": max_pages, "render": render}
            status, answer = await platform.request("POST", "/api/audits", body)
            if status != 201:
                raise RuntimeError(f"POST /api/audits answered {status}: {answer}")
            audit_id = answer["audit"]["id"]
            await platform.wait_for_workflow(audit_id, timeout_s=1800)
            seconds = time.perf_counter() - started
            report = await full_report(platform, audit_id)
        finally:
            await platform.close()
    record = report["audit"]
    counts = report["rendering"]["counts"]
    return AuditRun(render, seconds, record["status"], record["pages_crawled"], counts["rendered"])


async def run_audits(pages: int, shells: int) -> None:
    site = MixedSite(pages, shells)
    runs = []
    with SiteServer(generated=site.page) as server:
        for render in ("never", "auto"):
            run = await audit(server.url("/"), render, pages + shells + 50)
            print(
                f"--render {render}: {run.status}, {run.pages} pages in {run.seconds:.1f} s "
                f"({run.pages_per_s:.2f} pages/s), {run.rendered} rendered"
            )
            runs.append(run)
    never, auto = runs
    print(
        f"site_pages={pages} shells={shells} "
        f"never_pages={never.pages} never_pps={never.pages_per_s:.2f} "
        f"never_rendered={never.rendered} never_s={never.seconds:.1f} "
        f"auto_pages={auto.pages} auto_pps={auto.pages_per_s:.2f} "
        f"auto_rendered={auto.rendered} auto_s={auto.seconds:.1f} "
        f"slowdown={auto.seconds / never.seconds:.2f}"
    )


# -- the renderer, page after page ---------------------------------------------------------------


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found  # exited meanwhile
    for task in tasks:
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue  # a thread that ended meanwhile
        for child in map(int, children):
            found += [child, *_children(child)]
    return found


def browser_rss_mb() -> float:
    """The summed RSS of every process below this one (Playwright's driver and Chromium's)."""
    total_kb = 0
    for pid in _children(os.getpid()):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue  # exited meanwhile
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total_kb += int(line.split()[1])
    return total_kb / 1024


async def run(passes: int) -> None:
    workers_sdk.install()
    import entry  # noqa: F401  (configures the shell's HTTP client, as the local platform does)

    http = ports.http_client()
    with serve_client_rendered() as site:
        renderer = ChromiumRenderer(http, PrivateHosts.LOOPBACK)
        walls: list[list[float]] = []
        rss: list[float] = []
        try:
            for _ in range(passes):
                times = []
                for path in PATHS:
                    started = time.perf_counter()
                    page = await renderer.render(site.url(path), RenderBudget())
                    times.append(time.perf_counter() - started)
                    assert page.ok, (path, page.error)
                    rss.append(browser_rss_mb())
                walls.append(times)
            raw_started = time.perf_counter()
            for _ in range(passes):
                for path in PATHS:
                    request = ports.FetchRequest(site.url(path), 10.0, 1 << 20)
                    assert (await http.fetch(request)).status == 200
            raw_s = time.perf_counter() - raw_started
        finally:
            await renderer.aclose()
            await aclose_shared_client()

    first, steady = walls[0], [t for times in walls[1:] for t in times]
    pages_per_s = len(steady) / sum(steady)
    median_ms = statistics.median(steady) * 1000
    growth = (rss[-1] - rss[len(PATHS) - 1]) / max(1, len(steady))
    raw_pps = passes * len(PATHS) / raw_s
    print(f"first pass: {sum(first):.2f} s for {len(first)} pages (browser start included)")
    print(f"rendered: {pages_per_s:.2f} pages/s, median {median_ms:.0f} ms a page")
    print(f"browser RSS: peak {max(rss):.0f} MB, {growth:+.2f} MB a page after the first pass")
    print(f"raw: {raw_pps:.0f} pages/s; one render costs the time of {raw_pps / pages_per_s:.0f}")
    print(
        f"render_pps={pages_per_s:.2f} render_ms_per_page={median_ms:.0f} "
        f"browser_peak_mb={max(rss):.0f} browser_mb_per_page={growth:.2f} "
        f"raw_pps={raw_pps:.0f} ratio={raw_pps / pages_per_s:.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--renderer", action="store_true", help="the renderer alone, not whole audits"
    )
    parser.add_argument("--passes", type=int, default=4, help="--renderer: passes (>= 2)")
    parser.add_argument("--pages", type=int, default=200, help="server-rendered pages")
    parser.add_argument("--shells", type=int, default=10, help="app-shell routes")
    args = parser.parse_args()
    if chromium_executable() is None:
        sys.exit("render_bench needs Chromium: apt-get install chromium")
    if args.renderer:
        asyncio.run(run(max(2, args.passes)))
    else:
        asyncio.run(run_audits(args.pages, max(1, args.shells)))


if __name__ == "__main__":
    main()
