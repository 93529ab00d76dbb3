"""`siteaudit` as a separate process, and an audit whose process is killed outright mid-crawl."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", *args]


def started(*args: str, stderr: int = subprocess.PIPE) -> subprocess.Popen[str]:
    """`siteaudit ARGS` running in the background, its output unbuffered, read as text."""
    return subprocess.Popen(
        cli(*args),
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def audit_killed_midway(state_dir: Path, url: str, min_pages: int) -> str:
    """Start `siteaudit audit URL` and SIGKILL it once it reports `min_pages` crawled pages; the
    audit stays `running` in the state folder (nothing ran its error handling). Returns its id."""
    with started("--state-dir", str(state_dir), "audit", url, "--allow-private-hosts") as run:
        assert run.stdout is not None and run.stderr is not None
        audit_id = run.stdout.readline().split()[1]
        for line in run.stderr:  # progress lines: "  crawling: N pages crawled"
            if "crawling" in line and int(line.split(":")[1].split()[0]) >= min_pages:
                break
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=30)
    return audit_id
