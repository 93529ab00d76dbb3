"""One measured child process for the benchmarks: its exit status, wall time and own rusage.

A benchmark that compares crawlers runs each in its own process, so peak memory is that process's
alone: `os.wait4` returns the child's `ru_maxrss` and CPU time (user + system), which
`subprocess.run` discards. A timer kills a child that hangs, so a broken run cannot stall the
benchmark; the caller decides what a non-zero exit means.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ChildRun:
    exit_status: int
    wall_s: float  # from the start of the process to its end, as seen by the parent
    peak_mb: float  # the child's own ru_maxrss
    cpu_s: float  # the child's user + system CPU time
    stdout: str  # "" unless captured


def run_measured(
    command: Sequence[str],
    log: Path,
    *,
    timeout_s: float,
    cwd: Path,
    capture_stdout: bool = False,
) -> ChildRun:
    """Run `command`, stderr (and stdout unless captured) to `log`; killed after `timeout_s`."""
    start = time.perf_counter()
    with open(log, "w") as log_file:
        child = subprocess.Popen(
            list(command),
            stdout=subprocess.PIPE if capture_stdout else log_file,
            stderr=log_file if capture_stdout else subprocess.STDOUT,
            text=True,
            cwd=cwd,
        )
        killer = threading.Timer(timeout_s, child.kill)
        killer.start()
        try:
            # Read to EOF before waiting, or a child writing more than a pipe holds would block.
            stdout = child.stdout.read() if child.stdout is not None else ""
            _, status, usage = os.wait4(child.pid, 0)
        finally:
            killer.cancel()
    child.returncode = os.waitstatus_to_exitcode(status)
    return ChildRun(
        exit_status=child.returncode,
        wall_s=time.perf_counter() - start,
        peak_mb=usage.ru_maxrss / 1024,
        cpu_s=usage.ru_utime + usage.ru_stime,
        stdout=stdout,
    )
