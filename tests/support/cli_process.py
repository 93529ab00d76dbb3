"""The `siteaudit` command as a separate process, as a user runs it: one command, or `serve` on a
free loopback port."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def siteaudit(*args: str, state_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", "--state-dir", str(state_dir), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


@contextmanager
def running_serve(state_dir: Path) -> Iterator[str]:
    """Serve the state in `state_dir` with private hosts allowed; yields the audits URL
    (http://127.0.0.1:PORT/api/audits) and stops the server afterwards."""
    argv = ["--state-dir", str(state_dir), "serve", "--port", "0", "--allow-private-hosts"]
    server = subprocess.Popen(
        [sys.executable, "-m", "cli.main", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    with server:
        try:
            assert server.stdout is not None
            yield server.stdout.readline().split()[-1]
        finally:
            server.terminate()
            server.wait(timeout=10)
