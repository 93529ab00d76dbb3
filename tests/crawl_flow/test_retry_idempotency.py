"""A crawl chunk that dies at any await point and is retried ends exactly like an uninterrupted one.

Workflow steps are retried, so every write of a chunk must be idempotent: a retried chunk gets
back exactly its unfinished URLs, page and issue ids are deterministic, and all writes are
insert-or-ignore/replace on stable keys. Here the chunk's collaborators (scratchpad, D1, HTTP) are
wrapped so that the k-th awaited call of the first attempt raises; the step's retry must then
produce the same D1 rows and issues as a run without the failure, for every k.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import workflow.site_audit as site_audit
from cli.report import full_report
from crawl.chunk import ChunkIO
from local_platform.clock import ManualClock
from local_platform.runtime import LocalPlatform
from tests.support.platform_vars import TEST_VARS
from tests.support.site_server import Reply, Site, html_page, serve_site

TIMING_FIELDS = {"crawled_at", "response_time_ms"}


class InjectedFault(RuntimeError):
    pass


class FailingAt:
    """Counts awaited calls across the wrapped collaborators; the k-th one raises, once."""

    def __init__(self, fail_at: int | None) -> None:
        self.fail_at = fail_at
        self.calls = 0
        self.fired = False

    def wrap(self, target: Any) -> Any:
        counter = self

        class Proxy:
            def __getattr__(self, name: str) -> Any:
                attribute = getattr(target, name)
                if not callable(attribute):
                    return attribute

                def call(*args: Any, **kwargs: Any) -> Any:
                    result = attribute(*args, **kwargs)
                    if not hasattr(result, "__await__"):
                        return counter.wrap(result)  # prepare().bind() chains stay counted
                    return counter.checked(result)

                return call

        return Proxy()

    async def checked(self, awaitable: Any) -> Any:
        self.calls += 1
        if not self.fired and self.calls == self.fail_at:
            self.fired = True
            awaitable.close() if hasattr(awaitable, "close") else None
            raise InjectedFault(f"injected failure at await #{self.fail_at}")
        return await awaitable


def site_routes() -> dict[str, Reply]:
    routes = {
        f"/p{i}": Reply(
            body=html_page(f"Page {i} of the site", f"<a href='/p{(i + 1) % 11}'>next</a>")
        )
        for i in range(11)
    }
    routes["/"] = Reply(body=html_page("Home", "<a href='/p0'>start</a><a href='/gone'>gone</a>"))
    return routes


class FaultyChunks:
    """Installs a chunk runner whose collaborators fail at the current fault's await point."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.fault = FailingAt(None)
        real_run_chunk = site_audit.run_chunk  # type: ignore[attr-defined]  # the name where the workflow looks it up and the test patches it

        async def run_chunk(scope: Any, plan: Any, io: ChunkIO) -> Any:
            fault = self.fault
            wrapped = ChunkIO(
                pad=fault.wrap(io.pad),
                db=fault.wrap(io.db),
                http=fault.wrap(io.http),
                clock=io.clock,
            )
            return await real_run_chunk(scope, plan, wrapped)

        monkeypatch.setattr(site_audit, "run_chunk", run_chunk)


async def audit_with_fault(
    platform: LocalPlatform, chunks: FaultyChunks, site: Site, fail_at: int | None
) -> tuple[Any, int]:
    chunks.fault = FailingAt(fail_at)
    status, body = await platform.request("POST", "/api/audits", {"url": site.url("/")})
    assert status == 201
    audit_id = body["audit"]["id"]
    await platform.wait_for_workflow(audit_id, timeout_s=60)
    report = await full_report(platform, audit_id)
    return _comparable(report), chunks.fault.calls


@pytest.fixture
async def clocked(tmp_path: Path) -> AsyncIterator[LocalPlatform]:
    # A manual clock makes the step's 10 s retry delay instant.
    platform = LocalPlatform(tmp_path / "state", clock=ManualClock(), var_overrides=TEST_VARS)
    yield platform
    await platform.close()


def _comparable(report: dict[str, Any]) -> Any:
    def page(row: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(
            sorted(
                (k, str(v)) for k, v in row.items() if k not in TIMING_FIELDS | {"id", "audit_id"}
            )
        )

    def issue(row: dict[str, Any]) -> tuple[Any, ...]:
        return (
            row["issue_type"],
            row["page_url"],
            str(sorted(row["details"].items())),
            row["severity"],
        )

    audit = report["audit"]
    return (
        audit["status"],
        audit["pages_crawled"],
        audit["issues_total"],
        sorted(page(p) for p in report["pages"]),
        sorted(issue(i) for i in report["issues"]),
    )


async def test_every_await_point_of_a_chunk_survives_a_retry(
    clocked: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    chunks = FaultyChunks(monkeypatch)
    with serve_site(site_routes()) as site:
        baseline, awaits = await audit_with_fault(clocked, chunks, site, None)
        assert baseline[0] == "completed" and awaits > 10
        for fail_at in range(1, awaits + 1):
            outcome, _ = await audit_with_fault(clocked, chunks, site, fail_at)
            assert chunks.fault.fired, f"await #{fail_at} was never reached"
            assert outcome == baseline, f"differs after a failure at await #{fail_at}"
