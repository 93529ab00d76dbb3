"""One measured child process for the benchmarks: its exit status, wall time and own rusage.

A benchmark that compares crawlers runs each in its own process, so peak memory is that process's
alone: `os.wait4` returns the child's `ru_maxrss` and CPU time (user + system), which
`subprocess.run` discards. A timer kills a child that hangs, so a broken run cannot stall the
benchmark; the caller decides what a non-zero exit means.

Caveat: on Linux a child's `ru_maxrss` is at least the parent's own peak RSS, because exec folds
the high-water mark of the memory it replaces (the parent's, when Python spawns with vfork) into
the child's. A parent that stays small (serving small pages) does not matter; one that grows (the
site server building 2-3 MB pages for crawl_bench.py) does, so a child of ours reports its own
peak with `own_peak_mb()`, which reads the VmHWM of its own address space.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ChildRun:
    exit_status: int
    wall_s: float  # from the start of the process to its end, as seen by the parent
    peak_mb: float  # the child's ru_maxrss (see the caveat above)
    cpu_s: float  # the child's user + system CPU time
    stdout: str  # "" unless captured


def run_measured(
    command: Sequence[str],
    log: Path,
    *,
    timeout_s: float,
    cwd: Path,
    capture_stdout: bool = False,
    env: Mapping[str, str] | None = None,
) -> ChildRun:
    """Run `command`, stderr (and stdout unless captured) to `log`; killed after `timeout_s`;
    in `env` when given (else this process's environment)."""
    start = time.perf_counter()
    with open(log, "w") as log_file:
        child = subprocess.Popen(
            list(command),
            stdout=subprocess.PIPE if capture_stdout else log_file,
            stderr=log_file if capture_stdout else subprocess.STDOUT,
            text=True,
            cwd=cwd,
            env=None if env is None else dict(env),
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


def own_peak_mb() -> float:
    """This process's peak RSS since its exec (VmHWM), in MB; ru_maxrss where /proc is missing."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def json_child(
    script: Path, args: Sequence[str], out: Path, src: Path | None, env: Mapping[str, str]
) -> object:
    """What a comparing script's child wrote: `script --child OUT ARGS` run with `env`, and
    `PYTHONPATH=SRC` when given (another tree's `src/`, before this tree's), then OUT's JSON."""
    import json
    import sys

    env = {**env, "PYTHONPATH": str(src)} if src is not None else dict(env)
    command = [sys.executable, str(script), "--child", str(out), *args]
    subprocess.run(command, cwd=script.parent.parent, env=env, check=True)
    return json.loads(out.read_text())
