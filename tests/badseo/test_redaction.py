"""The redaction test (issue 28, item 1): audits of a closed site run with distinctive secrets
through every interface (the API, MCP, a monitor's runs by `run now` and by the hourly cron, the
CLI), and then every output is searched for them: each API and MCP response body, each report
format and export, the CLI's stdout, stderr and files, every log record, and every byte the
platform stored (D1, Durable Object storage, the Workflow instance store with its params and step
results, queue messages, R2 objects, gzip'd ones opened). Only the sealed form may be there, and
it must be: the test also checks the secrets did reach the site, and that the stored rows and the
workflow params hold the sealed value (`sa1.`).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
import os
import re
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from local_platform import workflow_codec
from local_platform.http import Request
from local_platform.runtime import LocalPlatform
from tests.badseo.closed_sites import (
    ACCESS_ID,
    ACCESS_SECRET,
    BASIC_PASSWORD,
    BASIC_USER,
    SECRETS,
    SESSION,
    VARIANTS,
    Wall,
    serve_closed,
)
from tests.support.cli_process import siteaudit

pytestmark = pytest.mark.slow

BASIC = next(variant for variant in VARIANTS if variant.wall is Wall.BASIC)
# All three kinds at once: the basic-auth wall lets the site through, the header and the cookie
# go along, so every kind of secret is sent and must be kept out of every output.
CREDENTIALS = {
    "basic_auth": {"user": BASIC_USER, "password": BASIC_PASSWORD},
    "headers": {"CF-Access-Client-Id": ACCESS_ID, "CF-Access-Client-Secret": ACCESS_SECRET},
    "cookies": {"badseo_session": SESSION},
    "send_to_external_links": True,
}
SEALED = re.compile(rb"sa1\.[0-9a-f]{16}\.[A-Za-z0-9_-]{40,}")
FORMATS = ("text", "json", "csv", "junit", "sarif", "html")
MONITOR_QUEUE = "siteaudit-monitor"


class Outputs:
    """Every text an interface answered with, by where it came from."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, str]] = []

    def add(self, where: str, text: str) -> str:
        self.texts.append((where, text))
        return text

    def leaks(self) -> list[str]:
        return [f"{where}: {s}" for where, text in self.texts for s in SECRETS if s in text]


async def call(
    platform: LocalPlatform, out: Outputs, method: str, path: str, body: object = None
) -> Any:
    """One request through the Worker's own `fetch` (entry.py), its body kept as text."""
    headers = {"authorization": f"Bearer {await platform.local_key()}"}
    if path == "/mcp":
        headers["accept"] = "application/json, text/event-stream"
    if body is not None:
        headers["content-type"] = "application/json"
    raw = None if body is None else json.dumps(body)
    request = Request(f"http://siteaudit.local{path}", method=method, headers=headers, body=raw)
    response = await platform.fetch(request)
    text = out.add(f"{method} {path}", await response.text())
    assert response.status < 400, (path, text)
    kind = response.headers.get("content-type", "")
    return json.loads(text) if kind.startswith("application/json") else text


async def read_every_view(platform: LocalPlatform, out: Outputs, audit_id: str) -> None:
    base = f"/api/audits/{audit_id}"
    for suffix in (
        "", "/progress", "/report", "/actions", "/pages", "/issues", "/lighthouse",
        "/report.html", "/pages.csv", "/pages.ndjson", "/issues.csv", "/issues.ndjson",
        "/lighthouse.csv",
    ):  # fmt: skip
        await call(platform, out, "GET", base + suffix)


async def mcp(platform: LocalPlatform, out: Outputs, name: str, **arguments: Any) -> Any:
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
    answer = await call(
        platform, out, "POST", "/mcp", {**message, "params": {"name": name, "arguments": arguments}}
    )
    assert not answer["result"]["isError"], answer
    return answer["result"]["structuredContent"]


async def finished(platform: LocalPlatform, audit_id: str) -> None:
    await platform.wait_for_workflow(audit_id, timeout_s=60)


