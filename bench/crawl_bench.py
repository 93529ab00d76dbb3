"""Whole-site crawl speed and memory: the full siteaudit audit vs a plain Scrapy crawl.

Run: `uv run python bench/crawl_bench.py [--reps 3] [--latencies 0,50] [--profile]`.

The site is the PostgreSQL 15 HTML documentation (Debian `postgresql-doc-15`, 1,169 pages, installed
with apt-get if missing), served by bench/site_server.py on 127.0.0.1: threaded, keep-alive,
TCP_NODELAY, one fresh server per run, an injected latency per request (0 and 50 ms by default).
Each run is a subprocess, so its peak RSS is its own (`os.wait4` rusage):
* audit: the full siteaudit audit through the local platform (discovery, crawl chunks, finalize),
  max_pages 2000 (the whole site); and once per repetition a 100-page audit for its peak RSS;
* scrapy: a CrawlSpider following every same-site link, Scrapy's default concurrency, no
  processing, from a throwaway venv in bench/.out/scrapy-venv (never a project dependency).
Pages/s = distinct HTML 200s the server answered during the run / the crawl's wall time (measured in
the child from the crawl's start to its end: the audit from POST /api/audits until its workflow
finished, Scrapy around `CrawlerProcess.start()`; interpreter start-up and imports excluded).
The two crawlers alternate within each repetition (the order flips every repetition) and medians are
reported, since identical runs here vary by up to 35% (bench/README.md, "Fair measurement").

`--profile` instead runs one full audit at the highest latency under cProfile and prints where the
time goes (stats saved to bench/.out/audit.prof).

Last line: `audit_pps_50ms=A scrapy_pps_50ms=B ratio=A/B peak_mb_100=C peak_mb_all=D`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from site_server import SiteServer  # bench/ is the script's folder, so it is on sys.path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / ".out"
DOCS = Path("/usr/share/doc/postgresql-doc-15/html")
SCRAPY_VENV = OUT / "scrapy-venv"
START_PATH = "/index.html"  # not "/": the same page under two paths would count twice
FULL_SITE_PAGES = 2000
SMALL_AUDIT_PAGES = 100
CHILD_TIMEOUT_S = 1200


# -- setup --------------------------------------------------------------------------------------


def ensure_docs() -> None:
    if (DOCS / "index.html").is_file():
        return
    print("installing postgresql-doc-15 (apt-get) ...", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "postgresql-doc-15"], check=True, env=env)


def scrapy_python() -> Path:
    """The throwaway venv's interpreter, with Scrapy installed into it on first use."""
    python = SCRAPY_VENV / "bin" / "python"
    if (
        python.exists()
        and subprocess.run(
            [python, "-c", "import scrapy"], capture_output=True, check=False
        ).returncode
        == 0
    ):
        return python
    uv = shutil.which("uv")
    if uv is None:
        sys.exit("uv is needed to make the Scrapy venv (python3 -m pip install uv)")
    print(f"installing Scrapy into {SCRAPY_VENV} ...", flush=True)
    subprocess.run([uv, "venv", "-q", "--python", "3.13", str(SCRAPY_VENV)], check=True)
    subprocess.run([uv, "pip", "install", "-q", "--python", str(python), "scrapy"], check=True)
    return python


# -- the children -------------------------------------------------------------------------------


def audit_child(url: str, max_pages: int, state_dir: str, profile: str | None) -> dict[str, object]:
    import asyncio

    sys.path.insert(0, str(ROOT / "src"))
    from local_platform.runtime import LocalPlatform

    async def audit() -> dict[str, object]:
        platform = LocalPlatform(Path(state_dir), var_overrides={"ALLOW_PRIVATE_HOSTS": "loopback"})
        try:
            await platform.local_key()  # the API key requests carry: made before the clock starts
            start = time.perf_counter()
            status, body = await platform.request(
                "POST", "/api/audits", {"url": url, "max_pages": max_pages}
            )
            if status != 201:
                raise RuntimeError(f"POST /api/audits answered {status}: {body}")
            audit_id = body["audit"]["id"]
            await platform.wait_for_workflow(audit_id)
            seconds = time.perf_counter() - start
            _, got = await platform.request("GET", f"/api/audits/{audit_id}")
            return {
                "seconds": seconds,
                "status": got["audit"]["status"],
                "pages_crawled": got["audit"]["pages_crawled"],
            }
        finally:
            await platform.close()

    if profile is None:
        return asyncio.run(audit())
    import cProfile

    profiler = cProfile.Profile()
    result = profiler.runcall(asyncio.run, audit())
    profiler.dump_stats(profile)
    return result


