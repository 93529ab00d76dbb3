"""Instructions of the parse's three layers over corpus pages, counted by valgrind, so the figure
does not move with the machine's load (issue 31, item 5; bench/README.md "Issue 31, item 5").

Run: `uv run python bench/tree_instructions.py [--pages 40] [--base SRC]`. One child per layer,
each `valgrind --tool=cachegrind --cache-sim=no python bench/tree_instructions.py --child MODE`
over the first N pages of tests/data/corpus/pages (parse.parity's order), every page parsed as
parse_bench.py parses it:

* `none`: the imports and reading the pages, nothing parsed (subtracted from the others);
* `ex`: the streaming extractor (`PageExtractor`), facts built;
* `tree`: the extractor and the element tree (`parse.tree_builder.page_tree`, as the crawl);
* `rules`: that, then `a11y.rules.audit` on the tree (with its `order`, as the crawl passes it,
  where the tree has one);
* `page`: the crawl's whole work on a page whose body came whole (`crawl.page_stream.
  process_response`: the parse with its link and reference sinks, the byte caps and the
  Microdata/RDFa scan the crawl sets, the rules, the observation assembled).

So `ex` is the extractor's cost, `tree - ex` the tree's, `rules - tree` the rules' and
`page - none` all the crawl spends on a page. With
`--base SRC` (the `src/` of another tree: `git archive main src | tar -x -C /tmp/base`) the
same children run with `PYTHONPATH=SRC`, alternating with ours.

Last line: `ex_ginstr=.. tree_ginstr=.. rules_ginstr=..` (each layer's own count, in 10^9
instructions), `total_ginstr=..` (their sum) and `page_ginstr=..`; with `--base`, the same
`base_` figures and `tree_vs_base`, `rules_vs_base`, `total_vs_base`, `page_vs_base` (ours
over the base's).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

from cpu_bench import child_env, compile_bytecode_of  # bench/ is on sys.path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "corpus" / "pages"
I_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")
MODES = ("none", "ex", "tree", "rules", "page")
CHILD_TIMEOUT_S = 3600


def child(mode: str, pages: int) -> None:
    """The measured work (imports first, in every mode, so `none` subtracts them)."""
    from a11y.rules import audit
    from common.ports import FetchResult
    from crawl.page_pipeline import CrawlScope
    from crawl.page_stream import process_response
    from crawl.url_policy import UrlPolicy
    from durable.records import LeasedUrl
    from parse.extractor import PageExtractor
    from parse.parity import PARITY_URL, page_files, read_page
    from parse.tree_builder import page_tree
    from urls.private_hosts import PrivateHosts

    scope = CrawlScope("bench", UrlPolicy(PARITY_URL, private_hosts=PrivateHosts.ALLOW), True)
    leased, html = LeasedUrl(PARITY_URL, 0, False), {"content-type": "text/html"}
    for page in [read_page(p) for p in page_files(CORPUS)[:pages]]:
        if mode == "ex":
            extractor = PageExtractor(PARITY_URL)
            extractor.feed(page)
            extractor.close()
        elif mode == "tree":
            page_tree(page, PARITY_URL)
        elif mode == "rules":
            tree = page_tree(page, PARITY_URL)[1]
            # with the tree's document order, as the crawl passes it, where the tree has one
            order = getattr(tree, "order", None)
            sheets = getattr(tree, "style_sheets", None)  # a base from before them has none
            if sheets is not None:
                audit(tree.root, order, sheets)
            else:
                audit(tree.root) if order is None else audit(tree.root, order)
        elif mode == "page":
            result = FetchResult(PARITY_URL, 200, html, page, False, 1.0)
            process_response(scope, leased, result)


def counted(mode: str, pages: int, src: Path | None) -> int:
    env = child_env()
    if src is not None:
        env["PYTHONPATH"] = str(src)  # before the venv's path to this tree's src/
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        mode,
        "--pages",
        str(pages),
    ]
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT_S
    )
    found = I_REFS.search(done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"{mode} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def layers(counts: dict[str, int]) -> dict[str, int]:
    """Each layer's own instructions: the extractor, the tree over it, the rules over that."""
    return {
        "ex": counts["ex"] - counts["none"],
        "tree": counts["tree"] - counts["ex"],
        "rules": counts["rules"] - counts["tree"],
    }


def fields(prefix: str, own: dict[str, int], page: int) -> list[str]:
    found = [f"{prefix}{layer}_ginstr={count / 1e9:.3f}" for layer, count in own.items()]
    total = f"{prefix}total_ginstr={sum(own.values()) / 1e9:.3f}"
    return [*found, total, f"{prefix}page_ginstr={page / 1e9:.3f}"]


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--pages", type=int, default=40, help="the first N corpus pages")
    args.add_argument("--base", type=Path, metavar="SRC", help="also count another tree's src/")
    args.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    opts = args.parse_args()
    if opts.child is not None:
        child(opts.child, opts.pages)
        return
    compile_bytecode_of([ROOT / "src", *([opts.base] if opts.base else [])])
    kinds: dict[str, Path | None] = {"ours": None}
    if opts.base is not None:
        kinds["base"] = opts.base
    counts: dict[str, dict[str, int]] = {kind: {} for kind in kinds}
    for mode in MODES:
        for kind, src in kinds.items():
            counts[kind][mode] = counted(mode, opts.pages, src)
            print(f"  {kind:4} {mode:5}: {counts[kind][mode]:,} instructions", flush=True)
    ours, page = layers(counts["ours"]), counts["ours"]["page"] - counts["ours"]["none"]
    line = fields("", ours, page)
    if "base" in counts:
        base = layers(counts["base"])
        base_page = counts["base"]["page"] - counts["base"]["none"]
        line += fields("base_", base, base_page)
        line += [f"{layer}_vs_base={ours[layer] / base[layer]:.3f}" for layer in ("tree", "rules")]
        line.append(f"total_vs_base={sum(ours.values()) / sum(base.values()):.3f}")
        line.append(f"page_vs_base={page / base_page:.3f}")
    print(f"pages={opts.pages} " + " ".join(line))


if __name__ == "__main__":
    main()