async def through_the_api_mcp_and_monitors(platform: LocalPlatform, out: Outputs, url: str) -> None:
    body = {"url": url, "max_pages": 20, "check_external": True, "credentials": CREDENTIALS}
    audit = (await call(platform, out, "POST", "/api/audits", body))["audit"]
    await finished(platform, audit["id"])
    await read_every_view(platform, out, audit["id"])
    rerun = (await call(platform, out, "POST", f"/api/audits/{audit['id']}/rerun"))["audit"]
    await finished(platform, rerun["id"])
    await call(platform, out, "GET", f"/api/audits/{audit['id']}/compare/{rerun['id']}")
    await call(platform, out, "GET", "/api/audits")

    await call(platform, out, "POST", "/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    started = await mcp(platform, out, "run_site_audit", url=url, credentials=CREDENTIALS)
    await finished(platform, started["audit"]["id"])
    for tool in ("get_audit_status", "get_audit_issues", "get_audit_pages", "get_audit_actions"):
        await mcp(platform, out, tool, audit_id=started["audit"]["id"])

    monitor_body = {"url": url, "max_pages": 20, "credentials": CREDENTIALS}
    now = (await call(platform, out, "POST", "/api/monitors", monitor_body))["monitor"]
    path = f"/api/monitors/{now['id']}"
    edited = await call(platform, out, "PATCH", path, {"frequency": "weekly"})
    assert edited["monitor"]["credentials"] == now["credentials"]  # kept: not sent again
    ran = await call(platform, out, "POST", f"{path}/run")
    await finished(platform, ran["audit_id"])
    hourly = (await call(platform, out, "POST", "/api/monitors", monitor_body))["monitor"]
    await platform.scheduled("0 * * * *")  # the producer's queue message, then its run
    await platform.drain_queue(MONITOR_QUEUE)
    for run in (await call(platform, out, "GET", f"/api/monitors/{hourly['id']}/runs"))["runs"]:
        await finished(platform, run["audit_id"])
    await platform.drain_queue(MONITOR_QUEUE)  # the runs finish: reports to R2, alerts
    for monitor in (now, hourly):
        await call(platform, out, "GET", f"/api/monitors/{monitor['id']}")
        runs = await call(platform, out, "GET", f"/api/monitors/{monitor['id']}/runs")
        assert [run["status"] for run in runs["runs"]] == ["completed"], runs
    await call(platform, out, "GET", "/api/monitors")


def through_the_cli(state: Path, out: Outputs, url: str, files: Path) -> None:
    def run(*args: str) -> None:
        done = siteaudit(*args, state_dir=state)
        out.add(f"siteaudit {args[0]} stdout", done.stdout)
        out.add(f"siteaudit {args[0]} stderr", done.stderr)
        assert done.returncode in (0, 1), done.stderr

    auth = ("--auth", f"{BASIC_USER}:{BASIC_PASSWORD}")
    header = ("--header", f"CF-Access-Client-Secret: {ACCESS_SECRET}")
    cookie = ("--cookie", f"badseo_session={SESSION}")
    report = files / "audit.json"
    run("audit", url, "--allow-private-hosts", *auth, *header, *cookie, "--json", str(report))
    audit_id = json.loads(report.read_text())["audit"]["id"]
    for fmt in FORMATS:
        written = files / f"report.{fmt}"
        run("report", audit_id, "--format", fmt, "--output", str(written))
        run("report", audit_id, "--format", fmt)
    os.environ["BADSEO_AUTH"] = f"{BASIC_USER}:{BASIC_PASSWORD}"
    try:
        run("monitors", "add", url, "--auth-env", "BADSEO_AUTH", *cookie, "--allow-private-hosts")
    finally:
        del os.environ["BADSEO_AUTH"]
    run("monitors", "list")
    for path in files.iterdir():
        out.add(str(path), path.read_text())


def stored_leaks(state: Path) -> tuple[list[str], int]:
    """Every stored file that holds a secret (gzip'd ones opened), and how many sealed values
    the files hold in all."""
    leaks, sealed = [], 0
    for path in sorted(p for p in state.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        sealed += len(SEALED.findall(data))
        leaks += [f"{path}: {s}" for s in SECRETS if s.encode() in data]
    return leaks, sealed


async def test_no_output_log_or_stored_byte_holds_a_secret(
    platform: LocalPlatform, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    out = Outputs()
    files = tmp_path / "cli-files"
    files.mkdir()
    with serve_closed(BASIC) as closed:
        await through_the_api_mcp_and_monitors(platform, out, closed.start_url)
        await asyncio.to_thread(
            through_the_cli, tmp_path / "cli-state", out, closed.start_url, files
        )
        site_requests = closed.site.requests

    # The secrets went where they had to: every request to the site carried all three kinds.
    assert site_requests and all(BASIC.admits(r.headers) for r in site_requests)
    assert all(SESSION in r.headers.get("cookie", "") for r in site_requests)
    assert all(r.headers.get("cf-access-client-secret") == ACCESS_SECRET for r in site_requests)
    # ... and nowhere else.
    assert out.leaks() == []
    logged = [caplog.text, *(record.getMessage() for record in caplog.records)]
    assert [s for s in SECRETS for text in logged if s in text] == []
    for state in (platform.state_dir, tmp_path / "cli-state"):
        leaks, sealed = stored_leaks(state)
        assert leaks == []
        assert sealed > 0  # the sealed form is what is kept
    # Every Workflow instance was created with its credentials sealed in its params.
    assert instance_credentials(platform.state_dir) == {"sealed"}


def instance_credentials(state: Path) -> set[str]:
    """What each Workflow instance's params hold for credentials: "sealed" or "none"."""
    with closing(sqlite3.connect(state / "workflows.sqlite")) as db:
        rows = db.execute("SELECT params FROM instances").fetchall()
    held = [workflow_codec.decode(text).get("credentials_sealed") for (text,) in rows]
    return {"sealed" if value and SEALED.fullmatch(value.encode()) else "none" for value in held}
