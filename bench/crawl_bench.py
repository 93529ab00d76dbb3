"""Whole-site crawl speed and memory: the full siteaudit audit vs a plain Scrapy crawl, on three sites.

Run: `uv run python bench/crawl_bench.py [--reps 3] [--latencies 0,50] [--sites pg,large,links]
[--profile SITE]`.

The sites, each served by bench/site_server.py on 127.0.0.1 (threaded, keep-alive, TCP_NODELAY, one
fresh server per run, an injected latency per request: 0 ms (no latency: the crawl is CPU-bound)
and 50 ms by default):
* `pg`: the PostgreSQL 15 HTML documentation (Debian `postgresql-doc-15`, 1,169 pages of ~14 KB,
  installed with apt-get if missing);
* `large`: bench/synthetic_site.py's `IndexSite`, `--large-pages` index pages of `--large-kb` KB
  (1-3 MB by default) with thousands of links each, like documentation indexes;
* `links`: its `ApiDocsSite`, `--link-pages` pages of 20-60 KB with 300-500 links each, like API
  documentation.
Each run is a subprocess (bench/child_process.py), so its peak RSS is its own (the child reports
its VmHWM, see `child_process.own_peak_mb`):
* audit: the full siteaudit audit through the local platform (discovery, crawl chunks, finalize),
  max_pages at least the site's size; and on `pg` once per repetition a 100-page audit for its
  peak RSS;
* scrapy: a CrawlSpider following every same-site link, no processing, 16 concurrent requests (16
  per domain), robots.txt ignored, no HTTP cache, from a throwaway venv in bench/.out/scrapy-venv
  (never a project dependency).
Pages/s = distinct HTML 200s the server answered during the run / the crawl's wall time (measured in
the child from the crawl's start to its end: the audit from POST /api/audits until its workflow
finished, Scrapy around `CrawlerProcess.start()`; interpreter start-up and imports excluded). Both
run from compiled bytecode (`compile_bytecode`), as after a user's first run.
CPU per page and per link = the child's user + system CPU time (`os.wait4`, its whole process,
start-up included) / the HTML 200s, and / the links the audit extracted: the sum of its pages'
`internal_link_count + external_link_count` (distinct `<a href>`s per page, the audit's own
counters, read from its D1 file). Scrapy's per-link figure divides by its pages times the
audit's links per page on the same site (the same pages carry the same links).
Within each repetition the sites take turns and, per site, the two crawlers alternate (the order
flips every repetition); medians are reported, since identical runs here vary by up to 35%
(bench/README.md, "Fair measurement").

`--profile SITE` instead runs one full audit of that site at the highest latency under cProfile and
prints where the time goes (stats saved to bench/.out/audit-SITE.prof).

Last line: `ratio_pg=.. paired_pg=.. ratio_large=.. ...` (audit pages/s / Scrapy pages/s at the
highest latency, of the medians, and the median of each repetition's ratio, for the sites run),
then each site's `audit_pps_SITE=.. scrapy_pps_SITE=..`,
`peak_mb_100=.. peak_mb_all=..` (the PostgreSQL audits' peak RSS), and per site and latency the
CPU figures `audit_cpu_ms_page_SITE_LATms=.. audit_cpu_us_link_SITE_LATms=..` and Scrapy's
`scrapy_cpu_ms_page_SITE_LATms=.. scrapy_cpu_us_link_SITE_LATms=..`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from child_process import own_peak_mb, run_measured  # bench/ is on sys.path (script folder)
from site_server import Page, SiteServer
from synthetic_site import ApiDocsSite, IndexSite

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / ".out"
DOCS = Path("/usr/share/doc/postgresql-doc-15/html")
SCRAPY_VENV = OUT / "scrapy-venv"
FULL_SITE_PAGES = 2000
SMALL_AUDIT_PAGES = 100
CHILD_TIMEOUT_S = 1200
# Scrapy as its users run it at full speed on one site (bench/README.md, "Fair measurement"): 16
# requests at once, all allowed on the one domain (its default is 8), robots.txt not fetched; the
# rest are its defaults, written out where they decide equal conditions (no HTTP cache, bodies up
# to 1 GiB, no auto-throttle, no depth limit).
SCRAPY_SETTINGS: dict[str, object] = {
    "LOG_LEVEL": "WARNING",
    "TELNETCONSOLE_ENABLED": False,
    "CONCURRENT_REQUESTS": 16,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
    "ROBOTSTXT_OBEY": False,
    "HTTPCACHE_ENABLED": False,
    "DOWNLOAD_MAXSIZE": 1024 * 1024 * 1024,
    "AUTOTHROTTLE_ENABLED": False,
    "DEPTH_LIMIT": 0,
}


# -- the sites ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BenchSite:
    name: str
    description: str
    start_path: str
    max_pages: int
    root: Path | None = None  # a static folder, or
    generated: Callable[[str], Page | None] | None = None  # pages built on request

    def serve(self, latency_ms: int) -> SiteServer:
        return SiteServer(self.root, latency_s=latency_ms / 1000, generated=self.generated)


# The `apidocs` site's module sizes: 500-1,640 links a page (bench/synthetic_site.py).
API_MODULES = (40, 900)


def bench_sites(
    large_pages: int, large_kb: tuple[int, int], link_pages: int, api_pages: int = 10_000
) -> list[BenchSite]:
    index, api = IndexSite(large_pages, *large_kb), ApiDocsSite(link_pages)
    big_api = ApiDocsSite(api_pages, *API_MODULES)
    return [
        # "/index.html", not "/": the same page under two paths would count twice
        BenchSite("pg", f"PostgreSQL 15 docs ({DOCS})", "/index.html", FULL_SITE_PAGES, root=DOCS),
        BenchSite(
            "large",
            f"{large_pages} index pages of {large_kb[0]}-{large_kb[1]} KB (IndexSite)",
            "/",
            max(FULL_SITE_PAGES, large_pages),
            generated=index.page,
        ),
        BenchSite(
            "links",
            f"{link_pages} API pages of 20-60 KB, 300-500 links each (ApiDocsSite)",
            "/",
            max(FULL_SITE_PAGES, link_pages),
            generated=api.page,
        ),
        BenchSite(
            "apidocs",
            f"{api_pages} API pages of 36-101 KB, 500-1,640 links each (ApiDocsSite, modules "
            f"of {API_MODULES[0]}-{API_MODULES[1]} items)",
            "/",
            max(FULL_SITE_PAGES, api_pages),
            generated=big_api.page,
        ),
    ]


# -- setup --------------------------------------------------------------------------------------


def ensure_docs() -> None:
    if (DOCS / "index.html").is_file():
        return
    print("installing postgresql-doc-15 (apt-get) ...", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "postgresql-doc-15"], check=True, env=env)


def compile_bytecode(scrapy: Path) -> None:
    """Both crawlers start from compiled bytecode, as they do on a user's machine after their first
    run. Python writes `__pycache__` on first import unless PYTHONDONTWRITEBYTECODE is set (as it
    is on some CI and sandbox machines); then every run would compile each module it imports from
    source, the audit's later phases inside the clock. compileall writes the caches either way."""
    for python, extra in ((Path(sys.executable), [str(ROOT / "src")]), (scrapy, [])):
        purelib = subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        command = [str(python), "-m", "compileall", "-q", "-j", "0", *extra, purelib]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


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


