"""The `workers` SDK surface on CPython, installed as the modules `workers` and `workers.workflows`.

The real SDK (`workers-runtime-sdk`) imports `js` and cannot load outside Pyodide. The shells in
entry.py import only what is listed here, and the local platform installs these modules in
`sys.modules` before it imports entry.py, so the same shell code runs on both platforms. The few
`js` and `pyodide.ffi` names entry.py uses to stream a response body come from
`local_platform.js_streams`, installed alongside.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from local_platform import errors, js_streams, rpc


class WorkerEntrypoint:
    def __init__(self, ctx: Any, env: Any) -> None:
        self.ctx = ctx
        self.env = env


class DurableObject:
    def __init__(self, ctx: Any, env: Any) -> None:
        self.ctx = ctx
        self.env = env


class WorkflowEntrypoint:
    def __init__(self, ctx: Any, env: Any) -> None:
        self.ctx = ctx
        self.env = env


def python_to_rpc(value: Any) -> Any:
    rpc.refuse_disabled_types(value)
    return value


def python_from_rpc(value: Any) -> Any:
    return rpc.crossing(value)


def build_modules() -> tuple[types.ModuleType, types.ModuleType]:
    from local_platform import fetch as local_fetch
    from local_platform import http as local_http

    workers = types.ModuleType("workers", __doc__)
    workers.__path__ = []  # a package, so `import workers.workflows` resolves
    for name, value in {
        "WorkerEntrypoint": WorkerEntrypoint,
        "DurableObject": DurableObject,
        "WorkflowEntrypoint": WorkflowEntrypoint,
        "Request": local_http.Request,
        "Response": local_http.Response,
        "FetchResponse": local_http.FetchResponse,
        "fetch": local_fetch.fetch,
        "python_to_rpc": python_to_rpc,
        "python_from_rpc": python_from_rpc,
    }.items():
        setattr(workers, name, value)
    workflows = types.ModuleType("workers.workflows")
    workflows.NonRetryableError = errors.NonRetryableError  # type: ignore[attr-defined]
    workers.workflows = workflows  # type: ignore[attr-defined]
    return workers, workflows


def install() -> None:
    """Make `import workers` (and `js`, `pyodide.ffi`) resolve to the local surface (idempotent)."""
    current = sys.modules.get("workers")
    if current is not None and getattr(current, "__local_platform__", False):
        return
    js_streams.install()
    workers, workflows = build_modules()
    workers.__local_platform__ = True  # type: ignore[attr-defined]
    sys.modules["workers"] = workers
    sys.modules["workers.workflows"] = workflows
