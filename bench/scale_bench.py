"""Speed and peak memory of `siteaudit audit` as the site grows: 1k, 10k (and 100k) pages.

Run: `uv run python bench/scale_bench.py [--sizes 1000,10000] [--format json] [--latency-ms 0]`
(`--sizes 1000,10000,100000` adds the 100k site: well over an hour on a 2-core machine), or
`--trace SIZE` for where the memory goes.

For each size N, a fresh bench/site_server.py on 127.0.0.1 serves a fresh bench/synthetic_site.py
site of N pages (generated on request: ~22 KB pages, ~40 internal links each, a tree 5-6 levels
deep, a few issues), and the real CLI runs against it as a user would, in its own process:
`siteaudit --state-dir TMP audit URL --max-pages N --allow-private-hosts --format F --output FILE`
(the local platform: discovery, every crawl chunk, finalize, then the report in format F, json by
default: every page and issue, the heaviest report). Its peak RSS is its own `ru_maxrss` from
`os.wait4`; pages/s = the distinct HTML 200s the server answered / the process's wall time
(interpreter start-up, imports and writing the report included).

`--trace N` runs the CLI once in-process under tracemalloc in a child (much slower) and prints the
top allocations by file:line at the largest sampled size and after the report.

After each audit the D1 file tells what the kept link graph costs (`audit_page_links`,
auditdb.page_links, one row per crawled page): the bytes of its rows' values per page (SQLite adds
a few bytes of record header, and the primary key's index repeats the audit id and the URL).

Last line: `pages_per_s_1k=.. peak_mb_1k=.. links_bytes_per_page_1k=.. pages_per_s_10k=..
peak_mb_10k=.. links_bytes_per_page_10k=.. ratio_10k=..` (and the same for 100k when run);
ratio = peak / the 1k peak.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from child_process import run_measured  # bench/ is the script's folder, so it is on sys.path
from site_server import SiteServer
from synthetic_site import SyntheticSite

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / ".out"
CHILD_TIMEOUT_S = 4 * 3600
TRACE_EVERY_S = 1.0
TRACE_TOP = 20


def siteaudit_command() -> list[str]:
    """The installed `siteaudit` script beside this interpreter (uv run's venv)."""
    script = Path(sys.executable).parent / "siteaudit"
    if not script.exists():
        sys.exit(f"{script} is missing: run this with `uv run` after `uv sync`")
    return [str(script)]


@dataclass(frozen=True)
class Run:
    pages: int  # the site's size = max_pages
    seconds: float
    html_200s: int
    requests: int
    peak_mb: float
    cpu_s: float
    exit_status: int
    links_bytes_per_page: float = 0.0  # the kept link graph's D1 values, per crawled page

    @property
    def pps(self) -> float:
        return self.html_200s / self.seconds


def run_audit(pages: int, output_format: str, latency_ms: int, trace: bool = False) -> Run:
    """One fresh site and state folder, one `siteaudit audit` process; its own rusage."""
    site = SyntheticSite(pages)
    with (
        SiteServer(latency_s=latency_ms / 1000, generated=site.page) as server,
        tempfile.TemporaryDirectory(dir=OUT) as tmp,
    ):
        report = Path(tmp) / f"report.{output_format}"
        arguments = [
            "--state-dir",
            str(Path(tmp) / "state"),
            "audit",
            server.url("/"),
            "--max-pages",
            str(pages),
            "--allow-private-hosts",
            "--format",
            output_format,
            "--output",
            str(report),
        ]
        if trace:
            command = [sys.executable, __file__, "--traced-child", *arguments]
        else:
            command = [*siteaudit_command(), *arguments]
        log = OUT / f"scale-{pages}{'-trace' if trace else ''}.log"
        child = run_measured(command, log, timeout_s=CHILD_TIMEOUT_S, cwd=ROOT)
        if child.exit_status != 0:
            sys.exit(f"siteaudit audit exited {child.exit_status}; see {log}")
        if trace:
            print(log.read_text(), end="")
        return Run(
            pages,
            child.wall_s,
            server.distinct_html_200s(),
            server.requests(),
            child.peak_mb,
            child.cpu_s,
            child.exit_status,
            links_per_page(Path(tmp) / "state" / "d1"),
        )


def links_per_page(d1: Path) -> float:
    """Bytes of `audit_page_links` values per row (one row per crawled page) in the state's D1."""
    (db,) = d1.glob("*.sqlite")
    with sqlite3.connect(db) as conn:
        rows, values = conn.execute(
            "SELECT COUNT(*), SUM(length(CAST(audit_id AS BLOB)) + length(CAST(page_url AS BLOB))"
            " + length(CAST(inlinks AS BLOB)) + length(CAST(outlinks AS BLOB)) + 12) "
            "FROM audit_page_links"
        ).fetchone()
    return (values or 0) / rows if rows else 0.0


# -- the traced child ----------------------------------------------------------------------------


def traced_child(arguments: list[str]) -> int:
    """`siteaudit` in this process under tracemalloc: the top allocations at the largest traced
    size sampled every TRACE_EVERY_S, and at the end (the report written)."""
    import tracemalloc

    sys.path.insert(0, str(ROOT / "src"))
    from cli.main import main

    tracemalloc.start(1)
    best: list[tuple[int, tracemalloc.Snapshot]] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(TRACE_EVERY_S):
            current, _ = tracemalloc.get_traced_memory()
            if not best or current > best[0][0]:
                best[:] = [(current, tracemalloc.take_snapshot())]

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        status = main(arguments)
    finally:
        stop.set()
        sampler.join()
    _, peak = tracemalloc.get_traced_memory()
    print(f"traced peak {peak / 2**20:.1f} MB")
    if best:
        show_top(f"largest sampled ({best[0][0] / 2**20:.1f} MB)", best[0][1])
    show_top("at the end", tracemalloc.take_snapshot())
    return status


def show_top(label: str, snapshot: object) -> None:
    import tracemalloc

    assert isinstance(snapshot, tracemalloc.Snapshot)
    snapshot = snapshot.filter_traces((tracemalloc.Filter(False, tracemalloc.__file__),))
    stats = snapshot.statistics("lineno")
    print(f"{label}: top {TRACE_TOP} by file:line")
    for stat in stats[:TRACE_TOP]:
        frame = stat.traceback[0]
        where = frame.filename.replace(str(ROOT) + "/", "")
        print(f"  {stat.size / 2**20:8.2f} MB {stat.count:9d} blocks  {where}:{frame.lineno}")


# -- the parent ----------------------------------------------------------------------------------


def label(pages: int) -> str:
    return f"{pages // 1000}k" if pages % 1000 == 0 else str(pages)


def show(run: Run) -> None:
    print(
        f"  {run.pages:7d} pages: {run.html_200s:7d} HTML 200s ({run.requests} requests) in "
        f"{run.seconds:8.1f} s = {run.pps:6.1f} pages/s, CPU {run.cpu_s:7.1f} s, "
        f"peak RSS {run.peak_mb:7.1f} MB, kept links {run.links_bytes_per_page:,.0f} bytes a "
        f"page in D1 (exit {run.exit_status})",
        flush=True,
    )


def summary(runs: list[Run]) -> str:
    base = runs[0].peak_mb
    fields: list[str] = []
    for run in runs:
        name = label(run.pages)
        fields += [f"pages_per_s_{name}={run.pps:.1f}", f"peak_mb_{name}={run.peak_mb:.1f}"]
        fields.append(f"links_bytes_per_page_{name}={run.links_bytes_per_page:.0f}")
        if run is not runs[0]:
            fields.append(f"ratio_{name}={run.peak_mb / base:.2f}")
    return " ".join(fields)


def main() -> None:
    if sys.argv[1:2] == ["--traced-child"]:
        sys.exit(traced_child(sys.argv[2:]))
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--sizes", default="1000,10000", help="site sizes, smallest first")
    args.add_argument("--format", default="json", help="the report's --format (default json)")
    args.add_argument("--latency-ms", type=int, default=0, help="injected per request")
    args.add_argument("--trace", type=int, metavar="N", help="trace one N-page audit instead")
    opts = args.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}; load {os.getloadavg()}")
    if opts.trace:
        show(run_audit(opts.trace, opts.format, opts.latency_ms, trace=True))
        return
    sizes = sorted(int(size) for size in opts.sizes.split(","))
    runs: list[Run] = []
    for pages in sizes:
        runs.append(run_audit(pages, opts.format, opts.latency_ms))
        show(runs[-1])
    for run in runs[1:]:
        print(f"  peak at {label(run.pages)} = {run.peak_mb / runs[0].peak_mb:.2f}x the smallest")
    print(summary(runs))


if __name__ == "__main__":
    main()