def audit_links(state_dir: Path) -> int:
    """The links an audit of this state folder extracted: its pages' distinct `<a href>`s (the
    audit's own counters), from the local D1 file the platform names after wrangler.toml."""
    config = tomllib.loads((ROOT / "wrangler.toml").read_text())
    name = config["d1_databases"][0]["database_name"]
    with sqlite3.connect(state_dir / "d1" / f"{name}.sqlite") as db:
        (links,) = db.execute(
            "SELECT COALESCE(SUM(internal_link_count + external_link_count), 0) FROM audit_pages"
        ).fetchone()
    return int(links)


def audit_child(url: str, max_pages: int, state_dir: str, profile: str | None) -> dict[str, object]:
    import asyncio

    sys.path.insert(0, str(ROOT / "src"))
    from local_platform.runtime import LocalPlatform

    async def audit() -> dict[str, object]:
        # No local renderer: Scrapy does not render either (docs/rendering.md).
        platform = LocalPlatform(
            Path(state_dir),
            var_overrides={"ALLOW_PRIVATE_HOSTS": "loopback"},
            local_renderer=False,
        )
        try:
            await platform.local_key()  # the API key requests carry: made before the clock starts
            # Imports stay outside the clock for both crawlers; the POST route imports its pydantic
            # schemas on first use, so they are imported here.
            import api.schemas  # noqa: F401

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
        result = asyncio.run(audit())
    else:
        import cProfile

        profiler = cProfile.Profile()
        result = profiler.runcall(asyncio.run, audit())
        profiler.dump_stats(profile)
    return {**result, "links": audit_links(Path(state_dir))}