def scrapy_child(url: str) -> dict[str, object]:
    from scrapy.crawler import CrawlerProcess
    from scrapy.linkextractors import LinkExtractor
    from scrapy.spiders import CrawlSpider, Rule

    class SiteSpider(CrawlSpider):
        name = "site"
        allowed_domains = ("127.0.0.1",)
        start_urls = (url,)
        rules = (Rule(LinkExtractor(), follow=True),)  # follow everything, do nothing else

    process = CrawlerProcess(settings={"LOG_LEVEL": "WARNING", "TELNETCONSOLE_ENABLED": False})
    crawler = process.create_crawler(SiteSpider)
    process.crawl(crawler)
    start = time.perf_counter()
    process.start()
    seconds = time.perf_counter() - start
    stats = crawler.stats.get_stats() if crawler.stats else {}
    return {
        "seconds": seconds,
        "status": str(stats.get("finish_reason")),
        "pages_crawled": stats.get("response_received_count"),
    }


def child_main(argv: list[str]) -> None:
    args = argparse.ArgumentParser()
    args.add_argument("--child", choices=("audit", "scrapy"), required=True)
    args.add_argument("--url", required=True)
    args.add_argument("--max-pages", type=int, default=FULL_SITE_PAGES)
    args.add_argument("--state-dir")
    args.add_argument("--profile")
    opts = args.parse_args(argv)
    if opts.child == "audit":
        result = audit_child(opts.url, opts.max_pages, opts.state_dir, opts.profile)
    else:
        result = scrapy_child(opts.url)
    print("RESULT " + json.dumps(result), flush=True)


# -- the parent ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    kind: str  # "audit", "audit100" or "scrapy"
    latency_ms: int
    seconds: float
    html_200s: int
    requests: int
    peak_mb: float
    cpu_s: float  # the child's user + system CPU time: robust to a busy machine, unlike pages/s
    detail: str

    @property
    def pps(self) -> float:
        return self.html_200s / self.seconds

    @property
    def cpu_ms_per_page(self) -> float:
        return 1000 * self.cpu_s / max(1, self.html_200s)


def run_child(kind: str, latency_ms: int, scrapy: Path, *, profile: str | None = None) -> Run:
    """One fresh server, one child process; the child's own peak RSS from wait4."""
    with (
        SiteServer(DOCS, latency_s=latency_ms / 1000) as site,
        tempfile.TemporaryDirectory(dir=OUT) as tmp,
    ):
        url = site.url(START_PATH)
        if kind == "scrapy":
            command = [str(scrapy), __file__, "--child", "scrapy", "--url", url]
        else:
            pages = SMALL_AUDIT_PAGES if kind == "audit100" else FULL_SITE_PAGES
            command = [
                sys.executable,
                __file__,
                "--child",
                "audit",
                "--url",
                url,
                "--max-pages",
                str(pages),
                "--state-dir",
                tmp,
            ]
            if profile:
                command += ["--profile", profile]
        log = OUT / f"{kind}-{latency_ms}ms.log"
        with open(log, "w") as stderr:
            child = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=stderr, text=True, cwd=ROOT
            )
            killer = threading.Timer(CHILD_TIMEOUT_S, child.kill)
            killer.start()
            assert child.stdout is not None
            output = child.stdout.read()
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            killer.cancel()
        html_200s, requests = site.distinct_html_200s(), site.requests()
    lines = [line for line in output.splitlines() if line.startswith("RESULT ")]
    if child.returncode != 0 or not lines:
        sys.exit(f"{kind} child failed (exit {child.returncode}); see {log}")
    result = json.loads(lines[-1].removeprefix("RESULT "))
    detail = f"status={result['status']} pages={result['pages_crawled']}"
    cpu_s = usage.ru_utime + usage.ru_stime
    return Run(
        kind,
        latency_ms,
        float(result["seconds"]),
        html_200s,
        requests,
        usage.ru_maxrss / 1024,
        cpu_s,
        detail,
    )


def show(run: Run) -> None:
    print(
        f"  {run.kind:8} {run.latency_ms:3d} ms: {run.html_200s:5d} HTML 200s "
        f"({run.requests} requests) in {run.seconds:6.2f} s = {run.pps:6.1f} pages/s, "
        f"CPU {run.cpu_ms_per_page:5.1f} ms/page, peak {run.peak_mb:6.1f} MB  [{run.detail}]",
        flush=True,
    )


def median(runs: list[Run], kind: str, latency_ms: int, value: str) -> float:
    picked = [getattr(r, value) for r in runs if r.kind == kind and r.latency_ms == latency_ms]
    return statistics.median(picked) if picked else float("nan")


