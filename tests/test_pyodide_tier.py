"""The Pyodide tier (tests/pyodide/, see its README) as one test: runs `tests/pyodide/run.sh`.

Skips only when Node >= 22.5 or the tier's fetched artefacts (npm `pyodide`, the wheels of
wheels.txt) are missing, naming the setup step; any failure reports the tier's own output.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

TIER = Path(__file__).parent / "pyodide"
ROOT = TIER.parent.parent


def _node() -> str | None:
    local = ROOT / "node_modules" / ".bin" / "node"  # Node 22 from the root package.json
    return str(local) if local.exists() else shutil.which("node")


def _missing() -> str | None:
    node = _node()
    if node is None:
        return "Node >= 22.5 is not installed (run `npm ci` at the repository root)"
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    major, minor = (int(x) for x in re.findall(r"\d+", version)[:2])
    if (major, minor) < (22, 5):
        return f"the Pyodide tier needs Node >= 22.5 (node:sqlite); found {version}"
    if not (TIER / "node_modules" / "pyodide" / "pyodide.asm.wasm").exists():
        return "npm `pyodide` is not installed: run tests/pyodide/setup.sh"
    wanted = re.findall(r"^([\w.-]+)==([\w.]+) ", (TIER / "wheels.txt").read_text(), re.M)
    have = [p.name for p in (TIER / "wheels").glob("*.whl")] if (TIER / "wheels").exists() else []
    for name, version in wanted:
        if not any(f.startswith(f"{name.replace('-', '_')}-{version}-") for f in have):
            return f"wheel {name}=={version} is not fetched: run tests/pyodide/setup.sh"
    return None


@pytest.mark.slow  # the whole tier in Node: over a minute on two cores
def test_the_pyodide_tier_passes() -> None:
    reason = _missing()
    if reason is not None:
        pytest.skip(reason)
    env = {**os.environ, "PATH": f"{Path(_node()).parent}{os.pathsep}{os.environ['PATH']}"}  # type: ignore[arg-type]
    result = subprocess.run(
        ["bash", str(TIER / "run.sh")],
        cwd=TIER,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        pytest.fail(
            f"tests/pyodide/run.sh exited {result.returncode}\n{result.stdout}\n{result.stderr}",
            pytrace=False,
        )