def scrapy_child(url: str) -> dict[str, object]:
    from scrapy.crawler import CrawlerProcess
    from scrapy.linkextractors import LinkExtractor
    from scrapy.spiders import CrawlSpider, Rule

    class SiteSpider(CrawlSpider):
        name = "site"
        allowed_domains = ("127.0.0.1",)
        start_urls = (url,)
        rules = (Rule(LinkExtractor(), follow=True),)  # follow everything, do nothing else

    process = CrawlerProcess(settings=SCRAPY_SETTINGS)
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
    result["peak_mb"] = own_peak_mb()
    print("RESULT " + json.dumps(result), flush=True)


# -- the parent ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    site: str
    kind: str  # "audit", "audit100" or "scrapy"
    latency_ms: int
    seconds: float
    html_200s: int
    requests: int
    peak_mb: float
    cpu_s: float  # the child's user + system CPU time: robust to a busy machine, unlike pages/s
    detail: str
    links: int | None = None  # the links the audit extracted; None for Scrapy (no such counter)

    @property
    def pps(self) -> float:
        return self.html_200s / self.seconds

    @property
    def cpu_ms_per_page(self) -> float:
        return 1000 * self.cpu_s / max(1, self.html_200s)

    def cpu_us_per_link(self, links_per_page: float) -> float:
        """CPU microseconds per link: the audit's own count, or (Scrapy) its pages times the
        audit's links per page on the same site."""
        links = self.links if self.links is not None else self.html_200s * links_per_page
        return 1e6 * self.cpu_s / max(1.0, links)


def run_child(
    site: BenchSite, kind: str, latency_ms: int, scrapy: Path, *, profile: str | None = None
) -> Run:
    """One fresh server, one child process; the child's own peak RSS and CPU time."""
    with site.serve(latency_ms) as server, tempfile.TemporaryDirectory(dir=OUT) as tmp:
        url = server.url(site.start_path)
        if kind == "scrapy":
            command = [str(scrapy), __file__, "--child", "scrapy", "--url", url]
        else:
            pages = SMALL_AUDIT_PAGES if kind == "audit100" else site.max_pages
            command = [sys.executable, __file__, "--child", "audit", "--url", url]
            command += ["--max-pages", str(pages), "--state-dir", tmp]
            if profile:
                command += ["--profile", profile]
        log = OUT / f"{site.name}-{kind}-{latency_ms}ms.log"
        child = run_measured(command, log, timeout_s=CHILD_TIMEOUT_S, cwd=ROOT, capture_stdout=True)
        html_200s, requests = server.distinct_html_200s(), server.requests()
    lines = [line for line in child.stdout.splitlines() if line.startswith("RESULT ")]
    if child.exit_status != 0 or not lines:
        sys.exit(f"{kind} child failed (exit {child.exit_status}); see {log}")
    result = json.loads(lines[-1].removeprefix("RESULT "))
    detail = f"status={result['status']} pages={result['pages_crawled']}"
    links = result.get("links")
    return Run(
        site.name,
        kind,
        latency_ms,
        float(result["seconds"]),
        html_200s,
        requests,
        float(result["peak_mb"]),
        child.cpu_s,
        detail,
        None if links is None else int(links),
    )


