"""Library detection cost: retire.js content patterns over script bodies, and the data's load.

Run: `uv run python bench/retire_bench.py`. Measures (CPython; Pyodide is slower by its usual
factor, see pyodide_cpu_bench.py) the time to parse the compacted repository and compile every
pattern once per isolate, then `scan_content` over synthetic minified-looking scripts of 100 KB
and 512 KB (the per-script cap) built from tokens the patterns look for, so their candidate
positions are plenty, and the bytes per second that implies for the per-audit content budget.
The last line is machine-readable.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src")]

from common.settings import EXPOSURE
from exposure.libraries import scan_content
from exposure.retire_data import repository

TOKENS = [
    "function",
    "var ",
    "return ",
    "this.",
    "e",
    "t",
    "n",
    "=",
    "(",
    ")",
    "{",
    "}",
    ";",
    ",",
    '"1.2.3"',
    "jquery:",
    "version",
    "f=",
    "m=",
    ".fn",
    ".prototype",
    "\n",
    " ",
    "/*!",
    "*/",
]


def script(size: int) -> str:
    rng = random.Random(size)
    pieces, length = [], 0
    while length < size:
        token = rng.choice(TOKENS)
        pieces.append(token)
        length += len(token)
    return "".join(pieces)


def timed(action: object) -> float:
    started = time.perf_counter()
    action()  # type: ignore[operator]
    return time.perf_counter() - started


def main() -> None:
    repository.cache_clear()
    load_s = timed(
        lambda: [(lib.filecontent, lib.filecontentreplace) for lib in repository().libraries]
    )
    print(f"load and compile: {load_s * 1000:.0f} ms")
    figures = {"load_ms": round(load_s * 1000)}
    for label, size in (("100k", 100_000), ("512k", 512 * 1024)):
        body = script(size)
        seconds = min(timed(lambda body=body: scan_content(body, "bench.js")) for _ in range(3))
        print(f"scan_content {label}: {seconds * 1000:.0f} ms ({size / seconds / 1e6:.2f} MB/s)")
        figures[f"scan_ms_{label}"] = round(seconds * 1000)
    rate = 512 * 1024 / (figures["scan_ms_512k"] / 1000)
    figures["budget_s"] = round(EXPOSURE.script_budget_bytes / rate, 1)  # type: ignore[assignment]
    print(" ".join(f"{key}={value}" for key, value in figures.items()))


if __name__ == "__main__":
    main()
