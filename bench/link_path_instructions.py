"""Instructions per link of the link path alone: a page's extracted links to the scratchpad's SQL
(issue 29, item 1), counted by valgrind so the figure does not move with the machine's load.

Run: `uv run python bench/link_path_instructions.py [--pages 60] [--robots] [--base SRC]
[--src SRC]` (`--src`: count another copy instead of this tree's `src/`, e.g. a snapshot).

What is counted is what `bench/link_instructions.py` (the whole `siteaudit audit`) cannot tell
apart from parsing and the accessibility rules: for each of `--pages` pages of crawl_bench.py's
`apidocs` site (`ApiDocsSite(2000, 40, 900)`, pages 1..N, which share their module's sidebar as
the first pages of a real audit do), the `<a href>`s and references the extractor streamed
(extracted once, beforehand, in this process, and handed to the child as a pickle) go through
`crawl.page_links.PageLinks` (dedup, routing, the URL policy with its robots.txt), then, in
sub-batches of 5 then 25 pages as the persister writes them (crawl.persister), through one
`RecordBatch` per sub-batch to a local AuditScratchpad over its RPC boundary (durable.rpc) and
into its SQLite. With `--robots`, the policy carries a six-rule robots.txt (the real link-heavy
site's profile matched every link against its rules, issue 29).

Each tree is counted twice by `valgrind --tool=cachegrind`: once up to the first page (imports,
the platform, the scratchpad, the pickle) and once to the end; the difference is the link path.
`PYTHONHASHSEED=0`. With `--base SRC`, the same two counts with `PYTHONPATH=SRC` (the `src/` of
a copy of another tree), so both sides share this script.

Last line: `path_instr_link=.. path_instr_page=.. links=.. pages=..` (with `--base`, the base's
two and `path_vs_base=..`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / ".out"
SITE_PAGES = 2000
ROBOTS_TXT = """User-agent: *
Disallow: /private/
Disallow: /*?sort=
Disallow: /*.pdf$
Allow: /p/*.html
Disallow: /search
Disallow: /tmp/
"""


def extract(pages: int, out: Path) -> int:
    """Each page's `on_links` and `on_references` batches, in order, pickled to `out`."""
    sys.path.insert(0, str(ROOT / "src"))
    sys.path.insert(0, str(BENCH))
    from crawl_bench import API_MODULES
    from synthetic_site import ApiDocsSite

    from parse.extractor import PageExtractor

    site = ApiDocsSite(SITE_PAGES, *API_MODULES)
    calls: list[tuple[str, list[tuple[str, list[object]]]]] = []
    for index in range(1, pages + 1):
        url = f"http://bench.example{site.path_of(index)}"
        page: list[tuple[str, list[object]]] = []
        extractor = PageExtractor(
            url,
            on_links=lambda links, page=page: page.append(("links", list(links))),
            on_references=lambda refs, page=page: page.append(("refs", list(refs))),
        )
        extractor.feed(site.html(index).encode())
        extractor.close()
        calls.append((url, page))
    out.write_bytes(pickle.dumps(calls))
    return sum(len(found) for _, page in calls for kind, found in page if kind == "links")


async def run_path(calls_file: Path, stop_before_pages: bool, robots: bool) -> None:
    """The counted child: the link path of every page (or only its setup)."""
    from crawl.page_links import PageLinks
    from crawl.robots import RobotsRules
    from crawl.url_policy import UrlPolicy
    from durable.client import Scratchpad
    from durable.records import DiscoveredUrl, LeasedUrl, RecordBatch
    from local_platform.runtime import LocalPlatform

    calls = pickle.loads(calls_file.read_bytes())
    rules = RobotsRules.from_text(ROBOTS_TXT) if robots else None
    policy = UrlPolicy("http://bench.example/", robots=rules)
    with tempfile.TemporaryDirectory(dir=OUT) as state:
        platform = LocalPlatform(Path(state), var_overrides={"ALLOW_PRIVATE_HOSTS": "loopback"})
        try:
            pad = Scratchpad.for_audit(platform.env, "link-path-bench")
            await pad.record_batch(RecordBatch(crawled=()))  # the scratchpad's schema, made
            if stop_before_pages:
                return
            batch: list[PageLinks] = []
            size = 5  # crawl.persister: a first sub-batch of 5 pages, then 25s
            for url, page in calls:
                links = PageLinks(policy, LeasedUrl(url, 1, False))
                for kind, found in page:
                    (links.add_links if kind == "links" else links.add_references)(found)
                batch.append(links)
                if len(batch) == size or url == calls[-1][0]:
                    firsts: dict[str, DiscoveredUrl] = {}
                    for each in batch:
                        for item in each.discovered:
                            firsts.setdefault(item.url, item)
                    record = RecordBatch(
                        links=tuple(row for each in batch for row in each.rows),
                        discovered=tuple(firsts.values()),
                        fragment_links=tuple(f for each in batch for f in each.fragments),
                    )
                    await pad.record_batch(record)
                    batch, size = [], 25
        finally:
            await platform.close()


def counted(calls_file: Path, src: Path, stop: bool, robots: bool) -> int:
    from link_instructions import I_REFS, VALGRIND  # bench/ is on sys.path; not in the child

    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(src)}
    command = [
        *VALGRIND,
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        str(calls_file),
        *(["--stop"] if stop else []),
        *(["--robots"] if robots else []),
    ]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    found = I_REFS.search(done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"child exited {done.returncode}:\n{done.stdout}{done.stderr[-3000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--pages", type=int, default=60)
    args.add_argument("--robots", action="store_true", help="a six-rule robots.txt")
    args.add_argument("--base", type=Path, metavar="SRC", help="also count another tree's src/")
    args.add_argument("--src", type=Path, help="count this src/ instead of this tree's")
    args.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args.add_argument("--stop", action="store_true", help=argparse.SUPPRESS)
    opts = args.parse_args()
    if opts.child is not None:
        asyncio.run(run_path(opts.child, opts.stop, opts.robots))
        return
    OUT.mkdir(parents=True, exist_ok=True)
    src = opts.src or ROOT / "src"
    folders = [str(src), *([str(opts.base)] if opts.base else [])]
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", *folders], check=True)
    with tempfile.TemporaryDirectory(dir=OUT) as tmp:
        calls_file = Path(tmp) / "calls.pickle"
        links = extract(opts.pages, calls_file)
        print(f"apidocs pages 1-{opts.pages} of {SITE_PAGES}: {links:,} links", flush=True)
        fields = []
        kinds = [("path", src), *([("base", opts.base)] if opts.base else [])]
        paths = {}
        for kind, tree in kinds:
            whole = counted(calls_file, tree, False, opts.robots)
            setup = counted(calls_file, tree, True, opts.robots)
            paths[kind] = whole - setup
            print(f"  {kind}: {whole:,} - {setup:,} = {paths[kind]:,} instructions", flush=True)
            per_link, per_page = paths[kind] // links, paths[kind] // opts.pages
            fields += [f"{kind}_instr_link={per_link}", f"{kind}_instr_page={per_page}"]
    fields += [f"links={links}", f"pages={opts.pages}"]
    if opts.base:
        fields.append(f"path_vs_base={paths['path'] / paths['base']:.3f}")
    print(" ".join(fields))


if __name__ == "__main__":
    main()
