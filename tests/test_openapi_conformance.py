"""schemathesis against a real `siteaudit serve`: every operation of GET /api/openapi.json, a
bounded number of generated requests each, with a key (the admin token on /api/keys).

Checks: no 5xx, every status documented for its operation, bodies and headers as documented,
content types as documented. Nothing leaves the machine: every audit the run starts is pointed at
a site on 127.0.0.1 (`prepared`), and the server allows loopback hosts only.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.openapi import operations
from api.routes import ROUTES
from tests.support.platform_vars import TEST_VARS
from tests.support.site_server import Site

ROOT = Path(__file__).resolve().parents[1]
ADMIN_TOKEN = "admin-token-for-schemathesis-0123456789"
DOCUMENTED = operations(ROUTES)
EXAMPLES_PER_OPERATION = 25
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    response_schema_conformance,
    response_headers_conformance,
    content_type_conformance,
]


def siteaudit(state: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", "--state-dir", str(state), *args]


@contextmanager
def serving(state: Path) -> Iterator[str]:
    """`siteaudit serve` on a free loopback port, with the test vars; yields its base URL."""
    overrides = [arg for name, value in TEST_VARS.items() for arg in ("--var", f"{name}:{value}")]
    with subprocess.Popen(
        siteaudit(state, "serve", "--port", "0", *overrides),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "ADMIN_TOKEN": ADMIN_TOKEN},
    ) as server:
        try:
            assert server.stdout is not None
            line = server.stdout.readline()  # "siteaudit API on http://127.0.0.1:N/api/audits"
            yield line.split()[-1].removesuffix("/api/audits")
        finally:
            server.terminate()
            server.wait(timeout=10)


def new_key(state: Path) -> str:
    made = subprocess.run(
        siteaudit(state, "keys", "create", "--owner", "fuzz"),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=True,
    )
    return made.stdout.splitlines()[1]


class Target:
    """The server, the credentials, and audits for generated ids to be pointed at."""

    def __init__(self, base: str, key: str, site: Site) -> None:
        self.base = base
        self.site = site
        self.client = httpx.Client(
            base_url=base, headers={"authorization": f"Bearer {key}"}, timeout=30
        )
        self.key_headers = {"authorization": f"Bearer {key}"}
        self.admin_headers = {"authorization": f"Bearer {ADMIN_TOKEN}"}
        self.finished = self.new_audit(wait=True)

    def new_audit(self, *, wait: bool = False) -> str:
        created = self.client.post("/api/audits", json={"url": self.site.url("/")})
        assert created.status_code == 201, created.text
        audit_id: str = created.json()["audit"]["id"]
        deadline = time.monotonic() + 60
        while wait and self.client.get(f"/api/audits/{audit_id}").json()["audit"]["status"] == (
            "running"
        ):
            assert time.monotonic() < deadline
            time.sleep(0.1)
        return audit_id

    def prepared(self, case: Any) -> dict[str, str]:
        """Point the case at this machine and at real audits; the headers to send it with."""
        body = case.body
        if isinstance(body, dict) and isinstance(body.get("url"), str):
            body["url"] = self.site.url("/")  # never crawl what the generator made up
        audit_id = (case.path_parameters or {}).get("audit_id")
        if audit_id is not None and len(audit_id) % 2 == 0:
            # Half the generated ids name a real audit; a delete gets one of its own, finished
            # (a running audit is refused: 409).
            real = self.new_audit(wait=True) if case.method == "DELETE" else self.finished
            case.path_parameters["audit_id"] = real
        return self.admin_headers if case.path.startswith("/api/keys") else self.key_headers


@pytest.mark.slow
def test_every_operation_answers_as_documented(small_site: Site, tmp_path: Path) -> None:
    state = tmp_path / "state"
    key = new_key(state)
    with serving(state) as base:
        target = Target(base, key, small_site)
        schema = schemathesis.openapi.from_url(f"{base}/api/openapi.json")
        # An Err (an operation it could not load) has no ok(): the test fails here.
        operations = [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
        # schemathesis leaves out the operation that serves the document it was loaded from.
        expected = set(DOCUMENTED) - {("GET", "/api/openapi.json")}
        assert {(op.method.upper(), op.path) for op in operations} == expected
        try:
            for operation in operations:
                for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                    exercise(operation, mode, target)
        finally:
            target.client.close()


def exercise(operation: Any, mode: GenerationMode, target: Target) -> None:
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        headers = target.prepared(case)
        case.call_and_validate(base_url=target.base, headers=headers, checks=CHECKS)

    run()
