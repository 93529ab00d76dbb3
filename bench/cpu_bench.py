"""The whole process a user waits for: `siteaudit audit` from the shell against `scrapy runspider`,
timed from outside as hyperfine times a command, and an audit's CPU phase by phase.

Run: `uv run python bench/cpu_bench.py [--reps 5] [--latencies 0,50] [--sites pg,apidocs]
[--api-pages 10000] [--base SRC]`, `--phases SITE [--profile]` for one audit's CPU per phase, or
`--startup [--base SRC] [--reps N]` for `siteaudit --help`, `keys list`, a 6-page audit and
its `report`.

Whole-process mode (the default). Per run, one fresh site server (bench/site_server.py: the sites
of bench/crawl_bench.py, `bench_sites`) and one command, started as a user starts it:
* audit: `siteaudit --state-dir TMP audit URL --max-pages N --allow-private-hosts
  --no-check-external` (the console script of this venv; a fresh state folder, so the D1
  migrations run as on a first use; the text summary, discarded). Links to other sites are not
  checked: the bench never sends a request beyond loopback, and Scrapy does not check them either.
* scrapy: `scrapy runspider bench/.out/site_spider.py -a url=URL -s NAME=VALUE ...` in the
  throwaway venv bench/crawl_bench.py makes (`scrapy_python`): a CrawlSpider following every
  same-site link with crawl_bench.py's `SCRAPY_SETTINGS` (16 concurrent requests, robots.txt not
  fetched, no cache).
* base (with `--base SRC`): the audit's command again with `PYTHONPATH=SRC`, the `src/` of
  another tree (a copy of the tree before a change: `git archive main | tar -x -C /tmp/base`), so
  before and after alternate in one run, each beside Scrapy.
Wall time runs from the command's start to its exit as the parent sees it (interpreter start-up,
imports, discovery, the crawl, finalize and the report: every phase); CPU is the child's user +
system time from `os.wait4` (bench/child_process.py). Pages = distinct HTML 200s the server
logged; links = the audit's own counters (its pages' distinct `<a href>`s, read from its D1 file,
crawl_bench.audit_links); Scrapy's per-link CPU divides by its pages times the audit's links per
page on the same site. Within each repetition the sites and latencies take turns and the two
commands alternate, the order flipped every repetition; medians of the repetitions (at least 5
for a figure to quote: identical runs here vary by a third, bench/README.md "Fair measurement").

Phases mode (`--phases SITE`): one audit of SITE at the highest latency, the same command run by
a small driver in the child (`--child phases`) that reads `time.process_time()` around each
workflow step (`local_platform.workflow_runtime.EngineStep.do`, grouped by the step's name
without its number: `crawl-chunk`, `finalize`, ...) and around the report's delivery; start-up
is the process's CPU once `cli.main` is imported. A step's figure includes whatever else ran on
the event loop meanwhile (the CLI's progress polling, alarms), which is little. `--profile`
adds a cProfile of the phases after the crawl only (enabled around those steps and the report),
saved to bench/.out/phases-SITE.prof, its top functions printed.

Start-up mode (`--startup`): `siteaudit --help`, `keys list` on a fresh state folder, an audit
of a 6-page generated site (`synthetic_site.SyntheticSite(6)`, no latency) in it and `report`
of that audit, whole process, `--reps` times, alternating with the same commands of `--base
SRC` (a tree's `src/`; its folder holds wrangler.toml and migrations/ too, as `git archive REV
src wrangler.toml migrations` gives); medians of CPU and wall. Last line
`audit_help_cpu_ms=.. audit_help_wall_ms=.. audit_keys_list_cpu_ms=.. ...
audit_tiny_audit_cpu_ms=.. audit_report_cpu_ms=..` (and `base_...`).

Last line (whole-process mode): per site and latency `ratio_SITE_LATms=..` (audit pages/s over
Scrapy's, of the medians) `paired_SITE_LATms=..` (the median of each repetition's ratio)
`audit_pps_..=.. scrapy_pps_..=.. audit_s_..=.. scrapy_s_..=..` (wall seconds)
`audit_cpu_ms_page_..=.. audit_cpu_us_link_..=.. scrapy_cpu_ms_page_..=.. scrapy_cpu_us_link_..=..`
(with `--base`, the same `base_` figures and `cpu_vs_base_..=..`, the audit's CPU over the base's).
Phases mode: `startup_ms=.. PHASE_ms=.. ... report_ms=.. other_ms=.. total_ms=..`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from child_process import ChildRun, run_measured  # bench/ is on sys.path (script folder)
from crawl_bench import (
    OUT,
    ROOT,
    SCRAPY_SETTINGS,
    BenchSite,
    audit_links,
    prepared_sites,
)
from site_server import SiteServer

CHILD_TIMEOUT_S = 3600
SPIDER = OUT / "site_spider.py"
# What `scrapy runspider` runs: crawl_bench.py's spider, as a file of its own.
SPIDER_SOURCE = '''"""Follow every same-site link and do nothing else (bench/cpu_bench.py)."""

from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class SiteSpider(CrawlSpider):
    name = "site"
    allowed_domains = ["127.0.0.1"]
    rules = (Rule(LinkExtractor(), follow=True),)

    def __init__(self, url, *args, **kwargs):
        self.start_urls = [url]
        super().__init__(*args, **kwargs)
'''
# The workflow's steps after the crawl: what `--profile` profiles (step names without numbers).
CRAWL_STEPS = frozenset(
    {"validate-context", "check-robots-override", "discover-urls", "crawl-chunk"}
)


# -- the commands -------------------------------------------------------------------------------


def siteaudit_command() -> list[str]:
    """The console script a user runs, or the same entry point through this interpreter."""
    script = Path(sys.executable).with_name("siteaudit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "cli.main"]


def audit_arguments(url: str, max_pages: int, state_dir: Path) -> list[str]:
    return [
        "--state-dir",
        str(state_dir),
        "audit",
        url,
        "--max-pages",
        str(max_pages),
        "--allow-private-hosts",
        "--no-check-external",
    ]


def scrapy_command(scrapy: Path, url: str) -> list[str]:
    settings = [f"{name}={value}" for name, value in SCRAPY_SETTINGS.items()]
    command = [str(scrapy.with_name("scrapy")), "runspider", str(SPIDER), "-a", f"url={url}"]
    return command + [part for setting in settings for part in ("-s", setting)]


def child_env() -> dict[str, str]:
    """The shell's environment without what would make the audit reach beyond loopback, and
    with the local renderer off: Scrapy does not render, and a tree from before issue 30 has no
    `--render` option to say `never` with (docs/rendering.md)."""
    kept = {k: v for k, v in os.environ.items() if k not in ("PSI_API_KEY", "PSI_ENDPOINT")}
    return {**kept, "SITEAUDIT_LOCAL_RENDERER": "none"}


def compile_bytecode_of(folders: list[Path]) -> None:
    """Bytecode for these source folders, as crawl_bench.compile_bytecode writes for this tree's
    (a machine with PYTHONDONTWRITEBYTECODE set would compile each module on every run)."""
    command = [sys.executable, "-m", "compileall", "-q", "-j", "0", *map(str, folders)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


# -- whole-process runs -------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    site: str
    kind: str  # "audit", "base" (the audit of `--base SRC`) or "scrapy"
    latency_ms: int
    wall_s: float
    cpu_s: float
    peak_mb: float  # ru_maxrss: at least the parent's own peak (bench/child_process.py)
    pages: int
    links: int | None  # the audit's counters; None for Scrapy

    @property
    def pps(self) -> float:
        return self.pages / self.wall_s

    @property
    def cpu_ms_per_page(self) -> float:
        return 1000 * self.cpu_s / max(1, self.pages)

    def cpu_us_per_link(self, links_per_page: float) -> float:
        links = self.links if self.links is not None else self.pages * links_per_page
        return 1e6 * self.cpu_s / max(1.0, links)


def run_once(
    site: BenchSite, kind: str, latency_ms: int, scrapy: Path, base: Path | None = None
) -> Run:
    env = child_env()
    with site.serve(latency_ms) as server, tempfile.TemporaryDirectory(dir=OUT) as tmp:
        url = server.url(site.start_path)
        if kind == "scrapy":
            command = scrapy_command(scrapy, url)
        else:
            command = siteaudit_command() + audit_arguments(url, site.max_pages, Path(tmp))
            if kind == "base" and base is not None:
                env["PYTHONPATH"] = str(base)  # before the venv's path to this tree's src/
        log = OUT / f"whole-{site.name}-{kind}-{latency_ms}ms.log"
        child = run_measured(command, log, timeout_s=CHILD_TIMEOUT_S, cwd=ROOT, env=env)
        pages = server.distinct_html_200s()
        links = None if kind == "scrapy" else audit_links(Path(tmp))
    if child.exit_status != 0:
        sys.exit(f"{kind} exited {child.exit_status}; see {log}")
    return Run(site.name, kind, latency_ms, child.wall_s, child.cpu_s, child.peak_mb, pages, links)


def show(run: Run) -> None:
    links = "" if run.links is None else f", {run.links} links"
    print(
        f"  {run.site:7} {run.kind:6} {run.latency_ms:3d} ms: {run.pages:5d} pages{links} in "
        f"{run.wall_s:7.2f} s = {run.pps:6.1f} pages/s, CPU {run.cpu_s:7.2f} s "
        f"({run.cpu_ms_per_page:.1f} ms/page), peak {run.peak_mb:.0f} MB",
        flush=True,
    )


def picked(runs: list[Run], site: str, kind: str, latency_ms: int) -> list[Run]:
    return [r for r in runs if (r.site, r.kind, r.latency_ms) == (site, kind, latency_ms)]


def figures(runs: list[Run], site: str, latency_ms: int) -> dict[str, float]:
    """The medians of one site and latency, named as on the last line (without the suffix)."""
    audits, scrapys = (
        picked(runs, site, "audit", latency_ms),
        picked(runs, site, "scrapy", latency_ms),
    )
    bases = picked(runs, site, "base", latency_ms)
    per_page = statistics.median(r.links / r.pages for r in audits if r.links and r.pages)
    out: dict[str, float] = {}
    for kind, chosen in (("audit", audits), ("base", bases), ("scrapy", scrapys)):
        if not chosen:
            continue
        out[f"{kind}_pps"] = statistics.median(r.pps for r in chosen)
        out[f"{kind}_s"] = statistics.median(r.wall_s for r in chosen)
        out[f"{kind}_cpu_ms_page"] = statistics.median(r.cpu_ms_per_page for r in chosen)
        out[f"{kind}_cpu_us_link"] = statistics.median(r.cpu_us_per_link(per_page) for r in chosen)
    out["ratio"] = out["audit_pps"] / out["scrapy_pps"]
    out["paired"] = statistics.median(a.pps / s.pps for a, s in zip(audits, scrapys, strict=False))
    if bases:
        out["cpu_vs_base"] = statistics.median(
            a.cpu_s / b.cpu_s for a, b in zip(audits, bases, strict=False)
        )
    out["links_per_page"] = per_page
    return out


def whole_process(opts: argparse.Namespace, sites: list[BenchSite], scrapy: Path) -> None:
    SPIDER.write_text(SPIDER_SOURCE)
    latencies = [int(x) for x in opts.latencies.split(",")]
    runs: list[Run] = []
    kinds = ["audit", "scrapy"] if opts.base is None else ["audit", "base", "scrapy"]
    for rep in range(opts.reps):
        print(f"repetition {rep + 1} of {opts.reps}:", flush=True)
        for site in sites:
            for latency in latencies:
                order = kinds if rep % 2 == 0 else kinds[::-1]
                for kind in order:
                    runs.append(run_once(site, kind, latency, scrapy, opts.base))
                    show(runs[-1])
    print(f"medians of {opts.reps} (whole process, timed from outside):")
    fields: list[str] = []
    for site in sites:
        for latency in latencies:
            got = figures(runs, site.name, latency)
            print(
                f"  {site.name:7} {latency:3d} ms: audit {got['audit_pps']:.1f} pages/s "
                f"({got['audit_s']:.1f} s), scrapy {got['scrapy_pps']:.1f} pages/s "
                f"({got['scrapy_s']:.1f} s): {got['ratio']:.2f}x (paired {got['paired']:.2f}x); "
                f"CPU per page {got['audit_cpu_ms_page']:.1f} vs {got['scrapy_cpu_ms_page']:.1f} "
                f"ms, per link {got['audit_cpu_us_link']:.1f} vs {got['scrapy_cpu_us_link']:.1f} "
                f"µs ({got['links_per_page']:.0f} links a page)"
            )
            if "cpu_vs_base" in got:
                print(
                    f"  {'':11}   base {got['base_pps']:.1f} pages/s ({got['base_s']:.1f} s), "
                    f"CPU per page {got['base_cpu_ms_page']:.1f} ms, per link "
                    f"{got['base_cpu_us_link']:.1f} µs; the audit's CPU / the base's "
                    f"{got['cpu_vs_base']:.2f} (paired)"
                )
            suffix = f"{site.name}_{latency}ms"
            del got["links_per_page"]
            fields += [f"{name}_{suffix}={value:.2f}" for name, value in got.items()]
    print(" ".join(fields))


# -- start-up -----------------------------------------------------------------------------------


STARTUP_COMMANDS = ("help", "keys list", "tiny audit", "report")


def startup(opts: argparse.Namespace) -> None:
    """`siteaudit --help`, `keys list`, an audit of a 6-page site and `report` of that audit,
    whole process, in one fresh state folder per repetition, `--reps` times each, alternating
    with the same commands of `--base SRC` when given; medians."""
    from synthetic_site import SyntheticSite

    tiny = SyntheticSite(6)
    kinds = ["audit"] if opts.base is None else ["audit", "base"]
    spent: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with SiteServer(generated=tiny.page) as server:
        for rep in range(opts.reps):
            for kind in kinds if rep % 2 == 0 else kinds[::-1]:
                env = child_env()
                if kind == "base":
                    env["PYTHONPATH"] = str(opts.base)
                with tempfile.TemporaryDirectory(dir=OUT) as tmp:
                    for name, child in startup_commands(kind, server.url("/"), Path(tmp), env):
                        spent.setdefault((kind, name), []).append((child.cpu_s, child.wall_s))
    fields: list[str] = []
    for (kind, name), got in spent.items():
        cpu = statistics.median(c for c, _ in got)
        wall = statistics.median(w for _, w in got)
        print(f"  {kind:5} {name:10}: CPU {1000 * cpu:6.0f} ms, wall {1000 * wall:6.0f} ms")
        key = f"{kind}_{name.replace(' ', '_')}"
        fields += [f"{key}_cpu_ms={1000 * cpu:.0f}", f"{key}_wall_ms={1000 * wall:.0f}"]
    print(" ".join(fields))


def startup_commands(
    kind: str, url: str, state_dir: Path, env: dict[str, str]
) -> Iterator[tuple[str, ChildRun]]:
    """Each of STARTUP_COMMANDS run once on `state_dir`, in order: `report` reports the audit
    the one before it ran (its id is the audit's first line of output)."""
    audit_id = ""
    for name in STARTUP_COMMANDS:
        arguments = {
            "help": ["--help"],
            "keys list": ["--state-dir", str(state_dir), "keys", "list"],
            "tiny audit": audit_arguments(url, 10, state_dir),
            "report": ["--state-dir", str(state_dir), "report", audit_id],
        }[name]
        log = OUT / f"startup-{kind}.log"
        command = siteaudit_command() + arguments
        child = run_measured(command, log, timeout_s=120, cwd=ROOT, env=env, capture_stdout=True)
        if child.exit_status != 0:
            sys.exit(f"{kind} {name} exited {child.exit_status}; see {log}")
        if name == "tiny audit":
            audit_id = child.stdout.split()[1]  # `audit <id>`
        yield name, child


# -- phases -------------------------------------------------------------------------------------


def phase_of(step_name: str) -> str:
    """`crawl-chunk-12` -> `crawl-chunk`: a step's phase is its name without its number."""
    return re.sub(r"-\d+$", "", step_name)


def phases_child(argv: list[str], profile: str | None) -> None:
    """Run `siteaudit ARGV` in this process, reading the process's CPU around each step."""
    import cli.main

    startup = time.process_time()  # the interpreter's start-up and the CLI's imports
    import cli.deliver
    from local_platform.workflow_runtime import EngineStep

    spent: Counter[str] = Counter()
    profiler = None
    if profile is not None:
        import cProfile

        profiler = cProfile.Profile()
    step_do, deliver = EngineStep.do, cli.deliver.deliver

    async def timed_step(self: EngineStep, name: str, *args: object) -> object:
        phase = phase_of(name)
        watched = profiler is not None and phase not in CRAWL_STEPS
        start = time.process_time()
        if watched:
            profiler.enable()
        try:
            return await step_do(self, name, *args)
        finally:
            if watched:
                profiler.disable()
            spent[phase] += time.process_time() - start

    async def timed_deliver(*args: object) -> int:
        start = time.process_time()
        if profiler is not None:
            profiler.enable()
        try:
            return await deliver(*args)
        finally:
            if profiler is not None:
                profiler.disable()
            spent["report"] += time.process_time() - start

    EngineStep.do = timed_step
    cli.deliver.deliver = timed_deliver
    status = cli.main.main(argv)
    total = time.process_time()
    if profiler is not None and profile is not None:
        profiler.dump_stats(profile)
    result = {"status": status, "startup": startup, "total": total, "phases": dict(spent)}
    print("RESULT " + json.dumps(result), flush=True)


def phases(site: BenchSite, latency_ms: int, profile: bool) -> None:
    target = OUT / f"phases-{site.name}.prof"
    with site.serve(latency_ms) as server, tempfile.TemporaryDirectory(dir=OUT) as tmp:
        url = server.url(site.start_path)
        command = [sys.executable, __file__, "--child", "phases"]
        command += ["--profile-to", str(target)] if profile else []
        command += ["--", *audit_arguments(url, site.max_pages, Path(tmp))]
        log = OUT / f"phases-{site.name}.log"
        child = run_measured(
            command, log, timeout_s=CHILD_TIMEOUT_S, cwd=ROOT, capture_stdout=True, env=child_env()
        )
        pages = server.distinct_html_200s()
    lines = [line for line in child.stdout.splitlines() if line.startswith("RESULT ")]
    if child.exit_status != 0 or not lines:
        sys.exit(f"the phases child failed (exit {child.exit_status}); see {log}")
    result = json.loads(lines[-1].removeprefix("RESULT "))
    spent: dict[str, float] = result["phases"]
    startup, total = float(result["startup"]), float(result["total"])
    other = total - startup - sum(spent.values())
    print(
        f"{site.name} at {latency_ms} ms: {pages} pages; CPU {total:.2f} s in the process "
        f"({child.cpu_s:.2f} s by wait4, wall {child.wall_s:.2f} s)"
    )
    rows = [("start-up (interpreter and imports)", startup), *spent.items(), ("other", other)]
    for name, seconds in rows:
        print(f"  {name:36} {1000 * seconds:9.0f} ms {100 * seconds / total:5.1f}%")
    if profile:
        import pstats

        print(f"after the crawl, under cProfile ({target}):")
        pstats.Stats(str(target)).sort_stats("cumulative").print_stats(25)
    fields = [f"startup_ms={1000 * startup:.0f}"]
    fields += [f"{name}_ms={1000 * seconds:.0f}" for name, seconds in spent.items()]
    fields += [f"other_ms={1000 * other:.0f}", f"total_ms={1000 * total:.0f}", f"pages={pages}"]
    print(" ".join(fields))


# -- main ---------------------------------------------------------------------------------------


def child_main(argv: list[str]) -> None:
    args = argparse.ArgumentParser()
    args.add_argument("--child", choices=("phases",), required=True)
    args.add_argument("--profile-to")
    args.add_argument("siteaudit", nargs=argparse.REMAINDER)
    opts = args.parse_args(argv)
    sys.path.insert(0, str(ROOT / "src"))
    phases_child([a for a in opts.siteaudit if a != "--"], opts.profile_to)


def main() -> None:
    if "--child" in sys.argv:
        child_main(sys.argv[1:])
        return
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--reps", type=int, default=5)
    args.add_argument("--latencies", default="0,50", help="injected ms per request, e.g. 0,50")
    args.add_argument("--sites", default="pg,apidocs", help="of pg, large, links, apidocs")
    args.add_argument("--api-pages", type=int, default=10_000, help="the apidocs site's pages")
    args.add_argument("--link-pages", type=int, default=2000)
    args.add_argument("--large-pages", type=int, default=300)
    args.add_argument("--large-kb", default="1024-3072", help="the large pages' sizes, KB")
    args.add_argument(
        "--base", type=Path, metavar="SRC", help="also run the audit of another tree's src/"
    )
    args.add_argument("--phases", metavar="SITE", help="one audit's CPU per phase instead")
    args.add_argument(
        "--startup", action="store_true", help="`siteaudit --help` and a 6-page audit instead"
    )
    args.add_argument(
        "--profile", action="store_true", help="with --phases: cProfile after the crawl"
    )
    opts = args.parse_args()
    if opts.startup:
        OUT.mkdir(parents=True, exist_ok=True)
        purelib = Path(sysconfig.get_paths()["purelib"])  # this venv's packages, pydantic's
        compile_bytecode_of([ROOT / "src", purelib, *([opts.base] if opts.base else [])])
        startup(opts)
        return
    sites, scrapy = prepared_sites(opts, [opts.phases] if opts.phases else opts.sites.split(","))
    if opts.base is not None:  # its bytecode too, as compile_bytecode does for this tree's
        compile_bytecode_of([opts.base])
    if opts.phases:
        latency = max(int(x) for x in opts.latencies.split(","))
        phases(sites[0], latency, opts.profile)
        return
    whole_process(opts, sites, scrapy)


if __name__ == "__main__":
    main()
