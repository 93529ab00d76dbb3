"""Structured-data checking cost: the schema.org vocabulary's load, and validation per page.

Run: `uv run python bench/structured_bench.py`. Measures (CPython; Pyodide is slower by its usual
factor, see pyodide_cpu_bench.py) the time and traced memory to parse the compacted vocabulary
(`structured/data/schemaorg.json`) once per isolate, then `validate` and `rich_results.evaluate`
over the JSON-LD sections of schema.org's own examples (data/schemaorg/, each read with `json`,
no extruct) repeated `--reps` times: the time a page's structured data costs. The last line is
machine-readable.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src")]

from structured.nodes import Graph, from_json_ld
from structured.rich_results import evaluate
from structured.validate import validate
from structured.vocabulary import COMPACT_PATH, Vocabulary

EXAMPLES = ROOT / "data" / "schemaorg" / "schemaorg-all-examples.txt.gz"
_SCRIPT = re.compile(r'<script type="application/ld\+json">(.*?)</script>', re.DOTALL)


def load() -> tuple[Vocabulary, float, float]:
    tracemalloc.start()
    started = time.perf_counter()
    vocab = Vocabulary(json.loads(COMPACT_PATH.read_text(encoding="utf-8")))
    load_ms = (time.perf_counter() - started) * 1000
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return vocab, load_ms, peak / 2**20


def example_graphs() -> list[Graph]:
    text = gzip.decompress(EXAMPLES.read_bytes()).decode("utf-8")
    graphs = []
    for body in _SCRIPT.findall(text):
        try:
            graphs.append(from_json_ld([json.loads(body)]))
        except ValueError:
            continue  # a section with a placeholder, not JSON
    return graphs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    vocab, load_ms, peak_mb = load()
    graphs = example_graphs()
    nodes = sum(len(g.roots) for g in graphs)
    started = time.perf_counter()
    for _ in range(args.reps):
        for graph in graphs:
            validate(graph, vocab)
            evaluate(graph, vocab)
    elapsed = time.perf_counter() - started
    per_page_us = elapsed / (args.reps * len(graphs)) * 1e6
    print(f"vocabulary: {len(vocab.classes)} classes, {len(vocab.properties)} properties")
    print(f"load: {load_ms:.0f} ms, {peak_mb:.1f} MB traced at peak")
    print(f"examples: {len(graphs)} JSON-LD pages, {nodes} top-level items, {args.reps} reps")
    print(f"validate + rich results: {per_page_us:.0f} us a page")
    print(f"load_ms={load_ms:.0f} vocab_peak_mb={peak_mb:.1f} us_per_page={per_page_us:.0f}")


if __name__ == "__main__":
    main()
