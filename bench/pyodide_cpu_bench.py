"""CPU time of the per-page work (streaming extractor + per-page rules + link discovery, i.e.
`crawl.page_stream.process_response`) in Pyodide 0.28 vs CPython, over the page corpus.

Run: `uv run python bench/pyodide_cpu_bench.py [CORPUS_DIR] [--repeats N]` after
tests/pyodide/setup.sh. The same `measure()` runs here and inside Pyodide (driven by
pyodide_cpu_bench.mjs through the tier's runtime); the figure is the best of N passes, in ms per
100 KB (10^5 bytes) of HTML. CPython uses process time; inside Pyodide (single-threaded, no I/O
during the pass) the wall clock is the CPU time. The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

CORPUS = ROOT / "tests" / "data" / "corpus" / "pages"


def _process_all(pages: list[bytes]) -> None:
    from common import ports
    from crawl.page_pipeline import CrawlScope, LeasedUrl
    from crawl.page_stream import process_response
    from crawl.robots import RobotsRules
    from crawl.url_policy import UrlPolicy
    from parse.parity import PARITY_URL
    from urls.private_hosts import PrivateHosts

    policy = UrlPolicy(
        start_url=PARITY_URL,
        include=(),
        exclude=(),
        max_depth=None,
        private_hosts=PrivateHosts.DENY,
        robots=RobotsRules.from_text(""),
    )
    scope = CrawlScope("bench", policy, site_is_https=True)
    leased = LeasedUrl(PARITY_URL, 1, False)
    headers = {"content-type": "text/html; charset=utf-8"}
    for page in pages:
        process_response(
            scope, leased, ports.FetchResult(PARITY_URL, 200, headers, page, False, 50.0)
        )


def measure(corpus: str, repeats: int, clock: str = "process") -> str:
    """JSON {pages, bytes, ms_per_100kb}: the best of `repeats` passes over every corpus page."""
    from parse.parity import page_files, read_page

    pages = [read_page(p) for p in page_files(Path(corpus))]
    tick = time.process_time if clock == "process" else time.perf_counter
    best = float("inf")
    for _ in range(repeats):
        start = tick()
        _process_all(pages)
        best = min(best, tick() - start)
    total = sum(map(len, pages))
    return json.dumps(
        {"pages": len(pages), "bytes": total, "ms_per_100kb": best * 1000 / (total / 1e5)}
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("corpus", nargs="?", default=str(CORPUS))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    cpython = json.loads(measure(args.corpus, args.repeats))
    print(
        f"cpython: {cpython['pages']} pages, {cpython['bytes'] / 1e6:.2f} MB, "
        f"{cpython['ms_per_100kb']:.2f} ms CPU per 100 KB",
        flush=True,
    )
    node = ROOT / "node_modules" / ".bin" / "node"
    out = subprocess.run(
        [
            str(node) if node.exists() else "node",
            "--experimental-wasm-jspi",
            "--disable-warning=ExperimentalWarning",
            str(Path(__file__).with_suffix(".mjs")),
            args.corpus,
            str(args.repeats),
        ],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "TZ": "UTC"},
    ).stdout
    pyodide = json.loads(out.strip().splitlines()[-1])
    print(f"pyodide: {pyodide['pages']} pages, {pyodide['ms_per_100kb']:.2f} ms CPU per 100 KB")
    a, b = pyodide["ms_per_100kb"], cpython["ms_per_100kb"]
    print(f"pyodide_cpu_ms_per_100kb={a:.2f} cpython_cpu_ms_per_100kb={b:.2f} ratio={a / b:.2f}")


if __name__ == "__main__":
    main()
