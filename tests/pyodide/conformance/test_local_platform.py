"""The conformance checks on the CPython local platform (the same checks run inside Pyodide)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from local_platform import workers_sdk

workers_sdk.install()  # the probes import `workers`

from local_platform.clock import SystemClock  # noqa: E402
from local_platform.d1 import LocalD1Database  # noqa: E402
from local_platform.durable_objects import DurableObjectNamespace  # noqa: E402
from local_platform.workflows import WorkflowEngine  # noqa: E402
from tests.pyodide.conformance import checks, probes  # noqa: E402


class ConformanceEnv:
    DB: Any
    PROBE: Any
    PROBE_FLOW: Any


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[ConformanceEnv]:
    clock = SystemClock()
    conformance_env = ConformanceEnv()
    conformance_env.DB = LocalD1Database(tmp_path / "d1.sqlite")
    conformance_env.PROBE = DurableObjectNamespace(
        "ProbeObject",
        probes.ProbeObject,
        state_dir=tmp_path / "do",
        clock=clock,
        env_provider=lambda: conformance_env,
    )
    engine = WorkflowEngine(tmp_path / "workflows.sqlite", clock=clock)
    engine.register("probe-flow", probes.ProbeFlow, lambda: conformance_env)
    conformance_env.PROBE_FLOW = engine.binding("probe-flow")
    probes.CALLS.clear()
    try:
        yield conformance_env
    finally:
        await engine.aclose()
        conformance_env.PROBE.close()
        conformance_env.DB.close()


# Behaviour of the real SDK the local platform does not reproduce; strict, so a fix shows up.
KNOWN_DRIFT: dict[str, str] = {}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(reason=KNOWN_DRIFT[n], strict=True))
        if n in KNOWN_DRIFT
        else n
        for n in checks.names()
    ],
)
async def test_conformance(env: ConformanceEnv, name: str) -> None:
    await checks.run(env, name)
