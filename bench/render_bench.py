"""The local renderer's speed and memory: badseo's client-rendered site rendered page after page.

Run: `uv run python bench/render_bench.py [--passes N]`. Needs Debian's `chromium` (apt-get
install chromium). The site (tests/badseo/client_rendered.py, its seven routes and the soft-404
route) is served on 127.0.0.1; each pass renders every path once with the local renderer
(local_platform.chromium_renderer: one browser, a fresh context a page, every request fetched
through the platform's client), one page at a time, then fetches the same paths raw through the
same client for comparison. Figures:

- rendered pages/s and the median wall time of a render (the first pass, which starts the browser,
  is reported apart and left out of both);
- browser memory: the summed RSS of the Chromium processes under this one (`/proc`), sampled after
  each render; its peak, and its growth per page after the first pass (a leak shows here);
- raw pages/s over the same client, and how many raw fetches one render costs in time.

The audit-level comparison the issue asks for (raw-only against `--render auto` on a mixed site)
needs the render steps in the workflow (issue 30 step 5), which are not built yet. The last line
is machine-readable.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for entry in (ROOT / "src", ROOT):
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))

from common import ports
from local_platform import workers_sdk
from local_platform.chromium_renderer import ChromiumRenderer, chromium_executable
from local_platform.fetch import aclose_shared_client
from render.records import RenderBudget
from tests.badseo.client_rendered import ROUTES, SOFT_404, serve_client_rendered
from urls.private_hosts import PrivateHosts

PATHS = [route.path for route in ROUTES] + [SOFT_404]


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
    parser.add_argument("--passes", type=int, default=4, help="passes over the site (>= 2)")
    args = parser.parse_args()
    if chromium_executable() is None:
        sys.exit("render_bench needs Chromium: apt-get install chromium")
    asyncio.run(run(max(2, args.passes)))


if __name__ == "__main__":
    main()
