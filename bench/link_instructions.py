"""Instructions per page and per link of a whole `siteaudit audit`, counted by valgrind, so the
figure does not move with the machine's load (issue 29, items 1 and 5).

Run: `uv run python bench/link_instructions.py [--api-pages 60] [--max-pages N] [--base SRC]
[--reps 1]`; `--api-pages 2000 --max-pages 60` audits the first 60 pages of a 2,000-page site,
whose pages link mostly distinct URLs (a small site's pages link the same few dozen again).

One fresh site server per run, in this process (bench/site_server.py serving crawl_bench.py's
`apidocs` site, `ApiDocsSite(N, 40, 900)`: pages shaped like large API documentation, 500-1,640
links a page; no added latency; M is `--max-pages`, N by default), and one child: `valgrind
--tool=cachegrind --cache-sim=no python -m cli.main --state-dir TMP audit URL --max-pages M
--allow-private-hosts --no-check-external` (the command a user runs, every phase: start-up, discovery, the crawl,
finalize and the text report). The server's own work is in this process, so valgrind counts
only the audit's. With `--base SRC` the same command runs again with `PYTHONPATH=SRC` (the `src/`
of a copy of another tree: `git archive main | tar -x -C /tmp/base`), the two alternating.

Instructions are valgrind's `I refs` of the child (every thread). Pages = distinct HTML 200s the
server logged; links = the audit's own counters (its pages' distinct `<a href>`s, read from its
D1 file: crawl_bench.audit_links). Per page and per link divide the whole process's count,
start-up and finalize included. The bytecode is compiled first (this machine may set
PYTHONDONTWRITEBYTECODE, and compiling would otherwise be counted).

Last line: `audit_ginstr=.. audit_instr_page=.. audit_instr_link=.. pages=.. links=..` (with
`--base`, the same `base_` figures and `instr_vs_base=..`, the audit's count over the base's; of
the medians when `--reps` > 1).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cpu_bench import audit_arguments, child_env, compile_bytecode_of  # bench/ is on sys.path
from crawl_bench import API_MODULES, OUT, ROOT, audit_links
from site_server import SiteServer
from synthetic_site import ApiDocsSite

I_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")
# Instructions only (no cache simulation), every thread, no output file.
VALGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null")
CHILD_TIMEOUT_S = 3600


@dataclass(frozen=True)
class Counted:
    kind: str
    instructions: int
    pages: int
    links: int

    def fields(self) -> list[str]:
        return [
            f"{self.kind}_ginstr={self.instructions / 1e9:.3f}",
            f"{self.kind}_instr_page={self.instructions // max(1, self.pages)}",
            f"{self.kind}_instr_link={self.instructions // max(1, self.links)}",
        ]


def counted(kind: str, site: ApiDocsSite, max_pages: int, base: Path | None) -> Counted:
    env = child_env()
    if kind == "base" and base is not None:
        env["PYTHONPATH"] = str(base)  # before the venv's path to this tree's src/
    with SiteServer(generated=site.page) as server, tempfile.TemporaryDirectory(dir=OUT) as tmp:
        command = [
            *VALGRIND,
            sys.executable,
            "-m",
            "cli.main",
            *audit_arguments(server.url("/"), max(2, max_pages), Path(tmp)),
        ]
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT_S
        )
        found = I_REFS.search(done.stderr)
        if done.returncode != 0 or found is None:
            log = OUT / f"link-instructions-{kind}.log"
            log.write_text(done.stdout + done.stderr)
            sys.exit(f"{kind} exited {done.returncode}; see {log}")
        crawled, links = server.distinct_html_200s(), audit_links(Path(tmp))
    return Counted(kind, int(found.group(1).replace(",", "")), crawled, links)


def median_of(runs: list[Counted], kind: str) -> Counted:
    chosen = [run for run in runs if run.kind == kind]
    return Counted(
        kind,
        int(statistics.median(run.instructions for run in chosen)),
        int(statistics.median(run.pages for run in chosen)),
        int(statistics.median(run.links for run in chosen)),
    )


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    args.add_argument("--api-pages", type=int, default=60, help="the apidocs site's pages")
    args.add_argument("--max-pages", type=int, help="the audit's --max-pages (the site's size)")
    args.add_argument("--reps", type=int, default=1)
    args.add_argument(
        "--base", type=Path, metavar="SRC", help="also count the audit of another tree's src/"
    )
    opts = args.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    compile_bytecode_of([ROOT / "src", *([opts.base] if opts.base else [])])
    site = ApiDocsSite(opts.api_pages, *API_MODULES)
    kinds = ["audit"] if opts.base is None else ["audit", "base"]
    max_pages = opts.max_pages or opts.api_pages
    print(
        f"apidocs, {max_pages} of {opts.api_pages} pages; load {os.getloadavg()} (instructions do not move)"
    )
    runs: list[Counted] = []
    for rep in range(opts.reps):
        for kind in kinds if rep % 2 == 0 else kinds[::-1]:
            runs.append(counted(kind, site, max_pages, opts.base))
            run = runs[-1]
            print(
                f"  {kind:5}: {run.instructions:,} instructions, {run.pages} pages, "
                f"{run.links:,} links: {run.instructions // max(1, run.pages):,} a page, "
                f"{run.instructions // max(1, run.links):,} a link",
                flush=True,
            )
    medians = [median_of(runs, kind) for kind in kinds]
    fields = [field for each in medians for field in each.fields()]
    fields += [f"pages={medians[0].pages}", f"links={medians[0].links}"]
    if len(medians) == 2:
        fields.append(f"instr_vs_base={medians[0].instructions / medians[1].instructions:.3f}")
    print(" ".join(fields))


if __name__ == "__main__":
    main()