# Where an audit's time goes: (label, file suffix, function); inclusive seconds under cProfile.
HOT_SPOTS = (
    ("page body, streamed (PageStream.feed)", "crawl/page_stream.py", "feed"),
    ("  a page's links (add_links)", "crawl/page_links.py", "add_links"),
    ("page pipeline (assemble)", "crawl/page_pipeline.py", "assemble"),
    ("  page row (page_record)", "crawl/page_pipeline.py", "page_record"),
    ("  URL parsing, all callers (split_url)", "urls/normalise.py", "split_url"),
    ("    host parsing (_host_and_port)", "urls/parser.py", "_host_and_port"),
    ("outbound fetch (entry fetch)", "src/entry.py", "fetch"),
    ("  httpcore pool", "httpcore/_async/connection_pool.py", "handle_async_request"),
    (
        "    pool assignment",
        "httpcore/_async/connection_pool.py",
        "_assign_requests_to_connections",
    ),
    ("    failed `import sniffio`", "httpcore/_synchronization.py", "current_async_library"),
    ("persisting sub-batches (persist_batch)", "crawl/chunk.py", "persist_batch"),
    ("  D1 page and issue rows", "auditdb/repository.py", "write_crawled_pages"),
    ("  scratchpad record_batch", "durable/scratchpad.py", "record_batch"),
    ("finalize", "workflow/finalize.py", "finalize_audit"),
)


def profile_audit(latency_ms: int, scrapy: Path) -> None:
    import pstats

    target = OUT / "audit.prof"
    run = run_child("audit", latency_ms, scrapy, profile=str(target))
    show(run)
    stats = pstats.Stats(str(target))
    stats.sort_stats("tottime").print_stats(25)
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in raw.values())  # all own time = the profiled CPU
    print(f"hot spots (inclusive, of {total:.1f} s profiled; cProfile inflates Python code):")
    for name, file, function in HOT_SPOTS:
        seconds = sum(v[3] for k, v in raw.items() if k[0].endswith(file) and k[2] == function)
        print(f"  {name:42} {seconds:6.2f} s {100 * seconds / total:5.1f}%")


def report(runs: list[Run], latencies: list[int]) -> None:
    print("medians:")
    for latency in latencies:
        audit, scrapy = (
            median(runs, "audit", latency, "pps"),
            median(runs, "scrapy", latency, "pps"),
        )
        print(
            f"  {latency:3d} ms: audit {audit:6.1f} pages/s, scrapy {scrapy:6.1f} pages/s, "
            f"ratio {audit / scrapy:.2f}; peak RSS audit "
            f"{median(runs, 'audit', latency, 'peak_mb'):.1f} MB, scrapy "
            f"{median(runs, 'scrapy', latency, 'peak_mb'):.1f} MB; CPU per page audit "
            f"{median(runs, 'audit', latency, 'cpu_ms_per_page'):.1f} ms, scrapy "
            f"{median(runs, 'scrapy', latency, 'cpu_ms_per_page'):.1f} ms"
        )
    top = max(latencies)
    audit, scrapy = median(runs, "audit", top, "pps"), median(runs, "scrapy", top, "pps")
    peak_100 = median(runs, "audit100", top, "peak_mb")
    peak_all = median(runs, "audit", top, "peak_mb")
    print(
        f"  audit peak RSS at {top} ms: {SMALL_AUDIT_PAGES} pages {peak_100:.1f} MB, "
        f"whole site {peak_all:.1f} MB ({peak_all / peak_100:.2f}x; target <= 1.3x); "
        f"pages/s ratio target >= 1.0"
    )
    print(
        f"audit_pps_{top}ms={audit:.1f} scrapy_pps_{top}ms={scrapy:.1f} "
        f"ratio={audit / scrapy:.2f} peak_mb_100={peak_100:.1f} peak_mb_all={peak_all:.1f}"
    )


def main() -> None:
    if "--child" in sys.argv:
        child_main(sys.argv[1:])
        return
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--reps", type=int, default=3)
    args.add_argument("--latencies", default="0,50", help="injected ms per request, e.g. 0,50")
    args.add_argument("--profile", action="store_true", help="profile one full audit instead")
    opts = args.parse_args()
    latencies = [int(x) for x in opts.latencies.split(",")]
    OUT.mkdir(parents=True, exist_ok=True)
    ensure_docs()
    scrapy = scrapy_python()
    pages = len(list(DOCS.glob("*.html")))
    print(
        f"site: {DOCS} ({pages} HTML files); {os.cpu_count()} CPUs; Python {sys.version.split()[0]}"
    )
    if opts.profile:
        profile_audit(max(latencies), scrapy)
        return
    runs: list[Run] = []
    for latency in latencies:
        print(f"latency {latency} ms:")
        for rep in range(opts.reps):
            order = ["audit", "scrapy"] if rep % 2 == 0 else ["scrapy", "audit"]
            if latency == max(latencies):
                order.append("audit100")  # its peak RSS, beside the whole site's
            for kind in order:
                runs.append(run_child(kind, latency, scrapy))
                show(runs[-1])
    report(runs, latencies)


if __name__ == "__main__":
    main()