def show(run: Run) -> None:
    print(
        f"  {run.site:5} {run.kind:8} {run.latency_ms:3d} ms: {run.html_200s:5d} HTML 200s "
        f"({run.requests} requests) in {run.seconds:6.2f} s = {run.pps:6.1f} pages/s, "
        f"CPU {run.cpu_ms_per_page:5.1f} ms/page, peak {run.peak_mb:6.1f} MB  [{run.detail}"
        + ("]" if run.links is None else f" links={run.links}]"),
        flush=True,
    )


def median(runs: list[Run], site: str, kind: str, latency_ms: int, value: str) -> float:
    picked = [
        getattr(r, value)
        for r in runs
        if r.site == site and r.kind == kind and r.latency_ms == latency_ms
    ]
    return statistics.median(picked) if picked else float("nan")


# Where an audit's time goes: (label, file suffix, function); inclusive seconds under cProfile.
HOT_SPOTS = (
    ("outbound fetch (entry fetch)", "src/entry.py", "fetch"),
    ("  page body, streamed (PageStream.feed)", "crawl/page_stream.py", "feed"),
    ("    a page's links (add_links)", "crawl/page_links.py", "add_links"),
    ("    a page's other references (add_references)", "crawl/page_links.py", "add_references"),
    ("    URL policy (UrlPolicy.decide)", "crawl/url_policy.py", "decide"),
    ("  local HTTP client (ConnectionPool.request)", "local_platform/http_client.py", "request"),
    ("page pipeline (assemble)", "crawl/page_pipeline.py", "assemble"),
    ("  page row (page_record)", "crawl/page_pipeline.py", "page_record"),
    ("URL parsing, all callers (split_url)", "urls/normalise.py", "split_url"),
    ("  host parsing (_host_and_port)", "urls/parser.py", "_host_and_port"),
    ("persisting sub-batches (persist_batch)", "crawl/chunk.py", "persist_batch"),
    ("  local RPC crossing (rpc_crossing)", "local_platform/rpc.py", "rpc_crossing"),
    ("  records to JSON (wire.to_json)", "common/wire.py", "to_json"),
    ("  records from JSON (wire.from_json)", "common/wire.py", "from_json"),
    (
        "  scratchpad transactions (transactionSync)",
        "local_platform/do_transactions.py",
        "transactionSync",
    ),
    ("  D1 page and issue rows", "auditdb/repository.py", "write_crawled_pages"),
    ("  scratchpad record_batch", "durable/scratchpad.py", "_record_batch"),
    ("finalize", "workflow/finalize.py", "finalize_audit"),
)


def profile_audit(site: BenchSite, latency_ms: int, scrapy: Path) -> None:
    import pstats

    target = OUT / f"audit-{site.name}.prof"
    run = run_child(site, "audit", latency_ms, scrapy, profile=str(target))
    show(run)
    stats = pstats.Stats(str(target))
    stats.sort_stats("tottime").print_stats(30)
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in raw.values())  # all own time = the profiled CPU
    print(f"hot spots (inclusive, of {total:.1f} s profiled; cProfile inflates Python code):")
    for name, file, function in HOT_SPOTS:
        seconds = sum(v[3] for k, v in raw.items() if k[0].endswith(file) and k[2] == function)
        print(f"  {name:48} {seconds:6.2f} s {100 * seconds / total:5.1f}%")


# What issue 14 asks of each site at the highest latency: audit pages/s / Scrapy pages/s.
TARGETS = {"pg": 1.5, "large": 2.0, "links": 1.5}


