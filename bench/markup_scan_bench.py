"""What the crawl's structured-data check costs a page, with and without Microdata or RDFa.

Run: `uv run python bench/markup_scan_bench.py`. Each page of tests/data/corpus/ is parsed as the
crawl parses it (parse.extractor.PageExtractor feeding parse.tree_builder.TreeBuilder, the
page's bytes in one chunk), then, in CPU time (best of `--reps`, CPython):
- `scan`: structured.markup_scan over the page's bytes (what every parsed page pays);
- `check`: what crawl.page_pipeline.checked_structured_data runs after it: `check_page` (the
  Microdata and RDFa walk of the tree, and the validation of all three syntaxes) on a page the
  scan flags, `check_json_ld` (or nothing) on the others;
- `walk`: `check_page` on the pages the scan passes by, which the gate saves them;
- `parse`: the extractor and the tree builder, for scale.
Printed per class of page (flagged, passed by): pages, mean milliseconds of each. The last line
is machine-readable.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src")]

from parse.extractor import PageExtractor
from parse.facts import PageFacts
from parse.parity import page_files, read_page
from parse.tree import Element
from parse.tree_builder import TreeBuilder
from structured.markup_scan import has_markup
from structured.page import PageStructuredData, check_json_ld, check_page

CORPUS = ROOT / "tests" / "data" / "corpus" / "pages"
BASE = "https://corpus.example/page.html"
type Row = tuple[float, float, float, float]  # scan, check, walk, parse (ms)


def best_ms(run: Callable[[], object], reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        started = time.process_time()  # CPU time: the machine may be shared
        run()
        best = min(best, time.process_time() - started)
    return best * 1000


def parsed(body: bytes) -> tuple[PageFacts, Element]:
    tree = TreeBuilder()
    extractor = PageExtractor(BASE, content_type="text/html; charset=utf-8", on_text=tree)
    extractor.feed(body)
    facts = extractor.close()
    return facts, tree.close(truncated=facts.truncated).root


def check_json_ld_blocks(documents: tuple[str, ...]) -> PageStructuredData | None:
    """What the crawl runs on a page the scan passes by: its JSON-LD blocks, if any."""
    return check_json_ld(documents) if documents else None


def measured(body: bytes, reps: int) -> tuple[bool, Row]:
    """Whether the scan flags the page, and its row."""
    facts, root = parsed(body)
    documents = facts.json_ld.documents
    flagged = has_markup(body)
    scan = best_ms(partial(has_markup, body), reps)
    walk = best_ms(partial(check_page, documents, root, BASE), reps)
    json_ld = best_ms(partial(check_json_ld_blocks, documents), reps)
    parse = best_ms(partial(parsed, body), 1)
    return flagged, (scan, walk if flagged else json_ld, walk, parse)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    rows: dict[bool, list[Row]] = {True: [], False: []}
    for path in page_files(CORPUS):
        flagged, row = measured(read_page(path), args.reps)
        rows[flagged].append(row)
    figures = {}
    for flagged, label in ((True, "with"), (False, "without")):
        found = rows[flagged]
        mean = [sum(column) / max(1, len(found)) for column in zip(*found, strict=True)]
        scan, check, walk, parse = mean or [0.0] * 4
        print(
            f"{len(found)} pages {label} Microdata/RDFa: scan {scan:.2f} ms, check {check:.2f} ms"
            f" (walk: {walk:.2f} ms), parse {parse:.2f} ms"
        )
        figures[label] = (len(found), scan, check, walk, parse)
    (n_with, scan_with, check_with, _, parse_with) = figures["with"]
    (n_without, scan_without, check_without, walk_saved, parse_without) = figures["without"]
    print(
        f"pages_with={n_with} scan_ms_with={scan_with:.3f} check_ms_with={check_with:.2f} "
        f"parse_ms_with={parse_with:.2f} pages_without={n_without} "
        f"scan_ms_without={scan_without:.3f} check_ms_without={check_without:.3f} "
        f"walk_ms_saved={walk_saved:.2f} parse_ms_without={parse_without:.2f}"
    )


if __name__ == "__main__":
    main()
