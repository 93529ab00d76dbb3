"""Microdata and RDFa extraction cost per page, over the 128 corpus pages' element trees.

Run: `uv run python bench/markup_extraction_bench.py`. Each page of tests/data/corpus/ is parsed
into the element tree by html5lib (tests/a11y/html_tree.py; not timed: the crawl's tree will come
from the streaming parser), then `structured.microdata.extract_microdata` and
`structured.rdfa.extract_rdfa` are timed on it, best of `--reps`, CPython (Pyodide is slower by
its usual factor, see pyodide_cpu_bench.py). Printed: the mean and the slowest page, the rate in
MB of HTML a second, how many pages `markup.MAX_WORK` cut short, and the traced memory of the
slowest page's readings. The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for entry in (ROOT, ROOT / "src"):
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))

from parse.tree import Element
from structured.microdata import extract_microdata
from structured.rdfa import extract_rdfa
from tests.a11y.html_tree import parse

CORPUS = ROOT / "tests" / "data" / "corpus" / "pages"
BASE = "https://corpus.example/page.html"


def read_both(root: Element) -> tuple[int, bool]:
    """Both readings of one tree: how many items and nodes, and whether either was cut."""
    microdata = extract_microdata(root, BASE)
    rdfa = extract_rdfa(root, BASE)
    return len(microdata.items) + len(rdfa.nodes), microdata.truncated or rdfa.truncated


def best_seconds(root: Element, reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        started = time.perf_counter()
        read_both(root)
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    pages = sorted(CORPUS.glob("*.html.gz"))
    total_bytes = 0
    times: list[tuple[float, str, Element]] = []
    found = truncated = 0
    for path in pages:
        html = gzip.decompress(path.read_bytes())
        total_bytes += len(html)
        root = parse(html.decode("utf-8", "replace"))
        count, cut = read_both(root)
        found += count
        truncated += cut
        times.append((best_seconds(root, args.reps), path.name[:12], root))
    total = sum(t for t, _, _ in times)
    slowest, slowest_name, slowest_root = max(times, key=lambda t: t[0])
    tracemalloc.start()
    read_both(slowest_root)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    mean_ms = total / len(times) * 1000
    mb_s = total_bytes / 2**20 / total
    print(f"pages: {len(pages)}, {total_bytes / 2**20:.1f} MB of HTML, {args.reps} reps (best)")
    print(f"items and RDFa nodes found: {found}; pages cut by the work bound: {truncated}")
    print(f"mean {mean_ms:.2f} ms a page; slowest {slowest * 1000:.2f} ms ({slowest_name})")
    print(f"rate {mb_s:.1f} MB/s of HTML; slowest page's readings {peak / 2**20:.2f} MB traced")
    print(
        f"pages={len(pages)} mean_ms={mean_ms:.2f} max_ms={slowest * 1000:.2f} "
        f"mb_per_s={mb_s:.1f} peak_mb={peak / 2**20:.2f} truncated={truncated}"
    )


if __name__ == "__main__":
    main()
