"""`siteaudit` as a separate process, as a user runs it: one command, `serve` on a free loopback
port, and an audit whose process is killed outright mid-crawl."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", *args]


def siteaudit(
    *args: str, state_dir: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cli("--state-dir", str(state_dir), *args),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


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


@dataclass(frozen=True, slots=True)
class ServeBanner:
    """What `siteaudit serve` prints first: the API's and the app's addresses, a sign-in link."""

    api: str  # http://127.0.0.1:PORT/api/audits
    app: str  # http://127.0.0.1:PORT/
    sign_in_link: str  # http://127.0.0.1:PORT/#key=...

    @property
    def key(self) -> str:
        return self.sign_in_link.partition("#key=")[2]


@contextmanager
def serving(state_dir: Path, *options: str) -> Iterator[ServeBanner]:
    """Serve the state in `state_dir` with private hosts allowed (and `serve`'s `options`); yields
    what it printed and stops the server afterwards."""
    argv = ["--state-dir", str(state_dir), "serve", "--port", "0", "--allow-private-hosts"]
    argv += options
    with started(*argv, stderr=subprocess.DEVNULL) as server:
        try:
            assert server.stdout is not None
            lines = [server.stdout.readline().split()[-1] for _ in range(4)]
            yield ServeBanner(lines[0], lines[1], lines[3])
        finally:
            server.terminate()
            server.wait(timeout=10)


@contextmanager
def running_serve(state_dir: Path, *options: str) -> Iterator[str]:
    """`serving`, yielding only the audits URL (http://127.0.0.1:PORT/api/audits)."""
    with serving(state_dir, *options) as banner:
        yield banner.api


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
