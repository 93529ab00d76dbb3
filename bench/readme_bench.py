"""From the README to the demo's report: how long a newcomer waits (issue 27, "Done when").

The README tells a newcomer to run two commands in a fresh clone before reading a report:

    uv sync --frozen
    uv run siteaudit demo

This script does exactly that, in a fresh `git clone` of this repository (a clean tree: no
`.venv`, no state dir, no report), timing each command as one child process from outside, the way
a person waits for it. It then checks what the newcomer gets: `siteaudit-demo.html` exists and its
first screen (the document before the first issue group) holds the verdict and a non-empty "Fix
first" list.

What a fresh machine adds is not measured: downloading uv and Python, and uv's package downloads
(uv's cache is warm here; with a cold cache `uv sync` downloads about 60 MB of wheels, which takes
as long as the network does). `--runs N` repeats the two commands in N fresh clones and reports
the median.

    uv run python bench/readme_bench.py [--runs 3]

Last line: `key=value ...` (seconds).
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from child_process import run_measured  # bench/ is on sys.path (script folder)

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = (("uv", "sync", "--frozen"), ("uv", "run", "siteaudit", "demo"))
TIMEOUT_S = 600.0
BUDGET_S = 60.0  # the promise: a report in under a minute
FIRST_SCREEN = re.compile(r'<h3 id="first-h">Fix first</h3><ol class="actions"><li')


@dataclass(frozen=True)
class Run:
    sync_s: float
    demo_s: float

    @property
    def total_s(self) -> float:
        return self.sync_s + self.demo_s


def one_run(workdir: Path) -> Run:
    clone = workdir / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    times = []
    for command in COMMANDS:
        run = run_measured(command, workdir / "log.txt", timeout_s=TIMEOUT_S, cwd=clone)
        if run.exit_status != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{(workdir / 'log.txt').read_text()}")
        times.append(run.wall_s)
    check_report(clone / "siteaudit-demo.html")
    return Run(*times)


def check_report(path: Path) -> None:
    """The newcomer's first screen says what to fix first (a ranked list with an item)."""
    html = path.read_text()
    first_screen = html.split('id="type-', 1)[0]
    if not FIRST_SCREEN.search(first_screen):
        raise SystemExit(f"{path}: the first screen has no ranked 'Fix first' list")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    runs = []
    for n in range(args.runs):
        workdir = Path(tempfile.mkdtemp(prefix="readme-bench-"))
        try:
            run = one_run(workdir)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        runs.append(run)
        print(
            f"run {n + 1}: uv sync {run.sync_s:.1f} s, siteaudit demo {run.demo_s:.1f} s, "
            f"total {run.total_s:.1f} s"
        )
    sync = statistics.median(r.sync_s for r in runs)
    demo = statistics.median(r.demo_s for r in runs)
    total = statistics.median(r.total_s for r in runs)
    verdict = "within" if total < BUDGET_S else "OVER"
    print(
        f"median of {len(runs)}: {total:.1f} s from a fresh clone to the report ({verdict} {BUDGET_S:.0f} s)"
    )
    print(f"sync_s={sync:.2f} demo_s={demo:.2f} total_s={total:.2f} budget_s={BUDGET_S:.0f}")


if __name__ == "__main__":
    main()