def paired_ratios(runs: list[Run], site: str, latency_ms: int) -> list[float]:
    """Each repetition's audit pages/s over its Scrapy pages/s: the two ran one after the other,
    so the pair shares the machine's speed of the moment (which drifts over minutes here)."""

    def pps(kind: str) -> list[float]:
        return [r.pps for r in runs if (r.site, r.kind, r.latency_ms) == (site, kind, latency_ms)]

    return [a / s for a, s in zip(pps("audit"), pps("scrapy"), strict=False)]


def links_per_page(runs: list[Run], site: str, latency_ms: int) -> float:
    """The audit's links per HTML page on `site` (the same at every latency; median of runs)."""
    rates = [
        r.links / r.html_200s
        for r in runs
        if (r.site, r.latency_ms) == (site, latency_ms) and r.links and r.html_200s
    ]
    return statistics.median(rates) if rates else float("nan")


def cpu_figures(runs: list[Run], site: str, latency_ms: int) -> dict[str, float]:
    """Median CPU ms per page and µs per link of the audit and of Scrapy on `site`."""
    per_page = links_per_page(runs, site, latency_ms)
    figures: dict[str, float] = {}
    for kind in ("audit", "scrapy"):
        picked = [r for r in runs if (r.site, r.kind, r.latency_ms) == (site, kind, latency_ms)]
        if picked:
            page = statistics.median(r.cpu_ms_per_page for r in picked)
            link = statistics.median(r.cpu_us_per_link(per_page) for r in picked)
            figures[f"{kind}_cpu_ms_page"], figures[f"{kind}_cpu_us_link"] = page, link
    return figures


def cpu_line(runs: list[Run], sites: list[BenchSite], latencies: list[int]) -> list[str]:
    """`audit_cpu_ms_page_SITE_LATms=..` and the rest, for the last line; printed as a table."""
    print("CPU (child's own user + system, whole process; medians):")
    fields: list[str] = []
    for site in sites:
        for latency in latencies:
            figures = cpu_figures(runs, site.name, latency)
            print(
                f"  {site.name:5} {latency:3d} ms: "
                + ", ".join(f"{k} {v:.2f}" for k, v in figures.items())
                + f" ({links_per_page(runs, site.name, latency):.0f} links a page)"
            )
            fields += [f"{k}_{site.name}_{latency}ms={v:.2f}" for k, v in figures.items()]
    return fields


def report(runs: list[Run], sites: list[BenchSite], latencies: list[int]) -> None:
    print("medians:")
    for site in sites:
        for latency in latencies:
            audit = median(runs, site.name, "audit", latency, "pps")
            scrapy = median(runs, site.name, "scrapy", latency, "pps")
            print(
                f"  {site.name:5} {latency:3d} ms: audit {audit:6.1f} pages/s, scrapy "
                f"{scrapy:6.1f} pages/s, ratio {audit / scrapy:.2f}; peak RSS audit "
                f"{median(runs, site.name, 'audit', latency, 'peak_mb'):.1f} MB, scrapy "
                f"{median(runs, site.name, 'scrapy', latency, 'peak_mb'):.1f} MB; CPU per page "
                f"audit {median(runs, site.name, 'audit', latency, 'cpu_ms_per_page'):.1f} ms, "
                f"scrapy {median(runs, site.name, 'scrapy', latency, 'cpu_ms_per_page'):.1f} ms"
            )
    top = max(latencies)
    ratios: list[str] = []
    rates: list[str] = []
    for site in sites:
        audit = median(runs, site.name, "audit", top, "pps")
        scrapy = median(runs, site.name, "scrapy", top, "pps")
        ratio = audit / scrapy
        print(
            f"  {site.name:5} at {top} ms: ratio {ratio:.2f} (target >= {TARGETS.get(site.name)}): "
            + ("met" if ratio >= TARGETS.get(site.name, 0) else "NOT met")
        )
        paired = paired_ratios(runs, site.name, top)
        print(
            f"  {site.name:5} per repetition: "
            + " ".join(f"{r:.2f}" for r in paired)
            + f" (their median {statistics.median(paired):.2f}; the target reads the ratio above)"
        )
        ratios.append(f"ratio_{site.name}={ratio:.2f}")
        ratios.append(f"paired_{site.name}={statistics.median(paired):.2f}")
        rates += [f"audit_pps_{site.name}={audit:.1f}", f"scrapy_pps_{site.name}={scrapy:.1f}"]
    peaks: list[str] = []
    if any(site.name == "pg" for site in sites):
        peak_100 = median(runs, "pg", "audit100", top, "peak_mb")
        peak_all = median(runs, "pg", "audit", top, "peak_mb")
        print(
            f"  pg audit peak RSS at {top} ms: {SMALL_AUDIT_PAGES} pages {peak_100:.1f} MB, "
            f"whole site {peak_all:.1f} MB ({peak_all / peak_100:.2f}x; target <= 1.3x)"
        )
        peaks = [f"peak_mb_100={peak_100:.1f}", f"peak_mb_all={peak_all:.1f}"]
    cpu = cpu_line(runs, sites, latencies)
    print(" ".join(ratios + rates + peaks + cpu))


