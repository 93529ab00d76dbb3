"""Peak memory of one crawled page streamed through the pipeline: a 1 MiB vs a 20 MiB page.

Run: `uv run python bench/page_memory.py [--sizes-mib 1,20] [--chunk-kib 64]` (about a minute).

A generated documentation-index page (text paragraphs with a link every ~350 bytes, as in large
API indexes: about 3,000 distinct links per MiB) is fed to `crawl.page_stream.PageStream` in
network-sized chunks, exactly as the crawl's fetch does (the sink of `ports.FetchRequest`), with
a link writer that drops what it is sent (the scratchpad's `record_links` in the crawl), then
`finish`ed into the page's records. The page's bytes are generated chunk by chunk, so the input
is never held whole. Each size runs in its own process; its figure is the growth of peak RSS
(`ru_maxrss`) over the same process's peak after imports and a small warm-up page (tracemalloc
would slow the link-heavy parse some fortyfold).

Target (issue 14 item 3): memory does not depend on page size. What still grows with a page's
links is per distinct link: an entry in each compact dedup table (common.seen, 16 to 32 bytes an
entry; the raw href, the edge, the URL to crawl), so a 20 MiB page of 97,000 links adds ~12 MB.
Before streaming, the crawl held the whole body (up to the old 2 MiB cap); a 20 MiB body alone
would be 20 MiB, plus its decoded text.

Last line: `peak_mb_1mib=.. peak_mb_20mib=.. links_20mib=.. s_20mib=..`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "src"))

from common import ports
from crawl.page_pipeline import CrawlScope
from crawl.page_stream import PageStream
from crawl.url_policy import UrlPolicy
from durable.records import LeasedUrl, LinkBatch

SITE = "https://docs.bench.example/"
MIB = 1024 * 1024


def page_chunks(size: int, chunk: int) -> Iterator[bytes]:
    """`size` bytes of an index page, `chunk` bytes at a time, generated as they are read."""
    head = b"<!doctype html><html lang=en><head><title>Index</title></head><body><h1>Index</h1>"
    pending = bytearray(head)
    n = sent = 0
    while sent < size:
        while len(pending) < chunk:
            pending += (
                b'<p>Entry %d of the index: <a href="/api/item-%d.html">item %d</a>, one of the '
                b"documented functions, with a short summary of what it does, its arguments and "
                b"the value it returns, as API indexes list them.</p>\n" % (n, n, n)
            )
            n += 1
        piece = bytes(pending[: min(chunk, size - sent)])
        del pending[: len(piece)]
        sent += len(piece)
        yield piece


async def stream_page(size: int, chunk: int) -> tuple[int, float]:
    """(links stored, seconds) for one page of `size` bytes."""
    links = 0

    async def drop(batch: LinkBatch) -> None:
        nonlocal links
        links += len(batch.links)

    scope = CrawlScope("bench", UrlPolicy(SITE), True)
    leased = LeasedUrl(SITE + "index.html", 1, False)
    headers = {"content-type": "text/html; charset=utf-8"}
    started = time.perf_counter()
    page = PageStream(scope, leased, drop)
    page.open(200, headers)
    for piece in page_chunks(size, chunk):
        await page.feed(piece)
    done = page.finish(ports.FetchResult(leased.url, 200, headers, b"", False, 10.0))
    return links + len(done.links), time.perf_counter() - started


def peak_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def child(size: int, chunk: int) -> None:
    asyncio.run(stream_page(64 * 1024, chunk))  # warm up: imports, caches, first allocations
    before = peak_kib()
    links, elapsed = asyncio.run(stream_page(size, chunk))
    print(json.dumps({"growth_mb": (peak_kib() - before) / 1024, "links": links, "s": elapsed}))


def measure(size_mib: int, chunk_kib: int) -> dict[str, float]:
    command = [sys.executable, __file__, "--child", str(size_mib), "--chunk-kib", str(chunk_kib)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    figures: dict[str, float] = json.loads(output.strip().splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes-mib", default="1,20")
    parser.add_argument("--chunk-kib", type=int, default=64)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child * MIB, args.chunk_kib * 1024)
        return
    sizes = [int(s) for s in args.sizes_mib.split(",")]
    figures = {size: measure(size, args.chunk_kib) for size in sizes}
    for size, f in figures.items():
        print(
            f"{size:>3} MiB page: peak RSS +{f['growth_mb']:6.1f} MB, "
            f"{int(f['links']):,} links stored, {f['s']:.1f} s"
        )
    last = sizes[-1]
    print(
        " ".join(
            [f"peak_mb_{s}mib={figures[s]['growth_mb']:.1f}" for s in sizes]
            + [
                f"links_{last}mib={int(figures[last]['links'])}",
                f"s_{last}mib={figures[last]['s']:.1f}",
            ]
        )
    )


if __name__ == "__main__":
    main()
