"""Parsing throughput and memory over the page corpus: our extractor vs html5lib vs stdlib.

Run: `uv run python bench/parse_bench.py [CORPUS_DIR] [--repeats N] [--tree]`. Prints MB/s
(median of repeats, MB = 10^6 bytes of HTML) for
* extractor: `PageExtractor`, each page fed whole (it slices internally), facts built;
* with `--tree`, also extractor+tree: the extractor handing its decoded text to
  `parse.tree_builder.TreeBuilder` (the crawl's page stream), and extractor+tree+rules: that and
  the accessibility rules (`a11y.rules.audit`) on the tree, as the crawl runs them;
* html5lib: the reference (html5lib parse + the same extraction from the tree);
* stdlib: `html.parser.HTMLParser` with empty handlers over the page decoded as UTF-8,
and the tracemalloc peak of extracting the largest page, and of that page repeated 10 times, both
fed in 64 KiB chunks with the byte cap raised so nothing is truncated; then the link-heavy pages
of `synthetic_site.ApiDocsSite` (every 13th of 2,000: 154 pages, 343-486 links each) extracted as
the crawl extracts them, with `on_links` and `on_references` sinks: CPU microseconds a link.
Times are the process's CPU time (`time.process_time`), so other load on a shared machine moves
them less than it moves wall time. The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic_site import ApiDocsSite

from a11y.rules import audit
from parse.extractor import PageExtractor
from parse.parity import PARITY_URL, page_files, read_page
from parse.reference import reference_facts
from parse.tree_builder import page_tree

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus" / "pages"
CHUNK = 64 * 1024


def run_extractor(page: bytes) -> None:
    extractor = PageExtractor(PARITY_URL)
    extractor.feed(page)
    extractor.close()


def run_tree(page: bytes) -> None:
    page_tree(page, PARITY_URL)


def run_tree_rules(page: bytes) -> None:
    tree = page_tree(page, PARITY_URL)[1]
    # with the tree's document order and its style sheets, as the crawl passes them
    audit(tree.root, tree.order, tree.style_sheets)


def link_heavy_pages() -> list[tuple[str, bytes]]:
    site = ApiDocsSite(2000)
    return [
        (f"http://127.0.0.1:8000{site.path_of(i)}", site.html(i).encode())
        for i in range(0, 2000, 13)
    ]


def us_per_link(pages: list[tuple[str, bytes]], repeats: int) -> tuple[float, int]:
    """Median CPU microseconds a streamed link over `pages`, and the links a pass streams."""
    count = 0

    def sink(items: list[object]) -> None:
        nonlocal count
        count += len(items)

    times = []
    for _ in range(repeats):
        count = 0
        gc.collect()
        start = time.process_time()
        for url, page in pages:
            extractor = PageExtractor(url, on_links=sink, on_references=sink)
            extractor.feed(page)
            extractor.close()
        times.append(time.process_time() - start)
    return statistics.median(times) / count * 1e6, count


def run_reference(page: bytes) -> None:
    reference_facts(page, PARITY_URL)


def run_stdlib(page: bytes) -> None:
    parser = HTMLParser()
    parser.feed(page.decode("utf-8", "replace"))
    parser.close()


def throughput(run: Callable[[bytes], None], pages: list[bytes], repeats: int) -> float:
    """Median MB/s of `repeats` passes over all pages."""
    total = sum(map(len, pages))
    rates = []
    for _ in range(repeats):
        gc.collect()
        start = time.process_time()
        for page in pages:
            run(page)
        rates.append(total / (time.process_time() - start) / 1e6)
    return statistics.median(rates)


def peak_mb(page: bytes) -> float:
    """tracemalloc peak (MB) of extracting `page` fed in 64 KiB chunks, uncapped."""
    gc.collect()
    tracemalloc.start()
    extractor = PageExtractor(PARITY_URL, max_bytes=len(page) + 1)
    for start in range(0, len(page), CHUNK):
        extractor.feed(page[start : start + CHUNK])
    extractor.close()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6


def main() -> None:
    args = argparse.ArgumentParser()
    args.add_argument("corpus", nargs="?", type=Path, default=CORPUS)
    args.add_argument("--repeats", type=int, default=5)
    args.add_argument("--tree", action="store_true", help="also the tree, and the a11y rules")
    opts = args.parse_args()
    pages = [read_page(p) for p in page_files(opts.corpus)]
    print(f"pages={len(pages)} bytes={sum(map(len, pages))}")
    throughput(run_extractor, pages, 1)  # warm-up (imports, regex caches)
    # The machines are shared and noisy: alternate the contenders and take medians of each and
    # of the per-round ratios, so drift hits all of them alike.
    ours, stdlib, html5, vs_stdlib, vs_html5 = [], [], [], [], []
    tree, rules = [], []
    for round_ in range(opts.repeats):
        ours.append(throughput(run_extractor, pages, 1))
        if opts.tree:
            tree.append(throughput(run_tree, pages, 1))
            rules.append(throughput(run_tree_rules, pages, 1))
        stdlib.append(throughput(run_stdlib, pages, 1))
        vs_stdlib.append(ours[-1] / stdlib[-1])
        if round_ < max(1, opts.repeats // 2):
            html5.append(throughput(run_reference, pages, 1))
            vs_html5.append(ours[-1] / html5[-1])
    print(f"extractor {statistics.median(ours):8.2f} MB/s")
    if opts.tree:
        print(f"extractor+tree {statistics.median(tree):8.2f} MB/s")
        print(f"extractor+tree+rules {statistics.median(rules):8.2f} MB/s")
    print(f"html5lib  {statistics.median(html5):8.2f} MB/s")
    print(f"stdlib    {statistics.median(stdlib):8.2f} MB/s")
    largest = max(pages, key=len)
    peak_one = statistics.median(peak_mb(largest) for _ in range(3))
    peak_ten = statistics.median(peak_mb(largest * 10) for _ in range(3))
    peak_forty = peak_mb(largest * 40)
    print(
        f"largest page {len(largest)} bytes: peak {peak_one:.2f} MB; x10 {peak_ten:.2f} MB; "
        f"x40 {peak_forty:.2f} MB (the x10 page has 10x the headings and meta tags to keep)"
    )
    link_us, links = us_per_link(link_heavy_pages(), opts.repeats)
    print(f"link-heavy pages: {link_us:.2f} us CPU a link ({links} links a pass)")
    tree_keys = ""
    if opts.tree:
        html5_mbs = statistics.median(html5)
        tree_keys = (
            f"tree_vs_html5lib={statistics.median(tree) / html5_mbs:.2f} "
            f"tree_rules_vs_html5lib={statistics.median(rules) / html5_mbs:.2f} "
            f"tree_cost={statistics.median(ours) / statistics.median(tree):.2f} "
        )
    print(
        f"{tree_keys}speedup_vs_html5lib={statistics.median(vs_html5):.2f} "
        f"vs_stdlib_tokenizer={statistics.median(vs_stdlib):.2f} "
        f"peak_mb_largest={peak_one:.2f} peak_mb_10x={peak_ten:.2f} us_per_link={link_us:.2f}"
    )


if __name__ == "__main__":
    main()
