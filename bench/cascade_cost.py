"""What the cascade of a page's own style sheets costs (a11y.stylesheet.hidden_by_style_sheets
alone), with its sheets new to the process and with them cached, on the first N corpus pages
(bench/README.md, "Issue 31 item 5: the cascade's cost cut").

Run: `uv run python bench/cascade_cost.py [--pages 40] [--rounds 5] [--base SRC] [--instructions]`.
Each child builds the pages' trees as bench/tree_instructions.py does (`page_tree`, the tree's
order and `style_sheets`), then asks each page twice in a row: the first call (its sheets new:
scanned, filed, their selectors parsed) is `uncached`, the second (its sheets cached, as on the
next page of a site that repeats them) is `cached`.

* CPU (default): one child per tree and round, ours and `--base SRC`'s (`PYTHONPATH=SRC`, a copy of
  another tree's `src/`) alternating, `time.process_time()` around each call; the medians of the
  rounds. Last line `uncached_ms_page=.. cached_ms_page=..` (and `base_...`).
* `--instructions`: the same children under `valgrind --tool=cachegrind`, three each (`build`: the
  trees only; `once`: each page asked once; `twice`: asked twice), so `once - build` is the
  uncached calls' instructions and `twice - once` the cached ones'. Last line
  `uncached_minstr_page=.. cached_minstr_page=..` (10^6 instructions a page; and `base_...`).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from cpu_bench import child_env, compile_bytecode_of  # bench/ is on sys.path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "corpus" / "pages"
I_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")
CALLS = {"build": 0, "once": 1, "twice": 2, "time": 2}


def child(mode: str, pages: int) -> None:
    from a11y.stylesheet import hidden_by_style_sheets
    from a11y.tree import Document
    from parse.parity import PARITY_URL, page_files, read_page
    from parse.tree_builder import page_tree

    documents = []
    for path in page_files(CORPUS)[:pages]:
        tree = page_tree(read_page(path), PARITY_URL)[1]
        documents.append((Document(tree.root, tree.order), tree.style_sheets))
    spent = [0.0, 0.0]  # the first call of each page, the second
    hidden = 0
    for document, sheets in documents:
        for call in range(CALLS[mode]):
            started = time.process_time()
            hidden += len(hidden_by_style_sheets(document, sheets))
            spent[call] += time.process_time() - started
    print(f"hidden={hidden} uncached_s={spent[0]:.6f} cached_s={spent[1]:.6f}")


def run(mode: str, pages: int, src: Path | None, valgrind: bool) -> str:
    # PYTHONPATH: the other tree's src/, before the venv's path to this tree's
    env = {**child_env(), "PYTHONHASHSEED": "0", **({"PYTHONPATH": str(src)} if src else {})}
    script = [sys.executable, str(Path(__file__).resolve()), "--child", mode, "--pages", f"{pages}"]
    cachegrind = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
    ]
    command = [*cachegrind, *script] if valgrind else script
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{mode} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return done.stdout + done.stderr


def instructions(pages: int, src: Path | None) -> tuple[float, float]:
    """Instructions a page (10^6) of the uncached and the cached calls."""
    count = {}
    for mode in ("build", "once", "twice"):
        found = I_REFS.search(run(mode, pages, src, True))
        if found is None:
            sys.exit(f"no instruction count for {mode}")
        count[mode] = int(found.group(1).replace(",", ""))
    uncached = (count["once"] - count["build"]) / 1e6 / pages
    return uncached, (count["twice"] - count["once"]) / 1e6 / pages


def cpu(pages: int, src: Path | None) -> tuple[float, float]:
    """Milliseconds a page of the uncached and the cached calls, in one child."""
    found = re.search(r"uncached_s=([\d.]+) cached_s=([\d.]+)", run("time", pages, src, False))
    if found is None:
        sys.exit("no times from the child")
    return float(found.group(1)) * 1000 / pages, float(found.group(2)) * 1000 / pages


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--child", choices=CALLS, help=argparse.SUPPRESS)
    parser.add_argument("--instructions", action="store_true", help="count with cachegrind")
    parser.add_argument("--base", type=Path, metavar="SRC", help="also run another tree's src/")
    parser.add_argument("--rounds", type=int, default=5, help="CPU rounds (medians)")
    parser.add_argument("--pages", type=int, default=40, help="the first N corpus pages")
    return parser.parse_args()


def main() -> None:
    opts = options()
    if opts.child:
        return child(opts.child, opts.pages)
    # each tree's field prefix and its src/ (None: this tree's)
    kinds: dict[str, Path | None] = {"": None, **({"base_": opts.base} if opts.base else {})}
    compile_bytecode_of([ROOT / "src", *[src for src in kinds.values() if src]])
    line = []
    if opts.instructions:
        for prefix, src in kinds.items():
            uncached, cached = instructions(opts.pages, src)
            line += [f"{prefix}uncached_minstr_page={uncached:.2f}"]
            line += [f"{prefix}cached_minstr_page={cached:.2f}"]
    else:
        found: dict[str, list[tuple[float, float]]] = {prefix: [] for prefix in kinds}
        for round_ in range(opts.rounds):
            order = list(kinds.items()) if round_ % 2 == 0 else list(kinds.items())[::-1]
            for prefix, src in order:
                found[prefix].append(cpu(opts.pages, src))
                uncached, cached = found[prefix][-1]
                print(
                    f"  {prefix or 'ours_'}round{round_}: {uncached:.2f} {cached:.2f}", flush=True
                )
        for prefix, times in found.items():
            line += [f"{prefix}uncached_ms_page={statistics.median(t[0] for t in times):.2f}"]
            line += [f"{prefix}cached_ms_page={statistics.median(t[1] for t in times):.2f}"]
    print(f"pages={opts.pages} " + " ".join(line))


if __name__ == "__main__":
    main()
