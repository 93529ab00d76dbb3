"""Head-of-line blocking in one crawl chunk, one URL stalled: the rolling window vs fixed batches.

Run: `uv run python bench/head_of_line_bench.py [--reps 3] [--timeout 3] [--latency-ms 50]`.

A chunk of 200 generated pages (~10 KB each, linking to one another) is served by
bench/site_server.py on 127.0.0.1 with an injected latency per request. In the *stalled* variant one
URL in the middle of the chunk answers only after the fetch timeout plus 2 s, so it ends as a fetch
timeout (ChunkPlan.fetch_timeout_s, 3 s by default instead of the production 15 s). Each run gets a
fresh audit row in the local platform's D1 and a fresh AuditScratchpad Durable Object seeded with
the 200 URLs, then drives, exactly as a `crawl-chunk-N` step does (claim, fetch, process, persist):
* rolling: `crawl.chunk.run_chunk`, its window pinned at the maximum (40) through the window hint;
* fixed batch: the baseline below, batches of that same window size, each fetched concurrently and
  waiting for its slowest member, then persisted with the same `persist_batch`.
Times are medians of the repetitions, the variants alternating. Target: stalled <= clean + timeout.

Last line: `clean_s=.. stalled_s=.. timeout_s=.. fixed_batch_stalled_s=..`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from site_server import Page, SiteServer  # bench/ is the script's folder, so it is on sys.path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "src"))

from auditdb import repository
from auditdb.records import AuditOptions, AuditRecord
from common import ports
from common.settings import CRAWL
from crawl.chunk import ChunkIO, ChunkPlan, persist_batch, run_chunk
from crawl.page_pipeline import CrawlScope, LeasedUrl, ProcessedPage
from crawl.page_stream import process_response
from crawl.robots import RobotsRules
from crawl.url_policy import UrlPolicy
from crawl.window import WINDOW_LIMITS
from durable.client import Scratchpad
from local_platform.runtime import LocalPlatform
from urls.private_hosts import PrivateHosts

CHUNK_PAGES = 200
WINDOW = WINDOW_LIMITS.maximum


def site_pages(count: int) -> dict[str, Page]:
    """`count` pages of ~10 KB, each linking to its 10 successors (all inside the chunk)."""
    text = " ".join(f"Paragraph text number {i} about the benchmark site." for i in range(150))
    pages = {}
    for i in range(count):
        links = "".join(
            f"<li><a href='/p{(i + k) % count}'>Page {(i + k) % count}</a></li>"
            for k in range(1, 11)
        )
        html = (
            f"<!doctype html><html lang='en'><head><title>Benchmark page {i} of the site</title>"
            f"<meta name='description' content='Page {i} of the benchmark site.'></head>"
            f"<body><h1>Page {i}</h1><ul>{links}</ul><p>{text}</p></body></html>"
        )
        pages[f"/p{i}"] = Page(html.encode())
    return pages


async def fixed_batches(scope: CrawlScope, plan: ChunkPlan, io: ChunkIO) -> int:
    """The baseline: fetch `WINDOW` URLs at once, wait for all of them, persist, repeat."""

    async def fetch(leased: LeasedUrl) -> ProcessedPage:  # what the chunk runner does per URL
        request = ports.FetchRequest(
            url=leased.url,
            timeout_s=plan.fetch_timeout_s,
            max_bytes=CRAWL.fetch_max_bytes,
            headers=CRAWL.request_headers,
        )
        return process_response(scope, leased, await io.http.fetch(request))

    claim = await io.pad.claim_chunk(plan.chunk_no, plan.limit)
    leased = list(claim.urls)
    for start in range(0, len(leased), WINDOW):
        batch = await asyncio.gather(*(fetch(url) for url in leased[start : start + WINDOW]))
        await persist_batch(scope, plan, io, list(batch))
    return len(leased)


async def one_run(
    platform: LocalPlatform, site: SiteServer, *, fixed: bool, timeout_s: float
) -> float:
    """Seconds to crawl one fresh 200-URL chunk (claim to last write)."""
    audit_id = str(uuid.uuid4())
    start_url = site.url("/p0")
    options = AuditOptions(max_pages=CHUNK_PAGES, private_hosts=PrivateHosts.LOOPBACK)
    await repository.insert_audit(
        platform.env.DB,
        AuditRecord(
            id=audit_id,
            start_url=start_url,
            created_at=ports.iso_now(),
            options=options,
            pages_total=CHUNK_PAGES,
        ),
    )
    pad = Scratchpad.for_audit(platform.env, audit_id)
    for i in range(CHUNK_PAGES):
        await pad.seed_start(site.url(f"/p{i}"))
    policy = UrlPolicy(
        start_url=start_url, private_hosts=PrivateHosts.LOOPBACK, robots=RobotsRules.from_text("")
    )
    scope = CrawlScope(audit_id, policy, site_is_https=False)
    plan = ChunkPlan(
        chunk_no=1,
        limit=CHUNK_PAGES,
        window_hint=WINDOW,
        fetch_timeout_s=timeout_s,
        max_pages=CHUNK_PAGES,
    )
    io = ChunkIO(pad=pad, db=platform.env.DB, http=ports.http_client())
    started = time.perf_counter()
    if fixed:
        await fixed_batches(scope, plan, io)
    else:
        report = await run_chunk(scope, plan, io)
        assert report.attempted_in_chunk == CHUNK_PAGES and not report.deadline_hit, report
    seconds = time.perf_counter() - started
    stats = await pad.stats()
    assert stats.crawled == CHUNK_PAGES, stats
    return seconds


async def bench(reps: int, timeout_s: float, latency_ms: float, stall_at: int) -> dict[str, float]:
    pages = site_pages(CHUNK_PAGES)
    times: dict[str, list[float]] = {}
    variants = [(fixed, stalled) for stalled in (False, True) for fixed in (False, True)]
    with tempfile.TemporaryDirectory(dir=BENCH / ".out") as state:
        platform = LocalPlatform(Path(state), var_overrides={"ALLOW_PRIVATE_HOSTS": "loopback"})
        try:
            with SiteServer(
                routes=pages, latency_s=latency_ms / 1000
            ) as site:  # warm-up, not counted
                await one_run(platform, site, fixed=False, timeout_s=timeout_s)
            for rep in range(reps):
                for fixed, stalled in variants if rep % 2 == 0 else variants[::-1]:
                    stalls = {f"/p{stall_at}": timeout_s + 2.0} if stalled else {}
                    with SiteServer(
                        routes=pages, latency_s=latency_ms / 1000, stalls=stalls
                    ) as site:
                        seconds = await one_run(platform, site, fixed=fixed, timeout_s=timeout_s)
                    name = ("fixed_batch_" if fixed else "") + ("stalled" if stalled else "clean")
                    times.setdefault(name, []).append(seconds)
                    print(f"  rep {rep + 1}: {name:20} {seconds:6.2f} s", flush=True)
        finally:
            await platform.close()
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--reps", type=int, default=3)
    args.add_argument(
        "--timeout", type=float, default=3.0, help="the chunk's fetch timeout, seconds"
    )
    args.add_argument("--latency-ms", type=float, default=50.0, help="injected latency per request")
    args.add_argument(
        "--stall-at", type=int, default=CHUNK_PAGES // 2, help="index of the stalled URL"
    )
    opts = args.parse_args()
    (BENCH / ".out").mkdir(exist_ok=True)
    print(
        f"{CHUNK_PAGES} URLs, window {WINDOW}, latency {opts.latency_ms:g} ms, "
        f"fetch timeout {opts.timeout:g} s, stalled URL #{opts.stall_at}"
    )
    t = asyncio.run(bench(opts.reps, opts.timeout, opts.latency_ms, opts.stall_at))
    print(
        f"rolling window: clean {t['clean']:.2f} s, stalled {t['stalled']:.2f} s "
        f"(+{t['stalled'] - t['clean']:.2f} s; target <= +{opts.timeout:g} s: "
        f"{'met' if t['stalled'] <= t['clean'] + opts.timeout else 'MISSED'})"
    )
    print(
        f"fixed batches:  clean {t['fixed_batch_clean']:.2f} s, "
        f"stalled {t['fixed_batch_stalled']:.2f} s "
        f"(+{t['fixed_batch_stalled'] - t['fixed_batch_clean']:.2f} s)"
    )
    print(
        f"clean_s={t['clean']:.2f} stalled_s={t['stalled']:.2f} timeout_s={opts.timeout:g} "
        f"fixed_batch_stalled_s={t['fixed_batch_stalled']:.2f}"
    )


if __name__ == "__main__":
    main()