def parse_kb(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def prepared_sites(opts: argparse.Namespace, wanted: list[str]) -> tuple[list[BenchSite], Path]:
    """The `wanted` sites at the sizes `opts` gives (`--large-pages`, `--large-kb`,
    `--link-pages`, `--api-pages`), with what they need installed (the PostgreSQL manual, the
    Scrapy venv and its bytecode), and the machine and sites printed; and Scrapy's Python."""
    every = bench_sites(opts.large_pages, parse_kb(opts.large_kb), opts.link_pages, opts.api_pages)
    sites = [site for site in every if site.name in wanted]
    if len(sites) != len(wanted):
        sys.exit(f"unknown site in {wanted}: the sites are {[s.name for s in every]}")
    OUT.mkdir(parents=True, exist_ok=True)
    if any(site.name == "pg" for site in sites):
        ensure_docs()
    scrapy = scrapy_python()
    compile_bytecode(scrapy)
    print(f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}; load {os.getloadavg()}")
    for site in sites:
        print(f"site {site.name}: {site.description}")
    return sites, scrapy


def main() -> None:
    if "--child" in sys.argv:
        child_main(sys.argv[1:])
        return
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--reps", type=int, default=3)
    args.add_argument("--latencies", default="0,50", help="injected ms per request, e.g. 0,50")
    args.add_argument("--sites", default="pg,large,links", help="of pg, large, links, apidocs")
    args.add_argument("--large-pages", type=int, default=300)
    args.add_argument("--large-kb", default="1024-3072", help="the large pages' sizes, KB")
    args.add_argument("--link-pages", type=int, default=2000)
    args.add_argument("--api-pages", type=int, default=10_000, help="the apidocs site's pages")
    args.add_argument("--profile", metavar="SITE", help="profile one full audit of SITE instead")
    opts = args.parse_args()
    latencies = [int(x) for x in opts.latencies.split(",")]
    sites, scrapy = prepared_sites(opts, [opts.profile] if opts.profile else opts.sites.split(","))
    if opts.profile:
        profile_audit(sites[0], max(latencies), scrapy)
        return
    runs: list[Run] = []
    for latency in latencies:
        print(f"latency {latency} ms:")
        for rep in range(opts.reps):
            for site in sites:
                order = ["audit", "scrapy"] if rep % 2 == 0 else ["scrapy", "audit"]
                if site.name == "pg" and latency == max(latencies):
                    order.append("audit100")  # its peak RSS, beside the whole site's
                for kind in order:
                    runs.append(run_child(site, kind, latency, scrapy))
                    show(runs[-1])
    report(runs, sites, latencies)


if __name__ == "__main__":
    main()
