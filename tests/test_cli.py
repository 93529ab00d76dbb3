"""The terminal interface: `siteaudit audit` and `siteaudit serve`, as separate processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.support.site_server import Site

ROOT = Path(__file__).resolve().parents[1]


def siteaudit(*args: str, state_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", "--state-dir", str(state_dir), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_audit_prints_its_id_first_and_writes_the_report(small_site: Site, tmp_path: Path) -> None:
    report_path = tmp_path / "out" / "report.json"

    done = siteaudit(
        "audit",
        small_site.url("/"),
        "--allow-private-hosts",
        "--max-pages",
        "10",
        "--json",
        str(report_path),
        state_dir=tmp_path / "state",
    )

    assert done.returncode == 0, done.stderr
    first_line, *summary = done.stdout.splitlines()
    audit_id = first_line.removeprefix("audit ")
    assert first_line == f"audit {audit_id}" and len(audit_id) == 36
    assert "status: completed" in summary
    report = json.loads(report_path.read_text())
    assert {"audit", "summary", "pages", "issues"} <= set(report)
    assert {k: report["audit"][k] for k in ("id", "status", "start_url", "error_code")} == {
        "id": audit_id,
        "status": "completed",
        "start_url": small_site.url("/"),
        "error_code": None,
    }
    assert report["audit"]["pages_crawled"] == len(report["pages"]) >= 1
    assert {"url", "status_code"} <= set(report["pages"][0])


def test_audit_refuses_private_hosts_without_the_flag(small_site: Site, tmp_path: Path) -> None:
    done = siteaudit("audit", small_site.url("/"), state_dir=tmp_path / "state")

    assert done.returncode == 2
    assert "private" in done.stderr and done.stdout == ""


def test_audit_rejects_a_malformed_url(tmp_path: Path) -> None:
    done = siteaudit("audit", "ftp://example.com/", state_dir=tmp_path / "state")

    assert done.returncode == 2 and "http" in done.stderr


def test_serve_answers_the_api_on_loopback(small_site: Site, tmp_path: Path) -> None:
    with subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cli.main",
            "--state-dir",
            str(tmp_path / "state"),
            "serve",
            "--port",
            "0",
            "--allow-private-hosts",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    ) as server:
        try:
            _exercise_api(server, small_site)
        finally:
            server.terminate()
            server.wait(timeout=10)


def _exercise_api(server: subprocess.Popen[str], small_site: Site) -> None:
    assert server.stdout is not None
    api = server.stdout.readline().split()[-1]
    created = httpx.post(api, json={"url": small_site.url("/")}, timeout=10)
    assert created.status_code == 201
    status_url = api + "/" + created.json()["audit"]["id"]
    deadline = time.monotonic() + 60
    while (audit := httpx.get(status_url, timeout=10).json()["audit"])["status"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert audit["status"] == "completed"
    assert httpx.get(api + "/nope", timeout=10).status_code == 404
